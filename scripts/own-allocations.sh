#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The heap allocations a program made itself in a heaptrack recording, the simulator shim's left
# out: libumad2sim allocates three times per MAD, which hardware does not. heaptrack_print lists
# every allocating place with its count; the shim's are those whose first frame is in it.
# Usage: own-allocations.sh HEAPTRACK_FILE    (prints the count; nothing when there is none)
set -euo pipefail
heaptrack_print -f "$1" --print-allocators 1 --peak-limit 1000000 --sub-peak-limit 0 \
  --print-peaks 0 --print-temporary 0 --print-leaks 0 2>/dev/null | awk '
    /calls to allocation functions with/ { n = $1; place = 1; next }
    place && /^ *in / { if ($0 !~ /libumad2sim/) own += n; place = 0 }
    END { if (own) print own }'
