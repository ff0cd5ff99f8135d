#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages ibpm needs to build, test and run its demo.
# Usage: scripts/install-deps.sh            (as root, or with sudo available)
# Not root and no sudo: prints the apt-get command to run and exits 1.
set -euo pipefail

packages=(
  g++ cmake make ninja-build pkg-config xz-utils
  libibmad-dev libibnetdisc-dev libibumad-dev libopensm-dev
  librrd-dev libgraphviz-dev libboost-graph-dev libcli11-dev nlohmann-json3-dev catch2 libxxhash-dev
  libcurl4-openssl-dev libpcap-dev
  ibsim-utils opensm infiniband-diags rrdcached rrdtool stunnel4 openssl faketime strace curl jq
  graphviz nagios4-core monitoring-plugins-basic icinga2-bin icinga2-common chromium python3
  prometheus prometheus-node-exporter python3-prometheus-client tshark
  help2man dpkg-dev fakeroot lintian rpm cpio man-db systemd heaptrack
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "ibpm: installing missing packages: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo)
else
  echo "ibpm: not root: run this first, then try again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
