#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Removing the package leaves its conffiles (/etc/ibpm, as dpkg does until a purge) and the
# state folder, and no timer or rrdcached enabled; purging it leaves nothing of it but
# /var/lib/ibpm (the RRD history).
# Usage: removal.sh DEB (the package installed from it)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
deb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||' | grep -v '^/\?$' > "$work/paths"
dpkg-deb -e "$deb" "$work/control"

left() {  # the package's paths still on this host (directories shared with others excluded)
  while read -r path; do
    if [ -d "$path" ]; then
      case "$path" in */ibpm|*/ibpm/*) echo "$path" ;; esac
    elif [ -e "$path" ]; then
      echo "$path"
    fi
  done < "$work/paths"
}
# An operator enabled a timer and the rrdcached (systemctl enable works without a running
# systemd: links only).
systemctl --no-reload enable ibpm-web.timer >/dev/null 2>&1 ||
  { mkdir -p /etc/systemd/system/timers.target.wants &&
    ln -sf /usr/lib/systemd/system/ibpm-web.timer /etc/systemd/system/timers.target.wants/; }
systemctl --no-reload enable ibpm-rrdcached.service >/dev/null 2>&1 ||
  { mkdir -p /etc/systemd/system/multi-user.target.wants &&
    ln -sf /usr/lib/systemd/system/ibpm-rrdcached.service /etc/systemd/system/multi-user.target.wants/; }
DEBIAN_FRONTEND=noninteractive apt-get remove -y -q ibpm >/dev/null
enabled=$(ls /etc/systemd/system/timers.target.wants/ibpm-* \
              /etc/systemd/system/multi-user.target.wants/ibpm-* 2>/dev/null || true)
[ -z "$enabled" ] || fail "after apt-get remove, units still enabled: $enabled"
[ "$(left | sort | tr '\n' ' ')" = "/etc/ibpm $(sort "$work/control/conffiles" | tr '\n' ' ')" ] ||
  fail "after apt-get remove, left: $(left | tr '\n' ' ')"
[ -d /var/lib/ibpm ] || fail "apt-get remove took /var/lib/ibpm"
echo "apt-get remove: the conffiles in /etc/ibpm and /var/lib/ibpm stay"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -q ibpm >/dev/null
[ -z "$(left)" ] || fail "after apt-get purge, left: $(left | tr '\n' ' ')"
[ -d /var/lib/ibpm ] || fail "apt-get purge took /var/lib/ibpm"
[ ! -e /etc/ibpm ] || fail "apt-get purge left /etc/ibpm"
echo "apt-get purge: nothing of the package is left but /var/lib/ibpm"
