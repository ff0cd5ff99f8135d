#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Many collectors, one fabric, on the loopback: a simulated 3-level fat tree, rrdcached as the
# central RRD store behind a TLS tunnel, an Icinga 2 master and two satellite zones of two
# endpoints each (five icinga2 daemons with certificates from `icinga2 pki`), running the
# configuration ibpm-nagios-config writes, as docs/operators.md deploys it: rrdcached on a unix
# socket only (-O, -P, an unprivileged user when the test runs as root), an stunnel server in
# front of it that accepts only client certificates of the site's store CA, and an stunnel
# client per node (its own certificate) that every collector and the analyzer reach on the
# loopback. The test shows that the shards run on the satellites, that the store holds every
# cabled port once (as one full sweep does), that the store refuses a connection without a
# certificate and any command outside its -P list, that errors under each zone reach the
# master, that a zone's shard goes on from its other endpoint without a baseline gap when one
# dies, that the master tells when a whole zone is gone, that a stopped store is reported and
# loses nothing, what a SIGKILL of the store loses, and that the analyzer on the store's host
# sees every port.
#
# Usage: test_distributed.sh BIN_DIR. Exit 0 passed, 1 failed, 77 skipped (a tool is missing).
# KEEP=1 keeps the work folder.
set -uo pipefail

BIN=$(cd "${1:?usage: $0 BIN_DIR}" && pwd)
INTERVAL=${INTERVAL:-15}   # seconds between checks

for tool in icinga2 rrdcached rrdtool ibsim opensm curl jq setsid openssl timeout; do
  if ! command -v "$tool" >/dev/null && [ ! -x "/usr/sbin/$tool" ]; then
    echo "SKIPPED: $tool is not installed (scripts/install-deps.sh installs it)"
    exit 77
  fi
done
[ -x /usr/lib/nagios/plugins/negate ] || { echo "SKIPPED: monitoring-plugins-basic missing"; exit 77; }
STUNNEL=$(command -v stunnel4 || command -v stunnel) ||
  { echo "SKIPPED: stunnel4 is not installed (scripts/install-deps.sh installs it)"; exit 77; }

W=$(mktemp -d /tmp/ibpm-distributed.XXXXXX)
START=$(date +%s)
declare -A PGID   # daemon name -> process group (each daemon in its own, started with setsid)

