#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the DEB holds: the checks in /usr/lib/nagios/plugins and the tools in /usr/bin, each with
# its man page; the Icinga 2, Nagios, Prometheus, Grafana, /etc, systemd and udev files; no
# test-only command; no RPATH; no installed file (executables included) naming the source or build
# folder; the MIT license in the copyright file; conffiles for /etc/ibpm; dependencies that are
# runtime packages (computed by dpkg-shlibdeps, none -dev).
# Usage: deb_contents.sh DEB SOURCE_DIR BUILD_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need dpkg-deb readelf
deb=$1 src=$2 build=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/root"
dpkg-deb -e "$deb" "$work/control"
files=$(cd "$work/root" && find . ! -type d | sed 's|^\.||' | sort)

for path in /usr/lib/nagios/plugins/check_ib_{topology,port,node,fabric} \
            /usr/bin/ibpm-{locality,map,web,nagios-config,topology,rates,utilization} \
            /usr/share/icinga2/include/plugins-contrib.d/ibpm.conf \
            /usr/share/ibpm/icinga2/{ibpm-settings,ibpm-templates,ibpm-example}.conf \
            /usr/share/ibpm/nagios/{ibpm-commands.cfg,ibpm-templates.cfg,ibpm-example.cfg,ibpm.resource} \
            /etc/ibpm/{thresholds.conf,delegation.conf,ibpm.env} \
            /usr/lib/systemd/system/ibpm-{sweep,web,map,locality}.{service,timer} \
            /usr/lib/systemd/system/ibpm-{rrdcached,events}.service \
            /usr/lib/nagios/plugins/check_ib_events /usr/bin/ibpm-events \
            /usr/share/ibpm/udev/99-ibpm-umad.rules \
            /usr/share/ibpm/grafana/ibpm-{fabric-overview,switch,cable,congestion,collectors}.json \
            /usr/share/ibpm/grafana/ibpm-dashboards.yml \
            /usr/share/ibpm/prometheus/ibpm-{alerts,threshold-alerts,recording}.yml \
            /usr/bin/ibpm-prometheus-rules \
            /usr/share/doc/ibpm/{copyright,changelog.gz}; do
  grep -qx "$path" <<< "$files" || fail "the DEB has no $path"
done
if grep -E '/(ibpm-sim|ibpm-bench-[a-z]+|test_[a-z_]+)$|^/usr/local/' <<< "$files"; then
  fail "the DEB holds test-only commands or /usr/local paths (above)"
fi
commands=$(grep -E '^/usr/lib/nagios/plugins/|^/usr/bin/' <<< "$files" | xargs -n1 basename)
for command in $commands; do
  grep -qx "/usr/share/man/man1/$command.1.gz" <<< "$files" || fail "no man page for $command"
done
for command in $(grep -E '^/usr/lib/nagios/plugins/|^/usr/bin/' <<< "$files"); do
  if readelf -d "$work/root$command" | grep -E 'RPATH|RUNPATH'; then fail "$command has an RPATH"; fi
done
naming=$(cd "$work/root" && grep -rl -e "$src" -e "$build" . || true)
[ -z "$naming" ] || fail "installed files (executables included) name the source or build folder: $naming"
[ "$(sort "$work/control/conffiles" | tr '\n' ' ')" = \
  "/etc/ibpm/delegation.conf /etc/ibpm/ibpm.env /etc/ibpm/thresholds.conf " ] ||
  fail "conffiles: $(cat "$work/control/conffiles")"
# The copyright file in Debian's machine-readable format, MIT as LICENSE says.
grep -qx 'License: MIT' "$work/root/usr/share/doc/ibpm/copyright" ||
  fail "/usr/share/doc/ibpm/copyright names no MIT license"
depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libibmad5' <<< "$depends" || fail "Depends has no libibmad5 (dpkg-shlibdeps not run?): $depends"
if grep -E -- '-dev\b' <<< "$depends"; then fail "Depends names -dev packages"; fi
echo "$(wc -l <<< "$files") files; $(wc -w <<< "$commands") commands with man pages; Depends: $depends"
