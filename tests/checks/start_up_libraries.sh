#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a check loads before its first MAD, counted (not timed): Nagios starts one every few
# seconds, so the libraries each check binary needs at start are held to what polling uses.
# libpcap, for --record and --replay, is loaded only when a recording is opened: linked, it
# brings D-Bus, systemd, libgcrypt and five more (1.3 million instructions of dynamic linking).
# Usage: start_up_libraries.sh BIN_DIR
set -euo pipefail
bin=$1
command -v readelf >/dev/null || { echo "SKIPPED: readelf missing (binutils)"; exit 0; }
status=0
for check in check_ib_port check_ib_node check_ib_fabric check_ib_topology check_ib_sm; do
  needed=$(readelf -d "$bin/$check" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p')
  for unwanted in libpcap libdbus libsystemd libgcrypt libcairo libpango libX11; do
    if grep -q "^$unwanted" <<<"$needed"; then
      echo "$check needs $(grep "^$unwanted" <<<"$needed") at start"
      status=1
    fi
  done
  echo "$check: $(wc -l <<<"$needed") libraries at start: $(tr '\n' ' ' <<<"$needed")"
done
exit "$status"
