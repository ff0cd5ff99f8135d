#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# From the installed paths alone: check_ib_topology --help exits 3 (UNKNOWN, as the plugin
# guidelines say) with its help; `man check_ib_fabric` renders and every installed command has
# a page; the postinst made the ibpm group and user, /var/lib/ibpm for the monitoring user and
# ibpm-rrdcached's journal folder.
# Usage: installed_files.sh (after the package is installed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need man
rc=0; help=$(/usr/lib/nagios/plugins/check_ib_topology --help) || rc=$?
[ "$rc" -eq 3 ] || fail "check_ib_topology --help exits $rc, not 3"
grep -q '^Usage: check_ib_topology' <<< "$help" || fail "check_ib_topology --help prints no usage"
grep -q -- '--baseline' <<< "$help" || fail "check_ib_topology --help names no --baseline"
echo "/usr/lib/nagios/plugins/check_ib_topology --help: exit 3, $(wc -l <<< "$help") lines of help"

page=$(MANWIDTH=100 man -P cat check_ib_fabric 2>&1) || fail "man check_ib_fabric: $page"
grep -q 'check_ib_fabric' <<< "$page" && grep -q -- '--shard' <<< "$page" ||
  fail "man check_ib_fabric does not show its options: $page"
for command in /usr/lib/nagios/plugins/check_ib_* /usr/bin/ibpm-*; do
  man -w "$(basename "$command")" >/dev/null 2>&1 || fail "no man page for $command"
done
echo "man check_ib_fabric: $(wc -l <<< "$page") lines, --shard among its options; a page per command"

getent group ibpm >/dev/null || fail "no group ibpm"
getent passwd ibpm >/dev/null || fail "no user ibpm"
owner=ibpm; getent passwd nagios >/dev/null && owner=nagios
[ "$(stat -c '%U:%G %a' /var/lib/ibpm)" = "$owner:ibpm 3775" ] ||
  fail "/var/lib/ibpm is $(stat -c '%U:%G %a' /var/lib/ibpm), not $owner:ibpm 3775"
echo "/var/lib/ibpm: $owner:ibpm 3775"
[ "$(stat -c '%U:%G %a' /var/lib/ibpm/journal)" = "ibpm:ibpm 750" ] ||
  fail "/var/lib/ibpm/journal is $(stat -c '%U:%G %a' /var/lib/ibpm/journal), not ibpm:ibpm 750"
echo "/var/lib/ibpm/journal: ibpm:ibpm 750"