log() { printf '[%4ds] %s\n' $(($(date +%s) - START)) "$*"; }
fail() {
  log "FAIL: $*"
  for f in "$W"/icinga/*/log/icinga2.log; do
    [ -f "$f" ] && { echo "--- $f (critical lines)"; grep -h "critical/" "$f" | tail -5; }
  done
  exit 1
}

stop_daemon() {  # NAME [SIGNAL]: the daemon's whole process group (icinga2 runs a worker child)
  local name=$1 signal=${2:-TERM} pg=${PGID[$1]:-}
  [ -n "$pg" ] || return 0
  kill -"$signal" -- "-$pg" 2>/dev/null
  for _ in $(seq 100); do kill -0 -- "-$pg" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$pg" 2>/dev/null
  unset "PGID[$name]"
}

cleanup() {
  [ -n "${INJECTOR:-}" ] && kill "$INJECTOR" 2>/dev/null
  for name in "${!PGID[@]}"; do stop_daemon "$name"; done
  "$BIN/ibpm-sim" stop --dir "$W/sim" >/dev/null 2>&1
  [ -n "${KEEP:-}" ] && echo "kept $W" || rm -rf "$W"
}
trap cleanup EXIT

start_daemon() {  # NAME LOG COMMAND...: in a process group of its own
  local name=$1 out=$2
  shift 2
  setsid "$@" >"$out" 2>&1 </dev/null &
  PGID[$name]=$!
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {  # a port nothing listens on, from a per-run random base
  local p=$1
  while ! port_free "$p"; do p=$((p + 1)); done
  echo "$p"
}

wait_for() {  # SECONDS DESCRIPTION COMMAND...: until COMMAND succeeds
  local seconds=$1 what=$2
  shift 2
  local until=$(($(date +%s) + seconds))
  until "$@"; do
    [ "$(date +%s)" -lt "$until" ] || fail "$what: not within ${seconds} s"
    sleep 1
  done
}

# --- the fabric --------------------------------------------------------------------------------
mkdir -p "$W/clients"
[ -d /dev/shm ] && CLIENTS=$(mktemp -d /dev/shm/ibpm-distributed.XXXXXX) || CLIENTS=$W/clients
trap 'cleanup; rm -rf "$CLIENTS"' EXIT
"$BIN/ibpm-sim" generate --hosts 256 --radix 32 --levels 3 -o "$W/fabric.net" >/dev/null ||
  fail "ibpm-sim generate"
"$BIN/ibpm-sim" start --dir "$W/sim" "$W/fabric.net" >/dev/null || fail "ibpm-sim start"
# The checks as Icinga 2 runs them, made clients of the simulation (a real site runs them as
# they are: only LD_PRELOAD, the simulator's socket name and the tunnel's port differ).
# The generated configuration names the store as every node reaches it on a real site, its own
# stunnel client at 127.0.0.1:42217; here the five nodes share one loopback, so each node's
# client has a port of its own ($W/tunnel/NODE.port) and the wrapper, knowing the node by its
# --state-dir, gives the check that port instead.
STORE=127.0.0.1:42217
mkdir -p "$W/plugins" "$W/tunnel"
for check in check_ib_topology check_ib_port check_ib_node check_ib_fabric; do
  # Every sweep's samples (per port: counters, rates and their interval) go to one CSV file,
  # appended under a lock by whichever endpoint runs the sweep.
  extra=""
  [ "$check" = check_ib_fabric ] && extra="--csv '$W/samples.csv'"
  cat >"$W/plugins/$check" <<EOF
#!/usr/bin/env bash
cd '$CLIENTS' || exit 3
. '$W/sim/env'
node="" prev=""
for a in "\$@"; do
  [ "\$prev" = --state-dir ] && [[ "\$a" == '$W/icinga/'*/ibpm ]] &&
    { node=\${a#'$W/icinga/'}; node=\${node%/ibpm}; }
  prev=\$a
done
args=()
for a in "\$@"; do
  if [ "\$a" = '$STORE' ]; then
    [ -s "$W/tunnel/\$node.port" ] || { echo "UNKNOWN: no store tunnel for node '\$node'"; exit 3; }
    a=127.0.0.1:\$(cat "$W/tunnel/\$node.port")
  fi
  args+=("\$a")
done
exec '$BIN/$check' "\${args[@]}" $extra 2>>'$W/plugins.stderr'
EOF
  chmod +x "$W/plugins/$check"
done
sim() { (cd "$CLIENTS" && . "$W/sim/env" && "$@"); }
console() { printf '%s\n' "$*" >"$W/sim/console"; }
sim "$W/plugins/check_ib_topology" --write-baseline "$W/baseline.cache" >/dev/null ||
  fail "baseline"
log "fabric: $(grep -c '^Switch' "$W/fabric.net") switches, 256 hosts, ibsim ready"

# --- the central store: rrdcached on a unix socket, reachable only through TLS ---------------------
NODES=(master ib-sat-1a ib-sat-1b ib-sat-2a ib-sat-2b)
declare -A TUNNEL_PORT
BASE=$((20000 + RANDOM % 20000))
TLS_PORT=$(free_port "$BASE")   # the store's stunnel server: the only way in from the network
p=$((TLS_PORT + 1))
for n in "${NODES[@]}"; do
  p=$(free_port "$p")
  TUNNEL_PORT[$n]=$p
  echo "$p" >"$W/tunnel/$n.port"
  p=$((p + 1))
done
tunnel_of() { echo "127.0.0.1:${TUNNEL_PORT[$1]}"; }
ANALYZER=$(tunnel_of master)   # the analyzer on the store's host, through the master's client

# The site's store CA, a server certificate for the store (named ibpm-store, serverAuth only)
# and a client certificate per node (clientAuth only), as docs/operators.md makes them.
PKI=$W/store-pki
mkdir -p "$PKI"
openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -sha256 \
  -days 3650 -subj "/CN=ibpm store CA" -addext "basicConstraints=critical,CA:true" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" -keyout "$PKI/ca.key" -out "$PKI/ca.crt" \
  >"$W/store-pki.log" 2>&1 || fail "store CA: $(cat "$W/store-pki.log")"
store_cert() {  # NAME EXTENSIONS: a key and a certificate signed by the store CA
  openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -subj "/CN=$1" \
    -keyout "$PKI/$1.key" -out "$PKI/$1.csr" >>"$W/store-pki.log" 2>&1 &&
    printf '%b' "$2" >"$PKI/$1.ext" &&
    openssl x509 -req -sha256 -days 825 -in "$PKI/$1.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" \
      -CAcreateserial -extfile "$PKI/$1.ext" -out "$PKI/$1.crt" >>"$W/store-pki.log" 2>&1 ||
    fail "store certificate $1: $(tail -3 "$W/store-pki.log")"
}
store_cert ibpm-store 'basicConstraints=CA:false\nsubjectAltName=DNS:ibpm-store\nextendedKeyUsage=serverAuth\n'
for n in "${NODES[@]}"; do
  store_cert "$n" 'basicConstraints=CA:false\nextendedKeyUsage=clientAuth\n'
done
# A certificate of another CA with a satellite's name: what a stranger could make.
openssl req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 30 \
  -subj "/CN=ib-sat-1a" -keyout "$PKI/stranger.key" -out "$PKI/stranger.crt" \
  >>"$W/store-pki.log" 2>&1 || fail "stranger's certificate"

# The daemon: a unix socket only, CREATE never replaces a file (-O), and only the commands the
# collectors (BATCH with UPDATE in it, UPDATE, CREATE, FLUSH, INFO, LAST) and the analyzer
# (FLUSH, FETCH, INFO) send (-P; HELP and QUIT are always allowed, "." with BATCH). As root the
# test runs it as nobody, as a site runs it as its own user (-U/-G); otherwise as the test's user.
RRD_SOCK=$W/rrdcached.sock
RRD_COMMANDS=BATCH,UPDATE,CREATE,FLUSH,PENDING,INFO,LAST,FETCH
mkdir -p "$W/store" "$W/journal"
run_as=()
if [ "$(id -u)" = 0 ]; then
  run_as=(-U nobody -G "$(id -gn nobody)")
  chown nobody:"$(id -gn nobody)" "$W/store" "$W/journal"
  chmod 711 "$W"   # the daemon's user goes through the work folder to its own
fi
start_rrdcached() {
  start_daemon rrdcached "$W/rrdcached.log" rrdcached -g "${run_as[@]}" -O -R -B -b "$W/store" \
    -j "$W/journal" -p "$W/rrdcached.pid" -w 3600 -f 7200 \
    -m 0660 -P "$RRD_COMMANDS" -l "unix:$RRD_SOCK"
  # The daemon replays its journal before it answers: under CI's load (two cores, a sanitizer
  # build beside it) that took more than 30 s once, so the wait is generous and its length logged.
  local started=$(date +%s)
  wait_for 180 "rrdcached answering through the tunnel" store_answers
  log "rrdcached answered through the tunnel after $(($(date +%s) - started)) s"
}
say() {  # PORT COMMAND...: the daemon's answers to COMMANDs sent to PORT (QUIT added)
  local port=$1
  shift
  (
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    printf '%s\n' "$@" QUIT >&3
    timeout 20 cat <&3
  ) 2>/dev/null
}
store_answers() { say "${TUNNEL_PORT[master]}" HELP | grep -q '^[0-9]* Command overview'; }

# The stunnel server: TLS on the (here loopback) network, a client certificate of the store CA
# required and verified, the daemon's unix socket behind it.
stunnel_conf() {  # the first lines of an stunnel configuration, run in the foreground
  printf 'foreground = yes\npid =\ndebug = notice\n'
}
{
  stunnel_conf
  cat <<EOF
[ibpm-store]
accept = 127.0.0.1:$TLS_PORT
connect = $RRD_SOCK
cert = $PKI/ibpm-store.crt
key = $PKI/ibpm-store.key
CAfile = $PKI/ca.crt
verifyChain = yes
requireCert = yes
sslVersionMin = TLSv1.2
EOF
} >"$W/stunnel-server.conf"
start_daemon stunnel-server "$W/stunnel-server.out" "$STUNNEL" "$W/stunnel-server.conf"
# One client per node with the node's own certificate, checking the store's.
for n in "${NODES[@]}"; do
  {
    stunnel_conf
    cat <<EOF
[ibpm-store]
client = yes
accept = $(tunnel_of "$n")
connect = 127.0.0.1:$TLS_PORT
cert = $PKI/$n.crt
key = $PKI/$n.key
CAfile = $PKI/ca.crt
verifyChain = yes
checkHost = ibpm-store
sslVersionMin = TLSv1.2
EOF
  } >"$W/stunnel-$n.conf"
  start_daemon "stunnel-$n" "$W/stunnel-$n.out" "$STUNNEL" "$W/stunnel-$n.conf"
done
start_rrdcached
log "rrdcached on unix:$RRD_SOCK (-O, -P $RRD_COMMANDS${run_as[*]:+, ${run_as[*]}}), base $W/store; TLS at 127.0.0.1:$TLS_PORT; a tunnel per node (master at $ANALYZER)"

# --- the configuration ---------------------------------------------------------------------------
declare -A API_PORT ZONE
for n in "${NODES[@]}"; do p=$(free_port "$p"); API_PORT[$n]=$p; p=$((p + 1)); done
ZONE=([master]=master [ib-sat-1a]=ib-zone-1 [ib-sat-1b]=ib-zone-1 [ib-sat-2a]=ib-zone-2
  [ib-sat-2b]=ib-zone-2)
addresses=()
for n in "${NODES[@]:1}"; do addresses+=(--endpoint-address "$n=127.0.0.1:${API_PORT[$n]}"); done
"$BIN/ibpm-nagios-config" --format icinga2 -o "$W/ibpm" --cache "$W/baseline.cache" \
  --state-dir /var/lib/ibpm --plugin-dir "$W/plugins" --baseline "$W/baseline.cache" \
  --rrdcached "$STORE" --zones 2 --endpoints-per-zone 2 --satellite-prefix ib-sat- \
  --check-interval "$INTERVAL" "${addresses[@]}" >"$W/generator.log" 2>&1 ||
  fail "ibpm-nagios-config: $(cat "$W/generator.log")"
log "generated: $(cat "$W/generator.log")"

# --- five Icinga 2 nodes, each in its own folder ------------------------------------------------
export ICINGA2_USER ICINGA2_GROUP
ICINGA2_USER=$(id -un)
ICINGA2_GROUP=$(id -gn)
defines() {  # the folders of node $1
  local d=$W/icinga/$1
  echo -D "Configuration.DataDir=$d/data" -D "Configuration.RunDir=$d/run" \
    -D "Configuration.LogDir=$d/log" -D "Configuration.CacheDir=$d/cache" \
    -D "Configuration.SpoolDir=$d/spool"
}
for n in "${NODES[@]}"; do
  mkdir -p "$W/icinga/$n"/{data/certs,run/icinga2,log,cache,spool,ibpm}
done
# Certificates: a CA on the master, a key and signed certificate per endpoint.
# shellcheck disable=SC2046
icinga2 pki new-ca $(defines master) >"$W/pki.log" 2>&1 || fail "pki new-ca"
for n in "${NODES[@]}"; do
  c=$W/icinga/$n/data/certs
  # shellcheck disable=SC2046
  icinga2 pki new-cert --cn "$n" --key "$c/$n.key" --csr "$c/$n.csr" $(defines master) \
    >>"$W/pki.log" 2>&1 || fail "pki new-cert $n"
  # shellcheck disable=SC2046
  icinga2 pki sign-csr --csr "$c/$n.csr" --cert "$c/$n.crt" $(defines master) \
    >>"$W/pki.log" 2>&1 || fail "pki sign-csr $n"
  cp "$W/icinga/master/data/ca/ca.crt" "$c/ca.crt"
done
API_PASSWORD=ibpm-$RANDOM$RANDOM
for n in "${NODES[@]}"; do
  d=$W/icinga/$n
  {
    echo "const NodeName = \"$n\""
    echo "const ZoneName = \"${ZONE[$n]}\""
    echo "const PluginDir = \"/usr/lib/nagios/plugins\""
    echo "const ManubulonPluginDir = PluginDir"
    echo "const PluginContribDir = PluginDir"
    echo "const TicketSalt = \"\""
    # Each node's own sample records and locks (a real site: /var/lib/ibpm on each host).
    echo "const IbpmStateDir = \"$d/ibpm\""
    if [ "$n" = master ]; then
      echo 'object Endpoint "master" { }'
    else
      echo "object Endpoint \"master\" { host = \"127.0.0.1\"; port = \"${API_PORT[master]}\" }"
    fi
    echo 'object Zone "master" { endpoints = [ "master" ] }'
    echo "include \"$W/ibpm/ibpm-zones.conf\""
    echo 'include <itl>'
    echo 'include <plugins>'
    echo 'object IcingaApplication "app" { }'
    echo 'object CheckerComponent "checker" { }'
    echo "object FileLogger \"main-log\" { severity = \"information\"; path = \"$d/log/icinga2.log\" }"
    if [ "$n" = master ]; then
      echo "include \"$W/ibpm/ibpm-master.conf\""
      echo "object ApiListener \"api\" { bind_host = \"127.0.0.1\"; bind_port = ${API_PORT[$n]} }"
      echo "object ApiUser \"test\" { password = \"$API_PASSWORD\"; permissions = [ \"*\" ] }"
    else
      echo "object ApiListener \"api\" { bind_host = \"127.0.0.1\"; bind_port = ${API_PORT[$n]}"
      echo "  accept_config = true; accept_commands = true }"
    fi
  } >"$d/icinga2.conf"
  # shellcheck disable=SC2046
  icinga2 daemon -C -c "$d/icinga2.conf" $(defines "$n") >"$d/validate.log" 2>&1 ||
    fail "icinga2 daemon -C for $n: $(grep critical "$d/validate.log" | head -3)"
done
start_icinga() {
  # shellcheck disable=SC2046
  start_daemon "$1" "$W/icinga/$1/daemon.out" icinga2 daemon -c "$W/icinga/$1/icinga2.conf" \
    $(defines "$1")
}
for n in "${NODES[@]}"; do start_icinga "$n"; done
log "five icinga2 daemons started (API ports: $(for n in "${NODES[@]}"; do printf '%s ' "${API_PORT[$n]}"; done))"

api() {  # PATH [JQ FILTER]: GET from the master's API
  curl -sk -u "test:$API_PASSWORD" -H 'Accept: application/json' \
    "https://127.0.0.1:${API_PORT[master]}/v1/$1" | jq -r "${2:-.}"
}
services='objects/services?attrs=state&attrs=last_check_result&attrs=last_check&attrs=name&attrs=host_name'
# "STATE CHECK_SOURCE LAST_CHECK" of one service, "" before its first result.
service_line() {
  api "$services" ".results[]?.attrs | select(.host_name == \"$1\" and .name == \"$2\")
    | select(.last_check_result != null)
    | \"\(.state) \(.last_check_result.check_source) \(.last_check | floor)\"" 2>/dev/null
}
service_output() {
  api "$services" ".results[]?.attrs | select(.host_name == \"$1\" and .name == \"$2\")
    | .last_check_result.output // \"\"" 2>/dev/null
}
service_perf() {  # HOST SERVICE LABEL: the value of one performance data label
  api "$services" ".results[]?.attrs | select(.host_name == \"$1\" and .name == \"$2\")
    | .last_check_result.performance_data[]? | select(startswith(\"$3=\"))" 2>/dev/null |
    sed -n 's/^[^=]*=\([0-9.e+-]*\).*/\1/p'
}
shard_ran_on() {  # HOST WANTED_SOURCE_REGEX AFTER: a result from a matching endpoint after AFTER
  local line
  line=$(service_line "$1" ib-fabric-shard)
  [ -n "$line" ] || return 1
  read -r _ source when <<<"$line"
  [[ "$source" =~ $2 ]] && [ "$when" -gt "$3" ]
}

# --- 1. the shards run on the satellites ---------------------------------------------------------
T0=$(date +%s)
for k in 1 2; do
  wait_for 180 "shard $k's first result on the master" shard_ran_on "ib-fabric-shard-$k" \
    "^ib-sat-$k[ab]\$" 0
done
log "first results after $(($(date +%s) - T0)) s: shard 1 from $(service_line ib-fabric-shard-1 ib-fabric-shard | cut -d' ' -f2), shard 2 from $(service_line ib-fabric-shard-2 ib-fabric-shard | cut -d' ' -f2)"
# Two rounds: each shard's second sweep has rates (from its own record).
for k in 1 2; do
  first=$(service_line "ib-fabric-shard-$k" ib-fabric-shard | cut -d' ' -f3)
  wait_for $((3 * INTERVAL + 30)) "shard $k's second round" shard_ran_on "ib-fabric-shard-$k" \
    "^ib-sat-$k[ab]\$" "$first"
  out=$(service_output "ib-fabric-shard-$k" ib-fabric-shard)
  log "shard $k: ${out%%|*}"
  [[ "$out" == *"collecting baseline"* ]] && fail "shard $k still collecting a baseline in round 2"
  sweep=$(service_perf "ib-fabric-shard-$k" ib-fabric-shard sweep_time)
  log "TIMING shard $k sweep_time ${sweep} s"
done

# The store holds every cabled port once: the same files a full sweep of the fabric writes.
mkdir -p "$W/full"
sim "$BIN/check_ib_fabric" --cache "$W/baseline.cache" --state-dir "$W/full" --no-syslog \
  >/dev/null 2>&1
(cd "$W/full" && find . -name 'port*.rrd' | sort) >"$W/full.ports"
(cd "$W/store" && find . -name 'port*.rrd' | sort) >"$W/store.ports"
[ -s "$W/full.ports" ] || fail "the full sweep wrote no RRD files"
diff -q "$W/full.ports" "$W/store.ports" >/dev/null ||
  fail "store and full sweep differ: $(diff "$W/full.ports" "$W/store.ports" | head -5)"
log "store: $(wc -l <"$W/store.ports") port RRDs, the same ports as one full check_ib_fabric sweep"
# Host checks keep their own local state on purpose (they never take samples from services).
for n in "${NODES[@]:1}"; do
  [ -z "$(find "$W/icinga/$n/ibpm" -path "*/host-checks" -prune -o -name '*.rrd' -print |
    head -1)" ] || fail "$n wrote port RRD files locally"
done

# --- 1b. the store: only through the tunnel, only the commands of -P -----------------------------
# Who came in: the stunnel server names each client certificate it accepted.
log "store clients seen by the TLS server: $(grep -o 'Certificate accepted at depth=0: CN=[^ ]*' \
  "$W/stunnel-server.out" | sed 's/.*CN=//' | sort -u | tr '\n' ' ')"
tls_try() {  # ARGS...: the answer to HELP over TLS to the store with openssl s_client ARGS
  printf 'HELP\nQUIT\n' | timeout 10 openssl s_client -connect "127.0.0.1:$TLS_PORT" -quiet \
    -CAfile "$PKI/ca.crt" "$@" 2>/dev/null | head -1
}
[ -n "$(tls_try -cert "$PKI/ib-sat-1a.crt" -key "$PKI/ib-sat-1a.key")" ] ||
  fail "a satellite's certificate gets no answer from the store over TLS"
for who in none stranger ibpm-store; do
  case $who in
    none) answer=$(tls_try) ;;
    *) answer=$(tls_try -cert "$PKI/$who.crt" -key "$PKI/$who.key") ;;
  esac
  [ -z "$answer" ] || fail "TLS with certificate '$who' got an answer from the store: $answer"
done
# Plain TCP to the TLS port: no rrdcached answer either.
answer=$(say "$TLS_PORT" STATS | grep -a -m1 -E '^-?[0-9]+ ')
[ -z "$answer" ] || fail "plain TCP to the store's TLS port got an answer: $answer"
refusals=$(grep -c -e 'peer did not return a certificate' -e 'Rejected by CERT' \
  -e 'wrong version number' "$W/stunnel-server.out")
[ "$refusals" -ge 4 ] || fail "the TLS server logged $refusals refusals, not 4"
log "store refused: TLS without a certificate, with another CA's, with the store's own (serverAuth), and plain TCP ($refusals refusals in its log); a satellite's certificate gets an answer"
# Through a satellite's tunnel: what -P leaves out is refused, and CREATE never replaces a file.
probe_rrd=$(head -1 "$W/store.ports")
probe=${probe_rrd#./}
refused=$(say "${TUNNEL_PORT[ib-sat-1a]}" "FORGET $probe" "LIST /" "STATS" "SUSPEND $probe" \
  "FLUSHALL" | grep -c '^-1 Permission denied')
[ "$refused" = 5 ] || fail "through ib-sat-1a's tunnel FORGET, LIST, STATS, SUSPEND, FLUSHALL: $refused of 5 refused"
answer=$(say "${TUNNEL_PORT[ib-sat-1a]}" \
  "CREATE $probe -s 15 -b $(($(date +%s) - 60)) DS:x:GAUGE:60:U:U RRA:AVERAGE:0.5:1:10" | head -1)
[[ "$answer" == "-1 "*"File exists"* ]] || fail "CREATE over $probe: $answer"
last=$(say "${TUNNEL_PORT[ib-sat-1a]}" "LAST $probe" | head -1)
[[ "$last" =~ ^0\ [0-9]+$ ]] || fail "LAST $probe through the tunnel: $last"
# What the checks themselves send is all within -P: no service says the daemon refused it.
denied_services() {
  api "$services" '.results[]?.attrs | select(.last_check_result != null)
    | "\(.host_name)!\(.name): \(.last_check_result.output)"' 2>/dev/null | grep 'Permission denied'
}
[ -z "$(denied_services)" ] || fail "a check was refused by the store: $(denied_services | head -2)"
log "no service output says 'Permission denied' ($(api "$services" '[.results[]? | select(.attrs.last_check_result != null)] | length') services with a result)"
log "through ib-sat-1a's tunnel: FORGET, LIST, STATS, SUSPEND, FLUSHALL refused (Permission denied), CREATE over $probe refused ($answer), LAST answered ($last)"

# --- 2. an error under each zone reaches the master, naming the port -----------------------------
# A leaf of each zone (its switches are the zone's hosts), its port 1 (a host's cable).
leaf_of_zone() {
  sed -n 's/^object Host "\(leaf[0-9]*\)".*/\1/p' "$W/ibpm/ibpm-zones.d/ib-zone-$1/ibpm-hosts.conf" |
    head -1
}
for k in 1 2; do
  LEAF[$k]=$(leaf_of_zone "$k")
  [ -n "${LEAF[$k]}" ] || fail "no leaf in zone $k"
done
guid_of() {  # the GUID of host $1, from the generated configuration
  awk -v host="object Host \"$1\" {" '$0 == host { found = 1 }
    found && /vars.ib_guid/ { gsub(/"/, "", $3); print $3; exit }' "$W"/ibpm/ibpm-zones.d/*/ibpm-hosts.conf
}
# Steady symbol errors on port 1 of each zone's leaf (whichever check samples the port first
# sees errors), and a known transmit rate on ${LEAF[1]}[2]: 1,000,000 units of 4 octets a second.
(
  t0=$(date +%s%N)
  for i in $(seq 1 900); do
    units=$((($(date +%s%N) - t0) / 1000))
    {
      echo "PerformanceSet \"${LEAF[1]}\"[1] PortCounters.SymbolErrorCounter=$((i * 150 % 60000))"
      echo "PerformanceSet \"${LEAF[2]}\"[1] PortCounters.SymbolErrorCounter=$((i * 150 % 60000))"
      echo "PerformanceSet \"${LEAF[1]}\"[2] PortCounters.PortXmitData=$units"
      echo "PerformanceSet \"${LEAF[1]}\"[2] PortCountersExtended.PortXmitData=$units"
    } >"$W/sim/console" 2>/dev/null || exit 0
    sleep 1
  done
) &
INJECTOR=$!
INJECTED_AT=$(date +%s)
critical_naming() {  # HOST_REGEX TEXT: a CRITICAL service of these hosts whose output has TEXT
  api "$services" ".results[]?.attrs | select(.host_name | test(\"$1\"))
    | select(.state == 2) | .last_check_result.output" 2>/dev/null | grep -qF "$2"
}
for k in 1 2; do
  wait_for $((3 * INTERVAL + 30)) "CRITICAL on the master naming ${LEAF[$k]}[1]" \
    critical_naming "^(ib-fabric-shard-$k|${LEAF[$k]})\$" "${LEAF[$k]}[1]"
  log "zone $k: CRITICAL on the master naming ${LEAF[$k]}[1]"
done

# --- 3. one endpoint of zone 1 dies: its shard goes on from the other, rates continue ------------
line=$(service_line ib-fabric-shard-1 ib-fabric-shard)
read -r _ victim before <<<"$line"
case $victim in ib-sat-1a) survivor=ib-sat-1b ;; *) survivor=ib-sat-1a ;; esac
xmit_rate() { service_perf ib-fabric-shard-1 ib-fabric-shard xmit_data; }
# One port's sample from the sweeps' CSV: "SAMPLE_TIME XMIT_DATA XMIT_DATA_PER_S INTERVAL" of
# ${LEAF[1]}[2] in the last sweep that started before (before) or the first after (after) time $2.
port_sample() {
  awk -F, -v guid="$(guid_of "${LEAF[1]}")" -v which="$1" -v t="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["node_guid"] != guid || $col["port"] != 2 || $col["answered"] != 1 { next }
    which == "before" && $col["sweep_start"] < t { line = $col["sample_time"] " " $col["xmit_data"] \
      " " $col["xmit_data_per_s"] " " $col["interval_s"] }
    which == "after" && $col["sweep_start"] > t && line == "" { line = $col["sample_time"] " " \
      $col["xmit_data"] " " $col["xmit_data_per_s"] " " $col["interval_s"] }
    END { print line }' "$W/samples.csv"
}
# The rate before: a sweep whose previous sweep came after the traffic started.
for _ in 1 2; do
  last=$(service_line ib-fabric-shard-1 ib-fabric-shard | cut -d' ' -f3)
  [ "$last" -gt "$INJECTED_AT" ] && INJECTED_AT=$last
  wait_for $((2 * INTERVAL + 30)) "shard 1 sweeping the traffic" shard_ran_on ib-fabric-shard-1 \
    '^ib-sat-1[ab]$' "$INJECTED_AT"
done
stop_daemon "$victim" KILL
killed_at=$(date +%s)
log "SIGKILL $victim (ran shard 1 last at $before)"
read -r t_before c_before rate_before _ <<<"$(port_sample before "$killed_at")"
[ -n "$rate_before" ] || fail "no rate of ${LEAF[1]}[2] before the kill in $W/samples.csv"
log "before the kill: ${LEAF[1]}[2] xmit_data ${rate_before} B/s at $t_before (it sends 4000000 B/s)"
wait_for $((2 * INTERVAL + 45)) "shard 1 from $survivor" shard_ran_on ib-fabric-shard-1 \
  "^$survivor\$" "$killed_at"
took=$(($(service_line ib-fabric-shard-1 ib-fabric-shard | cut -d' ' -f3) - killed_at))
out=$(service_output ib-fabric-shard-1 ib-fabric-shard)
log "shard 1 from $survivor ${took} s after the kill: ${out%%|*}"
[[ "$out" == *"collecting baseline"* ]] && fail "the take-over collected a baseline"
[ -n "$(xmit_rate)" ] || fail "no rates after the take-over: $out"
read -r t_after c_after rate_after interval_after <<<"$(port_sample after "$killed_at")"
[ -n "$rate_after" ] || fail "no rate of ${LEAF[1]}[2] after the take-over in $W/samples.csv"
log "after the take-over: ${LEAF[1]}[2] xmit_data ${rate_after} B/s over ${interval_after} s"
# The survivor's rate goes on from the store's latest sample of the port: its interval starts at
# or after the victim's last complete sweep (the port's ib-node service writes the same file, so
# a later sample may be that check's), never at an older sample or a baseline. It is the port's
# known 4,000,000 B/s, within what the injector's one-second steps allow over the interval. (The
# shard's total would not do: it carries the MADs of every check the survivor took over at once.)
awk -v t0="$t_before" -v t1="$t_after" -v dt="$interval_after" -v r="$rate_after" \
  'BEGIN { start = t1 - dt; slack = 4000000 * (1.5 / dt + 0.05)
    exit !(start > t0 - 0.5 && r > 4000000 - slack && r < 4000000 + slack) }' ||
  fail "the take-over's rate is not the port's rate since the latest sample (victim's last at $t_before): $rate_after B/s over $interval_after s to $t_after"
kill "$INJECTOR" 2>/dev/null
start_icinga "$victim"
log "$victim restarted"

# --- 4. both endpoints of zone 2 die: the master says so, zone 1 stays OK ------------------------
stop_daemon ib-sat-2a KILL
stop_daemon ib-sat-2b KILL
zone_state() {  # ZONE STATE: the master's cluster-zone check of ZONE is in STATE
  local line
  line=$(service_line ib-fabric "cluster-$1")
  [ "${line%% *}" = "$2" ]
}
wait_for $((2 * INTERVAL + 45)) "the master's cluster-ib-zone-2 CRITICAL" zone_state ib-zone-2 2
log "zone 2 gone: $(service_output ib-fabric cluster-ib-zone-2)"
zone_state ib-zone-1 0 || fail "zone 1 not OK while zone 2 is gone"
now=$(date +%s)
wait_for $((2 * INTERVAL + 30)) "shard 1 going on" shard_ran_on ib-fabric-shard-1 '^ib-sat-1[ab]$' \
  "$now"
log "shard 1 went on: $(service_line ib-fabric-shard-1 ib-fabric-shard)"
start_icinga ib-sat-2a
start_icinga ib-sat-2b
now=$(date +%s)
wait_for $((3 * INTERVAL + 60)) "zone 2 back" zone_state ib-zone-2 0
wait_for $((3 * INTERVAL + 60)) "shard 2 back" shard_ran_on ib-fabric-shard-2 '^ib-sat-2[ab]$' \
  "$now"
log "zone 2 back: $(service_line ib-fabric-shard-2 ib-fabric-shard)"

# --- 5. the store stops: checks say so, nothing stored is lost -----------------------------------
probe_rrd=$(head -1 "$W/store.ports")
stored() {  # the probe file's last update and its transmit counter, as on disk
  rrdtool lastupdate "$W/store/$probe_rrd" 2>/dev/null | awk 'END { print $1 }'
}
stop_daemon rrdcached TERM
stored_before=$(stored)
[ -n "$stored_before" ] || fail "$probe_rrd: no update on disk after rrdcached stopped"
log "rrdcached stopped (it wrote every pending update): $probe_rrd last updated at $stored_before"
now=$(date +%s)
store_gone() {
  local k out
  for k in 1 2; do
    shard_ran_on "ib-fabric-shard-$k" '^ib-sat-' "$now" || return 1
    out=$(service_output "ib-fabric-shard-$k" ib-fabric-shard)
    [[ "$out" == *"UNKNOWN"*"rrdcached"* ]] || return 1
  done
}
wait_for $((2 * INTERVAL + 30)) "shards UNKNOWN naming rrdcached" store_gone
log "store gone: $(service_output ib-fabric-shard-1 ib-fabric-shard | head -1 | cut -c1-200)"
log "store gone, the shard says: $(service_output ib-fabric-shard-1 ib-fabric-shard |
  grep -o 'the store failed .*' | head -1 | cut -c1-160)"
start_rrdcached
now=$(date +%s)
store_back() {
  local k out
  for k in 1 2; do
    shard_ran_on "ib-fabric-shard-$k" '^ib-sat-' "$now" || return 1
    out=$(service_output "ib-fabric-shard-$k" ib-fabric-shard)
    [[ "$out" == *"rrdcached"* ]] && return 1
  done
  return 0
}
wait_for $((3 * INTERVAL + 30)) "shards writing again" store_back
# Flushed through the daemon, then on disk: the samples written since, after the old ones.
rrdtool flushcached --daemon "$ANALYZER" "${probe_rrd#./}" || fail "flushcached $probe_rrd"
stored_after=$(stored)
awk -v a="${stored_after%:}" -v b="${stored_before%:}" 'BEGIN { exit !(a + 0 > b + 0) }' ||
  fail "$probe_rrd: last update ${stored_after} after the restart, ${stored_before} before"
log "store back: $probe_rrd last updated at $stored_after (was $stored_before before the stop)"

# --- 5b. the store is killed (SIGKILL): what its journal had not written is lost ----------------
# rrdcached journals each update through a buffered stream (4 KiB, never fsync'ed) and
# acknowledges it at once: a crash loses the updates still in that buffer. What was
# acknowledged: each file's latest sample that a sweep before the kill wrote without error (the
# sweeps' CSV). What survives: the journal files on disk after the kill (replayed at the next
# start) and the RRD files themselves. (rrdcached's LAST answers at the file's step, 60 s: too
# coarse to tell.)
acked_before() {  # "FILE SAMPLE_TIME": each file's latest sample written before time $1
  awk -F, -v t="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["sweep_start"] < t && $col["answered"] == 1 && $col["error"] == "" {
      f = $col["node_guid"] "/port" $col["port"] ".rrd"
      if ($col["sample_time"] + 0 > last[f] + 0) last[f] = $col["sample_time"] }
    END { for (f in last) print f, last[f] }' "$W/samples.csv" | LC_ALL=C sort
}
journaled() {  # "FILE TIME": each file's latest update in the journal files on disk
  local f
  for f in "$W"/journal/*; do  # a line the kill cut short is never replayed
    if [ -n "$(tail -c 1 "$f")" ]; then sed '$d' "$f"; else cat "$f"; fi
  done 2>/dev/null | awk '$1 == "update" && NF >= 3 { split($3, v, ":")
      if (v[1] + 0 > last[$2] + 0) last[$2] = v[1] }
    END { for (f in last) print f, last[f] }' | LC_ALL=C sort
}
file_info() {  # FILE: the daemon's last_update of FILE after a FLUSH, through the master's tunnel
  say "${TUNNEL_PORT[master]}" "FLUSH $1" "INFO $1" | awk '$1 == "last_update" { print $3 }'
}
# Right after both shards' sweeps: the updates in the journal's buffer are their last ones.
now=$(date +%s)
wait_for $((2 * INTERVAL + 30)) "shards sweeping before the kill" store_back
stop_daemon rrdcached KILL
killed_at=$(date +%s.%N)
sleep 2   # a sweep under way at the kill finishes its CSV lines
acked_before "$killed_at" >"$W/acked"
journaled >"$W/journaled"
LC_ALL=C join -a 1 "$W/acked" "$W/journaled" |
  awk 'NF < 3 || $3 + 0.0005 < $2 + 0' >"$W/unjournaled"
: >"$W/lost"
while read -r f t _; do  # not in the journal: lost unless the file on disk has it
  disk=$(rrdtool lastupdate "$W/store/$f" 2>/dev/null | awk 'END { print $1 + 0 }')
  [ "${disk:-0}" -ge "${t%.*}" ] || echo "$f $t" >>"$W/lost"
done <"$W/unjournaled"
journal_bytes=$(cat "$W"/journal/* | wc -c)
last_journal=$(ls "$W"/journal/* | tail -1)
lost=$(wc -l <"$W/lost")
log "SIGKILL rrdcached: $lost of $(wc -l <"$W/acked") files lost their latest acknowledged update (journal on disk: $journal_bytes bytes, the current file $(wc -c <"$last_journal") bytes = $(($(wc -c <"$last_journal") / 4096)) full buffers of 4096)"
[ "$lost" -gt 0 ] && log "SIGKILL lost updates (file, sample time): $(head -3 "$W/lost" | tr '\n' ' ')..."
probe_kill=$(awk 'NR == 1 { print $1 }' "$W/lost")
[ -n "$probe_kill" ] || probe_kill=$probe
probe_before=$(awk -v f="$probe_kill" '$1 == f { print $2 }' "$W/acked")
start_rrdcached
probe_after=$(file_info "$probe_kill")
log "SIGKILL probe $probe_kill: last acknowledged update ${probe_before} before the kill, ${probe_after:-none} after the restart (journal replayed)"
[ -n "$probe_after" ] || fail "INFO $probe_kill through the tunnel after the restart gave no last_update"
# The sweeps go on: each sends its next sample, later than the daemon's last of the file; in the
# file the lost sample's interval joins the next one (DERIVE sources, 900 s heartbeat).
now=$(date +%s)
wait_for $((3 * INTERVAL + 30)) "shards writing after the SIGKILL" store_back
probe_next=$(file_info "$probe_kill")
awk -v a="${probe_next:-0}" -v b="$probe_before" 'BEGIN { exit !(a + 0 > b + 0) }' ||
  fail "$probe_kill after the SIGKILL: last update '${probe_next}', ${probe_before} acknowledged before the kill"
log "after the SIGKILL the sweeps go on: $probe_kill last updated at $probe_next"

# --- 6. the analyzer on the store's host sees every port of every shard --------------------------
# The files written by both endpoints of zone 1 across the kill, and by zone 2 across its loss,
# read whole with librrd (the analyzer below reads every file).
for k in 1 2; do
  for rrd in "$W/store/$(guid_of "${LEAF[$k]}")"/port*.rrd; do
    rrdtool fetch "$rrd" AVERAGE -s "$START" >/dev/null 2>&1 || fail "$rrd is not a readable RRD"
  done
done
log "the RRDs of ${LEAF[1]} and ${LEAF[2]} read whole (rrdtool fetch)"
t=$(date +%s.%N)
"$BIN/ibpm-locality" --cache "$W/baseline.cache" --state-dir "$W/store" --rrdcached "$ANALYZER" \
  --format json --window 3600 >"$W/locality.json" 2>"$W/locality.err" ||
  fail "ibpm-locality: $(cat "$W/locality.err")"
unmeasured=$(jq '[.sets[] | .unmeasured] | max' "$W/locality.json")
[ "$unmeasured" = 0 ] || fail "ibpm-locality: ports without history: $unmeasured"
"$BIN/ibpm-web" -o "$W/site" --cache "$W/baseline.cache" --state-dir "$W/store" \
  --rrdcached "$ANALYZER" --window 3600 --graphs none >"$W/web.log" 2>&1 ||
  fail "ibpm-web: $(cat "$W/web.log")"
site=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
log "TIMING master site (ibpm-locality and ibpm-web over the store) ${site} s"
log "ibpm-locality: every set measured; ibpm-web: $(find "$W/site" -name '*.html' | wc -l) pages"
[ -z "$(denied_services)" ] || fail "a check was refused by the store: $(denied_services | head -2)"
log "PASSED in $(($(date +%s) - START)) s"
