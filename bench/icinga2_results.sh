#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Passive results per second handed to Icinga 2's REST API (POST /v1/actions/process-check-result
# over TLS, basic authentication as a least-privilege ApiUser), all in the same run against one
# real Icinga 2 daemon on the loopback (its own CA and certificate, no checker: every state is a
# submitted one) holding N switch hosts, each with a passive ib-node service:
#
#   ibpm C=1     submit_to_icinga2 (what check_ib_fabric --icinga2-api runs after a sweep) through
#                ibpm-bench-icinga2, one kept-alive connection: requests back to back
#   ibpm C=K     the same with K kept-alive connections (libcurl CURLMOPT_MAX_HOST_CONNECTIONS K)
#   curl serial  one curl process given every request by --config (one URL and body per request,
#                `next` between them): curl reuses its one kept-alive connection, back to back
#   curl K       the same with --parallel --parallel-max K (K connections)
#
# The bodies are the same for both (an OK result with one perfdata item, ~300 bytes). Each figure
# is the median of IBPM_BENCH_RUNS runs (default 3) after one warm-up run, the ways taking turns.
#
# Usage: bench/icinga2_results.sh [BUILD_DIR]
#   IBPM_BENCH_RESULTS      the service counts (default "1000 10000")
#   IBPM_BENCH_CONNECTIONS  K (default 4)
#   IBPM_BENCH_OUT          results (default out/bench): icinga2_results.txt
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-3}
counts=(${IBPM_BENCH_RESULTS:-1000 10000})
pool=${IBPM_BENCH_CONNECTIONS:-4}
need_programs icinga2:icinga2-bin openssl:openssl curl:curl python3
need_built ibpm-bench-icinga2

