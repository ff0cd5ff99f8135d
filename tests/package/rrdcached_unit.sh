#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ibpm-rrdcached.service's own command, with /run/ibpm and /var/lib/ibpm moved into a temporary
# folder (and its socket group the caller's): it listens on the socket /etc/ibpm/ibpm.env names,
# group read-write; updates it acknowledges stay in its cache, not the file. Stopped (SIGTERM)
# and started again from the same command, its journal replays every one of them: a FLUSH
# through the daemon puts them all in the file. Killed (kill -9), it loses at most the journal
# lines still in its stdio buffer (rrdcached never flushes the journal itself, one block of
# st_blksize bytes): everything before them is replayed, in order, with no gap.
# systemd-analyze verify accepts the unit (where it is installed).
# Exit 77 (skipped) without rrdcached or rrdtool.
# Usage: rrdcached_unit.sh SOURCE_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need rrdcached rrdtool
src=$(realpath "$1")
unit=$src/packaging/systemd/ibpm-rrdcached.service
env_file=$src/packaging/etc/ibpm.env
unset RRDCACHED_ADDRESS
work=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )/ibpm-rrdcached.XXXXXX")
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

if command -v systemd-analyze >/dev/null 2>&1; then
  step "systemd-analyze verify"
  out=$(systemd-analyze verify --man=no "$unit" 2>&1) || fail "systemd-analyze verify: $out"
  echo "systemd-analyze verify accepts $(basename "$unit")"
else
  echo "systemd-analyze is not installed: the unit is not verified"
fi

step "The unit's command, in $work"
[ "$(grep -c '^ExecStart=' "$unit")" -eq 1 ] || fail "$unit has not exactly one ExecStart"
line=$(sed -n 's/^ExecStart=//p' "$unit")
address=$(sed -n 's/^RRDCACHED_ADDRESS=//p' "$env_file")
[[ "$address" == unix:/run/ibpm/* ]] || fail "ibpm.env's RRDCACHED_ADDRESS is not under /run/ibpm: $address"
grep -q -- "-l $address\b" <<< "$line" || fail "the unit does not listen on $address: $line"
line=${line//\/run\/ibpm/$work/run}
line=${line//\/var\/lib\/ibpm/$work/state}
group=$(id -gn)
line=${line// -s ibpm / -s $group }
read -ra command <<< "$line"
echo "${command[*]}"
socket=$work/run/${address#unix:/run/ibpm/}
daemon=unix:$socket

# start: as systemd does (RuntimeDirectory=ibpm made afresh, removed when the service stops);
# the state folder and the journal in it as the postinst makes them.
start() {
  rm -rf "$work/run" && mkdir -m 0750 "$work/run"
  mkdir -p "$work/state/journal"
  "${command[@]}" > "$work/rrdcached.$1.out" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    [ -S "$socket" ] && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$work/rrdcached.$1.out"; fail "rrdcached exited"; }
    sleep 0.1
  done
  cat "$work/rrdcached.$1.out"
  fail "rrdcached does not listen on $socket after 10 s"
}
start first
[ "$(stat -c '%a %G' "$socket")" = "660 $group" ] ||
  fail "the socket is $(stat -c '%a %G' "$socket"), not 660 $group (the unit's -m, -s)"
echo "listening on $daemon ($(stat -c '%a %G' "$socket"))"

step "Updates through the daemon"
rrd=$work/state/0x0002c90300000001/port1.rrd
mkdir "$(dirname "$rrd")"
start_time=$(( $(date +%s) / 60 * 60 - 86400 ))
rrdtool create "$rrd" --daemon "$daemon" --step 60 --start "$start_time" \
  DS:xmit:GAUGE:600:U:U RRA:LAST:0.5:1:1000 || fail "rrdtool create through the daemon"
sent=0
# update_through N: N more updates, value = their number, acknowledged one by one.
update_through() {
  local end=$((sent + $1))
  while [ "$sent" -lt "$end" ]; do
    sent=$((sent + 1))
    rrdtool update --daemon "$daemon" "$rrd" "$((start_time + sent * 60)):$sent" ||
      fail "update $sent not acknowledged"
  done
}
# in_file: the last update the file itself holds (no daemon asked).
in_file() { rrdtool lastupdate "$rrd" | tail -1 | cut -d: -f1; }
# replayed: after a start, the file's values through the daemon (a FLUSH first): "1 2 ... N".
replayed() {
  rrdtool fetch --daemon "$daemon" "$rrd" LAST -s "$start_time" -e "$((start_time + sent * 60))" |
    awk -F': *' -v s="$start_time" '$1 ~ /^[0-9]+$/ && $1 > s && $2 != "-nan" && $2 != "nan" { printf "%g ", $2 }'
}
update_through 5
# Still in the cache (-w): only the journal holds them when the daemon goes.
[ "$(in_file)" -eq "$start_time" ] || fail "the updates are in the file already: the test proves nothing"
echo "5 updates acknowledged, none in the file yet"

step "Stopped (SIGTERM) and started again from the same command"
kill "$pid"
wait "$pid" 2>/dev/null || true
pid=
[ "$(in_file)" -eq "$start_time" ] || fail "the stop wrote the files (-F?): the journal is not tested"
start second
got=$(replayed)
[ "$got" = "1 2 3 4 5 " ] || fail "after the restart the file holds '$got', not '1 2 3 4 5 '"
echo "the journal replayed all 5 updates: $got"

step "Killed (kill -9) and started again from the same command"
update_through 300
block=$(stat -c %o "$work/state/journal")
line_bytes=$(( ${#rrd} + 21 ))  # "update FILE T:V\n", V of one digit: the shortest
most_lost=$(( block / line_bytes + 1 ))
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pid=
start third
got=$(replayed)
expected=$(seq -s ' ' 1 "$sent")
count=$(wc -w <<< "$got")
[[ "$expected " == "$got"* ]] || fail "after kill -9 the file holds '$got': not the updates in order"
[ "$count" -ge $((sent - most_lost)) ] ||
  fail "after kill -9 only $count of $sent updates replayed (at most $most_lost may be lost)"
echo "the journal replayed $count of $sent acknowledged updates ($((sent - count)) in the unwritten buffer, at most $most_lost)"
step "Done"
