#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The OpenSM event plugin's own Debian package, ibpm-opensm-plugin_VERSION_ARCH.deb: the plugin
# in the multiarch library folder, where OpenSM's dlopen("libibpm_event_plugin.so") finds it. A
# plugin is tied to the OpenSM it was built with (OpenSM refuses a plugin of another version), so
# the package depends on that upstream version of opensm, from the one installed where it is built.
# It holds no ibpm program: the listener (ibpm-events) is in the ibpm package, on whichever host.
# Usage: make-deb.sh PLUGIN_SO VERSION OUTPUT_DIR SOURCE_DIR
set -euo pipefail
plugin=$1 version=$2 out=$3 src=$4
name=ibpm-opensm-plugin
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
opensm=$(dpkg-query -W -f '${Version}' libopensm-dev 2>/dev/null) ||
  { echo "make-deb.sh: libopensm-dev is not installed: the plugin's OpenSM version is unknown" >&2; exit 1; }
upstream=${opensm#*:}; upstream=${upstream%-*}   # 3.3.23-2+b1 -> 3.3.23
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
umask 022
install -D -m 0644 "$plugin" "$stage/usr/lib/$multiarch/libibpm_event_plugin.so"
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
  "$stage/usr/lib/$multiarch/libibpm_event_plugin.so"
install -D -m 0644 "$src/packaging/doc/copyright" "$stage/usr/share/doc/$name/copyright"
gzip -9n -c > "$stage/usr/share/doc/$name/changelog.gz" <<CHANGELOG
$name ($version) unstable; urgency=medium

  * The OpenSM event plugin of ibpm $version, built with OpenSM $upstream.

 -- ibpm maintainers <maintainers@users.noreply.a-seed-d1ee886d.example>  $(date -R -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")
CHANGELOG
# The libraries it links, as dpkg-shlibdeps names them (it wants a debian/control to run in).
mkdir -p "$stage/work/debian"
echo "Source: $name" > "$stage/work/debian/control"
shlibs=$(cd "$stage/work" && dpkg-shlibdeps -O "$stage/usr/lib/$multiarch/libibpm_event_plugin.so" 2>/dev/null |
         sed -n 's/^shlibs:Depends=//p')
rm -rf "$stage/work"
# A plugin OpenSM loads by this name, not a library others link: no version in its name.
install -d "$stage/usr/share/lintian/overrides"
cat > "$stage/usr/share/lintian/overrides/$name" <<OVERRIDES
$name: package-name-doesnt-match-sonames libibpm-event-plugin
$name: shared-library-lacks-version usr/lib/$multiarch/libibpm_event_plugin.so libibpm_event_plugin.so
OVERRIDES
chmod 644 "$stage/usr/share/lintian/overrides/$name"
mkdir -p "$stage/DEBIAN"
echo "activate-noawait ldconfig" > "$stage/DEBIAN/triggers"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: $name
Version: $version
Architecture: $arch
Maintainer: ibpm maintainers <maintainers@users.noreply.a-seed-d1ee886d.example>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: ${shlibs:+$shlibs, }opensm (>= $upstream), opensm (<< $upstream.1~)
Suggests: ibpm
Section: net
Priority: optional
Description: OpenSM event plugin of ibpm: the fabric's traps to ibpm-events
 OpenSM loads it with "event_plugin_name ibpm_event_plugin" in opensm.conf
 and hands it every trap it forwards (a link that went down or came up, a
 port in or out of service); the plugin passes each to the ibpm-events
 listener over a local datagram socket (event_plugin_options
 ibpm_socket=PATH), never blocking OpenSM. Built for OpenSM $upstream.
CONTROL
deb="$out/${name}_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