tmp=$(mktemp -d /dev/shm/ibpm-icinga2-bench.XXXXXX)
icinga_pid=
cleanup() {
  [[ -n $icinga_pid ]] && kill "$icinga_pid" 2>/dev/null && wait "$icinga_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
umask 077

# A CA and the API's certificate for 127.0.0.1, where Icinga 2 looks for them (DataDir/certs).
certs=$tmp/data/certs
mkdir -p "$certs" run/icinga2 log cache spool
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$certs/ca.key" -out "$certs/ca.crt" -days 2 \
  -subj /CN=ibpm-bench-ca 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$certs/localhost.key" -out localhost.csr \
  -subj /CN=localhost 2>/dev/null
echo "subjectAltName=DNS:localhost,IP:127.0.0.1" >san.ext
openssl x509 -req -in localhost.csr -CA "$certs/ca.crt" -CAkey "$certs/ca.key" -CAcreateserial \
  -out "$certs/localhost.crt" -days 2 -extfile san.ext 2>/dev/null
password=$(openssl rand -hex 24)
echo "$password" >password
port=$(free_loopback_port)
url=https://127.0.0.1:$port

# N hosts, each with a passive ib-node service, and the README's least-privilege ApiUser.
start_icinga() {
  local n=$1
  awk -v n="$n" 'BEGIN { for (i = 1; i <= n; ++i)
    printf "object Host \"sw%05d\" { check_command = \"dummy\"; enable_active_checks = false }\n", i }' \
    >hosts.conf
  cat >icinga2.conf <<CONF
const PluginDir = "/usr/lib/nagios/plugins"
const NodeName = "localhost"
const ZoneName = NodeName
object Endpoint NodeName { }
object Zone ZoneName { endpoints = [ NodeName ] }
object ApiListener "api" { bind_host = "127.0.0.1"; bind_port = $port }
object ApiUser "ibpm" {
  password = "$password"
  permissions = [ { permission = "actions/process-check-result"; filter = {{ service.name == "ib-node" }} } ]
}
object ApiUser "reader" { password = "$password"; permissions = [ "objects/query/Service" ] }
include <itl>
include "$tmp/hosts.conf"
apply Service "ib-node" {
  check_command = "dummy"
  enable_active_checks = false
  assign where true
}
CONF
  ICINGA2_USER=$(id -un) ICINGA2_GROUP=$(id -gn) icinga2 daemon -c icinga2.conf \
    -D Configuration.DataDir="$tmp/data" -D Configuration.RunDir="$tmp/run" \
    -D Configuration.LogDir="$tmp/log" -D Configuration.CacheDir="$tmp/cache" \
    -D Configuration.SpoolDir="$tmp/spool" >icinga2.out 2>&1 &
  icinga_pid=$!
  for _ in $(seq 600); do
    curl -sf --cacert "$certs/ca.crt" --config <(echo "user = \"ibpm:$password\"") \
      -H 'Accept: application/json' "$url/v1/" -o /dev/null -w '%{http_code}' 2>/dev/null |
      grep -q 200 && return
    kill -0 "$icinga_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat icinga2.out >&2
  echo "icinga2 did not start" >&2
  exit 1
}
stop_icinga() {
  kill "$icinga_pid" && wait "$icinga_pid" 2>/dev/null || true
  icinga_pid=
  rm -rf data/state data/api run/icinga2/* cache/*
}

# curl's config: per request its URL, body, CA, user and headers (`next` resets them).
write_curl_config() {
  local n=$1
  python3 - "$n" "$url" "$certs/ca.crt" "$password" >curl.conf <<'PY'
import json, sys, time
n, url, ca, password = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
now = time.time()
for i in range(1, n + 1):
    host = f"sw{i:05d}"
    body = json.dumps({"type": "Service", "service": f"{host}!ib-node", "exit_status": 0,
                       "plugin_output": f"IB NODE OK - {host}: 36 ports",
                       "performance_data": ["'ports'=36"], "check_source": "bench",
                       "execution_start": now - 1, "execution_end": now, "verbose": True})
    print(f'url = "{url}/v1/actions/process-check-result"')
    print(f'cacert = "{ca}"\nuser = "ibpm:{password}"\nsilent\nfail\noutput = "/dev/null"')
    print('header = "Accept: application/json"\nheader = "Content-Type: application/json"')
    print("data = " + json.dumps(body))
    if i < n:
        print("next")
PY
}

# Seconds of one way of submitting N results, or a failure.
elapsed() {
  local start end
  start=$(date +%s.%N)
  "$@" >run.out 2>&1 || { cat run.out >&2; echo "failed: $*" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

ways=("ibpm C=1" "ibpm C=$pool" "curl serial" "curl $pool")
command_of() {
  local n=$1 way=$2
  case $way in
    "ibpm C="*) echo "$bin/ibpm-bench-icinga2 --url $url --ca $certs/ca.crt --user ibpm" \
      "--password-file $tmp/password --results $n --connections ${way#ibpm C=}" ;;
    "curl serial") echo "curl --config $tmp/curl.conf" ;;
    *) echo "curl --parallel --parallel-max ${way#curl } --config $tmp/curl.conf" ;;
  esac
}

: >results.txt
for n in "${counts[@]}"; do
  start_icinga "$n"
  write_curl_config "$n"
  # The ways take turns (a warm-up round, then the measured ones): none always runs first.
  : >times.txt
  for round in $(seq 0 "$runs"); do
    for way in "${ways[@]}"; do
      read -ra cmd <<<"$(command_of "$n" "$way")"
      seconds=$(elapsed "${cmd[@]}")
      ((round == 0)) || echo "$way|$seconds" >>times.txt
    done
  done
  for way in "${ways[@]}"; do
    echo "$n|$way|$(grep -F "$way|" times.txt | cut -d'|' -f2 | median)" >>results.txt
  done
  # Every service took a result (the state Icinga 2 holds, read back through the API).
  checked=$(curl -sf --cacert "$certs/ca.crt" --config <(echo "user = \"reader:$password\"") \
    -H 'Accept: application/json' "$url/v1/objects/services?attrs=last_check_result" |
    python3 -c 'import json, sys
print(sum(1 for o in json.load(sys.stdin)["results"] if o["attrs"]["last_check_result"]))')
  ((checked == n)) || { echo "$checked of $n services hold a result" >&2; exit 1; }
  stop_icinga
done
python3 - "$runs" "$pool" results.txt <<'PY' | tee "$out/icinga2_results.txt"
import sys
runs, pool = sys.argv[1], sys.argv[2]
rows = [line.strip().split("|") for line in open(sys.argv[3]) if line.strip()]
print(f"Icinga 2 REST API over TLS on the loopback, process-check-result per switch service; "
      f"results/s, median of {runs}:")
for n in sorted({int(r[0]) for r in rows}):
    figures = {way: n / float(s) for c, way, s in rows if int(c) == n}
    line = "  ".join(f"{way} {rate:,.0f}" for way, rate in figures.items())
    print(f"  {n:>6,} results: {line}")
    print(f"          ibpm C=1 / curl serial: {figures['ibpm C=1'] / figures['curl serial']:.2f}, "
          f"ibpm C={pool} / ibpm C=1: {figures[f'ibpm C={pool}'] / figures['ibpm C=1']:.2f}")
PY
