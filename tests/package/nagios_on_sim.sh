#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Nagios 4 with the packaged command and template files runs the installed check_ib_fabric on a
# simulated fabric and shows OK, with the packaged /etc/ibpm/thresholds.conf (given by the packaged
# resource line $USER13$, which the command passes to every polling check). The objects (one
# fabric host, its ib-fabric service) are an operator's; the resource lines are the packaged
# ibpm.resource with $USER10$ pointing at a wrapper that makes the installed check a client of
# the simulation (Nagios gives plugins a clean environment, and the simulation needs LD_PRELOAD),
# as tests/nagios does for the build's.
# Checks run only when forced, so the state read is the one this run asked for.
# Usage: nagios_on_sim.sh BUILD_DIR (for ibpm-sim, which the package does not ship)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need nagios4
sim_tool=$(realpath "$1")/bin/ibpm-sim
[ -x "$sim_tool" ] || fail "no $sim_tool (build the ibpm-sim target)"
plugin=/usr/lib/nagios/plugins/check_ib_fabric
[ -x "$plugin" ] || fail "$plugin is not installed"
base=/tmp; [ -d /dev/shm ] && base=/dev/shm   # libumad2sim's sysfs trees are cheaper on tmpfs
work=$(mktemp -d "$base/ibpm-package.XXXXXX")
nagios_pid=
cleanup() {
  [ -n "$nagios_pid" ] && kill "$nagios_pid" 2>/dev/null && wait "$nagios_pid" 2>/dev/null
  "$sim_tool" stop --dir "$work/sim" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

"$sim_tool" generate --hosts 8 --radix 4 --levels 2 -o "$work/fabric.net" >/dev/null
rc=0; "$sim_tool" start "$work/fabric.net" --dir "$work/sim" >/dev/null || rc=$?
[ "$rc" -eq 77 ] && skip "ibsim, OpenSM or infiniband-diags missing"
[ "$rc" -eq 0 ] || fail "ibpm-sim start: exit $rc"

mkdir -p "$work/wrappers" "$work/clients" "$work/state" "$work/nagios/checkresults" "$work/objects"
cat > "$work/wrappers/check_ib_fabric" <<SH
#!/bin/sh
cd '$work/clients' || exit 3
exec '$sim_tool' exec --dir '$work/sim' -- '$plugin' "\$@"
SH
chmod 755 "$work/wrappers/check_ib_fabric"

# The packaged resource lines, with the plugin folder and the state folder of this run.
sed -e "s|^\$USER10\$=.*|\$USER10\$=$work/wrappers|" -e "s|^\$USER11\$=.*|\$USER11\$=$work/state|" \
  /usr/share/ibpm/nagios/ibpm.resource > "$work/nagios/resource.cfg"
echo '$USER1$=/usr/lib/nagios/plugins' >> "$work/nagios/resource.cfg"
cat > "$work/objects/fabric.cfg" <<'CFG'
define host {
    use                     ibpm-fabric
    host_name               ib-fabric
    address                 fabric
}
define service {
    use                     ibpm-service
    host_name               ib-fabric
    service_description     ib-fabric
    check_command           check_ib_fabric
}
CFG
n=$work/nagios
cat > "$n/nagios.cfg" <<CFG
log_file=$n/nagios.log
cfg_file=/etc/nagios4/objects/commands.cfg
cfg_file=/etc/nagios4/objects/contacts.cfg
cfg_file=/etc/nagios4/objects/timeperiods.cfg
cfg_file=/etc/nagios4/objects/templates.cfg
cfg_file=/usr/share/ibpm/nagios/ibpm-commands.cfg
cfg_file=/usr/share/ibpm/nagios/ibpm-templates.cfg
cfg_dir=$work/objects
resource_file=$n/resource.cfg
object_cache_file=$n/objects.cache
precached_object_file=$n/objects.precache
status_file=$n/status.dat
status_update_interval=1
state_retention_file=$n/retention.dat
retain_state_information=0
temp_file=$n/nagios.tmp
temp_path=$n
lock_file=$n/nagios.lock
check_result_path=$n/checkresults
query_socket=$n/nagios.qh
command_file=$n/nagios.cmd
check_external_commands=1
nagios_user=$(id -un)
nagios_group=$(id -gn)
interval_length=1
execute_service_checks=0
execute_host_checks=0
enable_notifications=0
enable_flap_detection=0
use_syslog=0
illegal_object_name_chars=\`~!\$%^&*|'"<>?,()=
illegal_macro_output_chars=\`~\$&|'"<>
CFG
nagios4 -v "$n/nagios.cfg" > "$n/verify.out" 2>&1 || { cat "$n/verify.out"; fail "nagios4 -v rejects the packaged files"; }

nagios4 "$n/nagios.cfg" > "$n/nagios.out" 2>&1 &
nagios_pid=$!
for _ in $(seq 200); do
  [ -p "$n/nagios.cmd" ] && [ -f "$n/status.dat" ] && break
  kill -0 "$nagios_pid" 2>/dev/null || { cat "$n/nagios.out" "$n/nagios.log"; fail "nagios4 did not start"; }
  sleep 0.1
done
[ -p "$n/nagios.cmd" ] || fail "nagios4 made no command file"
echo "[$(date +%s)] SCHEDULE_FORCED_SVC_CHECK;ib-fabric;ib-fabric;$(date +%s)" > "$n/nagios.cmd"

# The ib-fabric service's block of status.dat once it has been checked: state and output.
service_status() {
  awk '/^servicestatus \{/ { block = 1; text = "" } block { text = text $0 "\n" }
       block && /^\t}/ { if (text ~ /service_description=ib-fabric\n/) printf "%s", text; block = 0 }' \
    "$n/status.dat"
}
for _ in $(seq 300); do
  status=$(service_status)
  echo "$status" | grep -q 'has_been_checked=1' && break
  sleep 0.1
done
echo "$status" | grep -q 'has_been_checked=1' || { cat "$n/nagios.log"; fail "Nagios never ran the ib-fabric check"; }
output=$(echo "$status" | sed -n 's/^\tplugin_output=//p')
state=$(echo "$status" | sed -n 's/^\tcurrent_state=//p')
echo "Nagios ran $plugin through the packaged check_ib_fabric command: state $state: $output"
[ "$state" = 0 ] || fail "the ib-fabric service is not OK (state $state)"
[[ "$output" == *OK* ]] || fail "the ib-fabric service's output does not say OK"
ls "$work/state" | grep -q . || fail "the check wrote nothing into its state folder"
