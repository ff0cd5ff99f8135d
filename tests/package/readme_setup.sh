#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README's "Setting it up" commands, taken from README.md as written and run in order on the
# installed package: each command exists and succeeds. The commands are the README's own lines
# (its indented blocks in that section), not a copy kept here, so the docs cannot drift from what
# this test runs. The fabric is simulated: every command runs as a client of the simulation.
# As root, `sudo` is a pass-through. What this host cannot do is said, not hidden: without a
# running systemd, `systemctl enable --now` runs as `systemctl enable` (the units are enabled, not
# started: units_run.sh runs their commands); without udev (a container), its lines are said and
# not run.
# crontab lines are checked for their user and program. Everything the commands made is undone.
# Usage: readme_setup.sh BUILD_DIR (for ibpm-sim; after the package is installed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
sim_tool=$(realpath "$1")/bin/ibpm-sim
[ -x "$sim_tool" ] || fail "no $sim_tool (build the ibpm-sim target)"
state=/var/lib/ibpm
if [ -n "$(ls -A "$state" | grep -vx -e reports -e journal || true)" ]; then
  echo "not run: $state holds files already"
  exit 0
fi
work=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )/ibpm-readme.XXXXXX")
undo=()
cleanup() {
  local i
  for ((i = ${#undo[@]} - 1; i >= 0; i--)); do eval "${undo[i]}" >/dev/null 2>&1 || true; done
  "$sim_tool" stop --dir "$work/sim" >/dev/null 2>&1 || true
  rm -rf "$work"
  find "$state" -mindepth 1 ! -path "$state/reports" ! -path "$state/journal" -delete
}
trap cleanup EXIT

# The section's indented lines, continuation lines joined.
awk '/^### Setting it up/ { on = 1; next } /^##/ { on = 0 }
     on && /^    / { sub(/^    /, ""); line = line $0
                     if (line ~ /\\$/) { sub(/\\$/, "", line); next }
                     print line; line = "" }' "$src/README.md" > "$work/commands"
[ -s "$work/commands" ] || fail "README.md has no indented commands under \"### Setting it up\""
echo "README's set-up: $(wc -l < "$work/commands") lines"

"$sim_tool" generate --hosts 8 --radix 4 --levels 2 -o "$work/fabric.net" >/dev/null
rc=0; "$sim_tool" start "$work/fabric.net" --dir "$work/sim" >/dev/null || rc=$?
[ "$rc" -eq 77 ] && skip "ibsim, OpenSM or infiniband-diags missing"
[ "$rc" -eq 0 ] || fail "ibpm-sim start: exit $rc"
mkdir "$work/bin" "$work/clients"
printf '#!/bin/sh\nexec "$@"\n' > "$work/bin/sudo"   # root already
chmod 755 "$work/bin/sudo"

systemd_running=false; [ -d /run/systemd/system ] && systemd_running=true
udev_running=false; [ -S /run/udev/control ] && udev_running=true
nagios_was_in_ibpm=false
id -nG nagios 2>/dev/null | tr ' ' '\n' | grep -qx ibpm && nagios_was_in_ibpm=true
ran=0
while IFS= read -r command; do
  [ -n "$command" ] || continue
  case "$command" in
    "*/"*)  # a crontab line: minute hour day month weekday user command
      read -r _ _ _ _ _ user program _ <<< "$command"
      id "$user" >/dev/null 2>&1 || fail "crontab line's user $user does not exist: $command"
      command -v "$program" >/dev/null || fail "crontab line's program $program is not installed"
      echo "ok (crontab): $user $program"
      continue ;;
  esac
  run=$command
  if [[ "$run" == *"/etc/udev/rules.d"* ]] && [ ! -d /etc/udev/rules.d ]; then
    echo "udev is not installed here: not run: $command"
    continue
  fi
  if [[ "$run" == *"udevadm "* ]] && ! $udev_running; then
    echo "udevd is not running here: not run: $command"
    continue
  fi
  if [[ "$run" == *"systemctl enable --now"* ]] && ! $systemd_running; then
    run=${run//systemctl enable --now/systemctl enable}
    echo "systemd not running here: as 'systemctl enable' (not started)"
  fi
  rc=0
  (cd "$work/clients" && PATH="$work/bin:$PATH" \
     "$sim_tool" exec --dir "$work/sim" -- bash -euo pipefail -c "$run") > "$work/out" 2>&1 || rc=$?
  # A check's exit code says the fabric's state; 3 (UNKNOWN) or more is a failure to run.
  if [ "$rc" -ne 0 ] && ! { [[ "$run" == /usr/lib/nagios/plugins/check_* ]] && [ "$rc" -le 2 ]; }; then
    cat "$work/out"
    fail "README's set-up command failed (exit $rc): $command"
  fi
  echo "ok: $command"
  ran=$((ran + 1))
  # What it changed on this host, undone at the end.
  case "$run" in
    *"ln -s /usr/share/ibpm/udev/99-ibpm-umad.rules"*) undo+=("rm -f /etc/udev/rules.d/99-ibpm-umad.rules") ;;
    *"adduser nagios ibpm"*) $nagios_was_in_ibpm || undo+=("gpasswd -d nagios ibpm") ;;
    *"cp /usr/share/ibpm/icinga2/"*) undo+=("rm -f /etc/icinga2/conf.d/ibpm-settings.conf /etc/icinga2/conf.d/ibpm-templates.conf") ;;
    *"ibpm-nagios-config --format nagios -o /etc/nagios4/ibpm"*) undo+=("rm -rf /etc/nagios4/ibpm") ;;
    *"systemctl enable"*)
      units=$(grep -o 'ibpm-[a-z]*\.timer' <<< "$run" | tr '\n' ' ')
      undo+=("systemctl disable $units") ;;
  esac
