#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The RPM holds the DEB's files in RHEL's layout: the same list once the plugin folder is
# /usr/lib64/nagios/plugins; its texts name the lib64 plugin folder; its
# dependencies are shared libraries found by rpmbuild (no -devel); /etc/ibpm holds its
# %config files and the %post script makes the state folder.
# Usage: rpm_layout.sh DEB RPM
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need rpm rpm2cpio cpio dpkg-deb
deb=$(realpath "$1") rpm_file=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | sed 's|^\./|/|' |
  sed -e 's|^/usr/lib/nagios/|/usr/lib64/nagios/|' | sort > "$work/deb"
rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$rpm_file" | grep -v '^d' |
  awk '{print $2}' | sort > "$work/rpm"
if ! diff -u "$work/deb" "$work/rpm"; then fail "the RPM's files differ from the DEB's in RHEL layout"; fi
grep -qx /usr/lib64/nagios/plugins/check_ib_fabric "$work/rpm" || fail "no check_ib_fabric in lib64"
echo "rpm -qlp: the DEB's $(wc -l < "$work/rpm") files, in RHEL's layout"

requires=$(rpm -qp --requires "$rpm_file")
echo "$requires" | grep -q 'libibmad\.so' || { echo "$requires"; fail "the RPM does not require libibmad"; }
if echo "$requires" | grep -i -- '-devel'; then fail "the RPM requires -devel packages"; fi
[ "$(rpm -qp --configfiles "$rpm_file" | sort | tr '\n' ' ')" = \
  "/etc/ibpm/delegation.conf /etc/ibpm/ibpm.env /etc/ibpm/thresholds.conf " ] ||
  fail "the RPM's %config files are not /etc/ibpm/*"
rpm -qp --scripts "$rpm_file" | grep -q 'mkdir -p /var/lib/ibpm' || fail "the RPM's %post does not make /var/lib/ibpm"
[ "$(rpm -qp --qf '%{LICENSE}' "$rpm_file")" = MIT ] || fail "the RPM's License is not MIT"

(cd "$work" && rpm2cpio "$rpm_file" | cpio -id --quiet)
grep -q '^\$USER10\$=/usr/lib64/nagios/plugins$' "$work/usr/share/ibpm/nagios/ibpm.resource" ||
  fail "the RPM's ibpm.resource does not name /usr/lib64/nagios/plugins"
grep -q 'ExecStart=/usr/lib64/nagios/plugins/check_ib_fabric' "$work/usr/lib/systemd/system/ibpm-sweep.service" ||
  fail "the RPM's ibpm-sweep.service does not run the lib64 check"
if grep -rl '/usr/lib/nagios/plugins' "$work/etc" "$work/usr/share/ibpm" "$work/usr/share/icinga2" \
    "$work/usr/lib/systemd"; then
  fail "the RPM's files above still name Debian's plugin folder"
fi
echo "the RPM names /usr/lib64/nagios/plugins, requires shared libraries only, %config /etc/ibpm/*, License: MIT"
