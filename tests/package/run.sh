#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The packages end to end: the build makes the DEB and the RPM; lintian finds no error; the DEB
# installs on runtime libraries only; installed on this host, the checks answer from
# /usr/lib/nagios/plugins, the man pages render, no packaged executable links both librrd and
# Graphviz (check_link_combinations.sh), Icinga 2 finds the CheckCommands through
# include <plugins-contrib>, Nagios 4 with the packaged commands shows check_ib_fabric OK on a
# simulated fabric, systemd-analyze accepts the units (and rates each service under 5) and their
# commands work as the user ibpm; the OpenSM event plugin's own package installs and OpenSM loads
# it; README's set-up commands, read from README.md, run in order;
# the RPM holds the same files in RHEL's layout; purging the package leaves only /var/lib/ibpm.
# Exit 77 (skipped) without a tool it needs.
# Usage: tests/package/run.sh BUILD_DIR   (as root: it installs and purges ibpm on this host;
#        IBPM_PACKAGE_ROOT=DIR adds a real install in a minimal chroot, see minimal_install.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || skip "needs root: it installs the package on this host"
need cmake cpack dpkg-deb dpkg-shlibdeps fakeroot lintian rpmbuild help2man man systemd-analyze apt-get
src=$(cd "$here/../.." && pwd)
build=$(realpath "$1")
installed() { dpkg-query -W -f '${Status}' ibpm 2>/dev/null | grep -q 'ok installed'; }
installed && fail "ibpm is installed on this host already: remove it first"
work=$(mktemp -d)
cleanup() {
  if installed; then apt-get purge -y -q ibpm >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step "Building the packages"
cmake -S "$src" -B "$build" -DCMAKE_INSTALL_PREFIX=/usr > "$work/cmake.out" ||
  { cat "$work/cmake.out"; fail "cmake"; }
cmake --build "$build" -j "$(nproc)" > "$work/build.out" || { tail -50 "$work/build.out"; fail "build"; }
rm -f "$build"/ibpm_*.deb "$build"/ibpm-*.rpm
(cd "$build" && cpack -G "DEB;RPM") > "$work/cpack.out" 2>&1 || { cat "$work/cpack.out"; fail "cpack"; }
deb=$(ls "$build"/ibpm_*.deb) && rpm_file=$(ls "$build"/ibpm-*.rpm) || fail "cpack made no DEB or RPM"
echo "$(basename "$deb") $(basename "$rpm_file")"

step "What the DEB holds"
"$here/deb_contents.sh" "$deb" "$src" "$build"

step "No packaged executable links both librrd and Graphviz"
dpkg-deb -x "$deb" "$work/deb-root"
"$here/check_link_combinations.sh" "$work/deb-root/usr/bin" "$work/deb-root/usr/lib/nagios/plugins" ||
  fail "an executable in the DEB links both librrd and Graphviz"

step "lintian"
rc=0; lintian --fail-on error --tag-display-limit 0 "$deb" > "$work/lintian.out" 2>&1 || rc=$?
cat "$work/lintian.out"
echo "lintian: $(grep -c '^E:' "$work/lintian.out" || true) errors, $(grep -c '^W:' "$work/lintian.out" || true) warnings, $(grep -c '^I:' "$work/lintian.out" || true) infos"
[ "$rc" -eq 0 ] || fail "lintian reports errors (exit $rc)"

step "Installing on runtime libraries only"
"$here/minimal_install.sh" "$deb"

step "Installing on this host: apt-get install ./$(basename "$deb")"
(cd "$(dirname "$deb")" && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$(basename "$deb")") \
  > "$work/install.out" 2>&1 || { cat "$work/install.out"; fail "apt-get install"; }
"$here/installed_files.sh"

step "Icinga 2: include <plugins-contrib>"
"$here/icinga_contrib.sh"

step "Nagios 4 with the packaged commands on a simulated fabric"
"$here/nagios_on_sim.sh" "$build"

step "systemd-analyze verify"
systemd-analyze verify /usr/lib/systemd/system/ibpm-*.service /usr/lib/systemd/system/ibpm-*.timer
echo "systemd-analyze accepts $(ls /usr/lib/systemd/system/ibpm-* | wc -l) units"
# Sandboxed: each service's exposure (0 safe .. 10 exposed) under 5.
for unit in /usr/lib/systemd/system/ibpm-*.service; do
  exposure=$(systemd-analyze security --offline=true "$unit" 2>/dev/null |
             sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
  [ -n "$exposure" ] || fail "systemd-analyze security gave no exposure for $unit"
  awk -v e="$exposure" 'BEGIN { exit !(e < 5) }' || fail "$(basename "$unit"): exposure $exposure, not under 5"
  echo "$(basename "$unit"): exposure $exposure"
done

step "The units' commands, as the user ibpm"
"$here/units_run.sh" "$build"

step "The OpenSM event plugin's own package"
rc=0; "$here/opensm_plugin.sh" "$build" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "the OpenSM plugin's package (exit $rc)"

step "README's set-up, as written"
"$here/readme_setup.sh" "$build"

step "The RPM"
"$here/rpm_layout.sh" "$deb" "$rpm_file"

step "Removing and purging"
"$here/removal.sh" "$deb"
step "Done"
