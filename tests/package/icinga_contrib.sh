#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Icinga 2 with the installed package: `include <plugins-contrib>` finds the ib_* CheckCommands,
# one ib_fabric service validates (icinga2 daemon -C), and the command runs the check from
# PluginDir (the Debian plugin folder). Then the packaged templates, settings and example
# validate together with them, as an operator would include them.
# Usage: icinga_contrib.sh (after the package is installed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need icinga2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ICINGA2_USER=$(id -un) ICINGA2_GROUP=$(id -gn)
mkdir -p "$work/cache" "$work/run/icinga2"
defines=(-D "Configuration.CacheDir=$work/cache" -D "Configuration.RunDir=$work/run"
         -D "Configuration.DataDir=$work/data" -D "Configuration.LogDir=$work/log"
         -D "Configuration.SpoolDir=$work/spool")
head_conf='include "/etc/icinga2/constants.conf"
object Endpoint NodeName {
}
object Zone ZoneName {
  endpoints = [ NodeName ]
}
include <itl>
include <plugins>
include <plugins-contrib>
'

validate() {  # CONF: icinga2 daemon -C, its output kept in $work/out
  icinga2 daemon -C -c "$1" "${defines[@]}" > "$work/out" 2>&1 ||
    { cat "$work/out"; fail "icinga2 daemon -C rejects $1"; }
}

cat > "$work/one-service.conf" <<CONF
$head_conf
object Host "ib-fabric" {
  check_command = "dummy"
}
object Service "ib-fabric" {
  host_name = "ib-fabric"
  check_command = "ib_fabric"
}
CONF
validate "$work/one-service.conf"
grep -q 'Instantiated 1 Service\.' "$work/out" || { cat "$work/out"; fail "no service instantiated"; }
icinga2 object list --type CheckCommand --name ib_fabric "${defines[@]}" > "$work/command" 2>&1 ||
  { cat "$work/command"; fail "icinga2 object list failed"; }
grep -q '/usr/lib/nagios/plugins/check_ib_fabric' "$work/command" ||
  { cat "$work/command"; fail "ib_fabric does not run /usr/lib/nagios/plugins/check_ib_fabric"; }
grep -q '/usr/share/icinga2/include/plugins-contrib.d/ibpm.conf' "$work/command" ||
  fail "ib_fabric is not defined by the packaged plugins-contrib.d/ibpm.conf"
echo "include <plugins-contrib>: ib_fabric runs /usr/lib/nagios/plugins/check_ib_fabric; one service validates"

cat > "$work/packaged-set.conf" <<CONF
$head_conf
include "/usr/share/ibpm/icinga2/ibpm-settings.conf"
include "/usr/share/ibpm/icinga2/ibpm-templates.conf"
include "/usr/share/ibpm/icinga2/ibpm-example.conf"
CONF
validate "$work/packaged-set.conf"
grep -q 'Instantiated [0-9]* Services' "$work/out" || { cat "$work/out"; fail "no services from the example"; }
echo "the packaged templates, settings and example validate with include <plugins-contrib>"
