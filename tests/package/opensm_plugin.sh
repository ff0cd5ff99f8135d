#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The OpenSM event plugin's own package (ibpm-opensm-plugin, made by the build's
# opensm-plugin-package target where libopensm-dev is installed): lintian finds no error, it
# installs beside the distribution's OpenSM, and OpenSM, run on a simulated fabric with only
# `event_plugin_name ibpm_event_plugin` in its configuration (no library path of ours), loads it
# from the installed place and the plugin says where it hands the traps. Then it is purged.
# Exit 77 (skipped) where the build made no plugin package (no libopensm-dev).
# Usage: opensm_plugin.sh BUILD_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need opensm lintian apt-get
build=$(realpath "$1")
sim_tool=$build/bin/ibpm-sim
cmake --build "$build" --target opensm-plugin-package > /dev/null 2>&1 ||
  skip "the build has no opensm-plugin-package target (apt-get install libopensm-dev)"
deb=$(ls "$build"/ibpm-opensm-plugin_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "opensm-plugin-package made no ibpm-opensm-plugin_*.deb"
work=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )/ibpm-plugin.XXXXXX")
opensm_pid=
cleanup() {
  if [ -n "$opensm_pid" ]; then kill "$opensm_pid" 2>/dev/null || true; wait "$opensm_pid" 2>/dev/null || true; fi
  "$sim_tool" stop --dir "$work/sim" >/dev/null 2>&1 || true
  apt-get purge -y -q ibpm-opensm-plugin >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

rc=0; lintian --fail-on error --tag-display-limit 0 "$deb" > "$work/lintian.out" 2>&1 || rc=$?
grep -v 'running with root privileges' "$work/lintian.out" || true
[ "$rc" -eq 0 ] || fail "lintian reports errors in $(basename "$deb")"
(cd "$(dirname "$deb")" && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$(basename "$deb")") \
  > "$work/install.out" 2>&1 || { cat "$work/install.out"; fail "apt-get install $(basename "$deb")"; }
installed=$(dpkg -L ibpm-opensm-plugin | grep '/libibpm_event_plugin\.so$') ||
  fail "the package installs no libibpm_event_plugin.so"
echo "installed: $installed ($(dpkg-query -W -f '${Depends}' ibpm-opensm-plugin))"

"$sim_tool" generate --hosts 8 --radix 4 --levels 2 -o "$work/fabric.net" >/dev/null
rc=0; "$sim_tool" start "$work/fabric.net" --dir "$work/sim" >/dev/null || rc=$?
[ "$rc" -eq 77 ] && skip "ibsim or infiniband-diags missing"
[ "$rc" -eq 0 ] || fail "ibpm-sim start: exit $rc"
printf 'event_plugin_name ibpm_event_plugin\nevent_plugin_options ibpm_socket=%s\nforce_log_flush TRUE\n' \
  "$work/events.sock" > "$work/opensm.conf"
mkdir "$work/osm"
# (the simulation's client environment sourced, so that the PID is OpenSM's own)
[ -f "$work/sim/env" ] || fail "ibpm-sim wrote no $work/sim/env"
(cd "$work/osm" && . "$work/sim/env" && OSM_CACHE_DIR="$work/osm" OSM_TMP_DIR="$work/osm" \
   exec opensm -F "$work/opensm.conf" -f "$work/osm.log") > "$work/opensm.out" 2>&1 &
opensm_pid=$!
for _ in $(seq 100); do
  grep -q "ibpm: handing traps to $work/events.sock" "$work/osm.log" 2>/dev/null && break
  kill -0 "$opensm_pid" 2>/dev/null || break
  sleep 0.1
done
grep -q "ibpm: handing traps to $work/events.sock" "$work/osm.log" 2>/dev/null ||
  { cat "$work/opensm.out"; tail -30 "$work/osm.log" 2>/dev/null; fail "OpenSM did not load the installed plugin"; }
echo "OpenSM $(opensm --version 2>/dev/null | sed -n 's/^OpenSM //p' | head -1) loaded $installed: $(grep -o 'ibpm: handing traps to.*' "$work/osm.log" | head -1)"