done < "$work/commands"
[ "$ran" -gt 0 ] || fail "no command of README's set-up ran"

# What the commands promise: the baseline written, nagios in the group, Icinga 2 and Nagios 4
# accepting what they were given.
[ -s "$state/baseline.cache" ] || fail "README's set-up wrote no $state/baseline.cache"
id -nG nagios | tr ' ' '\n' | grep -qx ibpm || fail "nagios is not in the group ibpm"
if command -v nagios4 >/dev/null; then
  [ -d /etc/nagios4/ibpm ] || fail "README's set-up wrote no /etc/nagios4/ibpm"
  n=$work/nagios
  mkdir "$n"
  { cat /usr/share/ibpm/nagios/ibpm.resource; echo '$USER1$=/usr/lib/nagios/plugins'; } > "$n/resource.cfg"
  cat > "$n/nagios.cfg" <<CFG
log_file=$n/nagios.log
cfg_file=/etc/nagios4/objects/commands.cfg
cfg_file=/etc/nagios4/objects/contacts.cfg
cfg_file=/etc/nagios4/objects/timeperiods.cfg
cfg_file=/etc/nagios4/objects/templates.cfg
cfg_dir=/etc/nagios4/ibpm
resource_file=$n/resource.cfg
check_result_path=$n
temp_path=$n
lock_file=$n/nagios.lock
nagios_user=$(id -un)
nagios_group=$(id -gn)
illegal_object_name_chars=\`~!\$%^&*|'"<>?,()=
illegal_macro_output_chars=\`~\$&|'"<>
CFG
  nagios4 -v "$n/nagios.cfg" > "$n/verify.out" 2>&1 ||
    { tail -30 "$n/verify.out"; fail "nagios4 -v refuses the /etc/nagios4/ibpm README's set-up wrote"; }
  echo "nagios4 -v accepts /etc/nagios4/ibpm with the packaged resource lines"
fi
if command -v icinga2 >/dev/null && [ -f /etc/icinga2/conf.d/ibpm-templates.conf ]; then
  mkdir -p "$work/icinga2/cache" "$work/icinga2/run/icinga2"
  ICINGA2_USER=$(id -un) ICINGA2_GROUP=$(id -gn) icinga2 daemon -C \
    -D "Configuration.CacheDir=$work/icinga2/cache" -D "Configuration.RunDir=$work/icinga2/run" \
    -D "Configuration.DataDir=$work/icinga2/data" -D "Configuration.LogDir=$work/icinga2/log" \
    -D "Configuration.SpoolDir=$work/icinga2/spool" > "$work/icinga2.out" 2>&1 ||
    { tail -30 "$work/icinga2.out"; fail "icinga2 daemon -C refuses the files README's set-up copied"; }
  echo "icinga2 daemon -C accepts the stock icinga2.conf with the copied ibpm-settings.conf and ibpm-templates.conf"
fi
echo "README's set-up: $ran commands ran as written"
