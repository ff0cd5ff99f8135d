#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The DEB installs on top of runtime libraries only (no -dev package), checked two ways:
#   always:  apt-get resolves `install ./DEB` against a system that holds only Debian's
#            Priority: required packages and their dependencies (a dpkg status made from this
#            host's, simulated, so it needs no download): all it would add must be runtime packages;
#   with IBPM_PACKAGE_ROOT=DIR (a root made by `mmdebstrap --variant=apt bookworm DIR`, about
#   three minutes of downloads, so not in CI by default): a real install in that chroot, the
#   check's --help run there, and a purge that leaves only /var/lib/ibpm.
# Usage: minimal_install.sh DEB
set -euo pipefail
. "$(dirname "$0")/lib.sh"
deb=$(realpath "$1")
need apt-get awk
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The installed packages of priority "required" and what they depend on (a debootstrap minbase):
# their paragraphs of this host's dpkg status.
required=$(dpkg-query -W -f '${Package} ${Priority} ${db:Status-Status}\n' |
  awk '$2 == "required" && $3 == "installed" { print $1 }')
[ -n "$required" ] || fail "no installed Priority: required packages"
# shellcheck disable=SC2086
apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances $required | grep -v '^ ' | grep -v '^<' | sed 's/:.*//' | sort -u \
  > "$work/minbase"
awk 'BEGIN { while ((getline name < ARGV[1]) > 0) keep[name] = 1; ARGV[1] = ""; RS = ""; ORS = "\n\n" }
     /\nStatus: install ok installed\n/ { split($0, f, "\n"); sub(/^Package: /, "", f[1]);
       if (f[1] in keep) print }' "$work/minbase" /var/lib/dpkg/status > "$work/status"
# -f: apt-cache may name a package whose own dependencies fall outside the set; apt adds them.
apt-get -s -f -o Dir::State::status="$work/status" -o Debug::NoLocking=1 install "$deb" \
  > "$work/apt.out" 2>&1 || { cat "$work/apt.out"; fail "apt-get cannot install $deb on a minimal system"; }
grep '^Inst ' "$work/apt.out" | awk '{print $2}' > "$work/added"
grep -qx ibpm "$work/added" || { cat "$work/apt.out"; fail "apt-get would not install ibpm"; }
if grep -- '-dev$' "$work/added"; then fail "installing the package pulls in -dev packages (above)"; fi
echo "on a minimal system, apt-get adds $(wc -l < "$work/added") packages, none of them -dev:"
grep -v '^ibpm$' "$work/added" | grep '^lib' | tr '\n' ' ' | fold -s -w 100; echo

root=${IBPM_PACKAGE_ROOT:-}
[ -n "$root" ] || { echo "(no IBPM_PACKAGE_ROOT: no install in a chroot)"; exit 0; }
[ -x "$root/usr/bin/apt-get" ] || fail "IBPM_PACKAGE_ROOT=$root holds no Debian system"
cp "$deb" "$root/tmp/ibpm.deb"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }
in_root apt-get update -q >/dev/null
in_root apt-get install -y -q --no-install-recommends /tmp/ibpm.deb > "$work/chroot.out" 2>&1 ||
  { cat "$work/chroot.out"; fail "apt-get install in $root failed"; }
if in_root dpkg-query -W -f '${Package}\n' | grep -- '-dev$'; then fail "-dev packages in $root"; fi
rc=0; in_root /usr/lib/nagios/plugins/check_ib_topology --help > "$work/help" || rc=$?
[ "$rc" -eq 3 ] && grep -q 'Usage: check_ib_topology' "$work/help" ||
  fail "check_ib_topology --help in $root: exit $rc"
in_root dpkg -L ibpm > "$work/owned"
in_root apt-get purge -y -q ibpm >/dev/null
left=$(while read -r path; do [ -e "$root$path" ] && [ ! -d "$root$path" ] && echo "$path"; done < "$work/owned" || true)
[ -z "$left" ] || fail "files left in $root after the purge: $left"
[ -d "$root/var/lib/ibpm" ] || fail "/var/lib/ibpm gone from $root after the purge"
rm -f "$root/tmp/ibpm.deb"
echo "installed, run and purged in $root: only /var/lib/ibpm stays"
