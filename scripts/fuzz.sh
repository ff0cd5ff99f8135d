#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/fuzz.sh [SECONDS]: builds the libFuzzer targets of fuzz/ with clang (AddressSanitizer
# and UBSan, in build-fuzz/) and runs each for SECONDS (default 20: seven targets, about two
# minutes with the build cached). Seeds are the real dumps of ../shared/fixtures/real (read
# from there, never copied into the project), a small cache file and a small recording (both
# written by programs built here); the corpus grows in
# build-fuzz/corpus/ between runs. A crash, a leak, an input over 10 s or 1 GB of memory fails
# the run; the input is kept in build-fuzz/artifacts/. The longer run: scripts/fuzz.sh 1800
set -euo pipefail

seconds=${1:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${IBPM_FUZZ_BUILD_DIR:-$root/build-fuzz}
fixtures=${IBPM_REAL_FIXTURES:-$root/../shared/fixtures/real}
targets=(fuzz_ibnetdiscover fuzz_ports_report fuzz_node_name_map fuzz_thresholds fuzz_ibnd_cache
  fuzz_recording fuzz_anonymize_key)

for program in clang clang++ cmake; do
  if ! command -v "$program" >/dev/null; then
    echo "fuzz.sh: $program is missing: apt-get install -y clang libclang-rt-14-dev cmake" >&2
    exit 2
  fi
done

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
echo "==> building the fuzz targets in $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DIBPM_FUZZ=ON -DIBPM_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j2 --target "${targets[@]}" fuzz_cache_seed fuzz_recording_seed >/dev/null

# Seeds per target: links to the real files (small ones: big seeds slow every run down).
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds"/{dumps,ports,maps,thresholds,caches,recordings,keys}
if [ -d "$fixtures" ]; then
  for file in "$fixtures"/*; do
    [ "$(stat -c %s "$file")" -le 400000 ] || continue
    case "$file" in
      *.xz) ;;
      *ibnetdiscover-ports) ln -s "$file" "$seeds/ports/" ;;
      *.ibnetdiscover) ln -s "$file" "$seeds/dumps/" ;;
      *.map | *node-name-map) ln -s "$file" "$seeds/maps/" ;;
    esac
  done
else
  echo "fuzz.sh: $fixtures is absent: the parsers start from empty corpora" >&2
fi
printf '# metric warning critical\nsymbol_errors 10/h 100/h\nlink_downed - 1/h\nxmit_wait_pct 10 @20:30\nrcv_errors ~:5/min 10:/s\n' \
  >"$seeds/thresholds/example.conf"
printf '0x0002c90300000001 "leaf 01"\nS-0002c90300000002 spine01 # comment\n' >"$seeds/maps/example.map"
printf 'ibpm-anonymize-key 1\n# comment\nguid 0x0002c90300000001 0x0a00000000000001\nname "leaf \\"01\\"\\x09" "switch-0001"\n' \
  >"$seeds/keys/example.key"
"$build/fuzz/fuzz_cache_seed" "$seeds/caches"
"$build/fuzz/fuzz_recording_seed" "$seeds/recordings"

declare -A seed_dir=([fuzz_ibnetdiscover]=dumps [fuzz_ports_report]=ports
  [fuzz_node_name_map]=maps [fuzz_thresholds]=thresholds [fuzz_ibnd_cache]=caches
  [fuzz_recording]=recordings [fuzz_anonymize_key]=keys)
# Leaks in the libraries under us are theirs (libibnetdisc's cache loader loses its LID keys).
export LSAN_OPTIONS="suppressions=$root/scripts/lsan-third-party.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
failed=()
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus" "$build/artifacts"
  echo "==> $target for ${seconds} s"
  if "$build/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
    -max_len=65536 -print_final_stats=0 -artifact_prefix="$build/artifacts/$target-" \
    "$corpus" "$seeds/${seed_dir[$target]}" >"$build/$target.log" 2>&1; then
    grep -E '^#[0-9]+.*DONE' "$build/$target.log" | tail -1 || true
  else
    echo "    FAILED: see $build/$target.log and $build/artifacts/"
    tail -5 "$build/$target.log" | sed 's/^/    /'
    failed+=("$target")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: ${failed[*]} failed" >&2
  exit 1
fi
echo "fuzz.sh: every target ran ${seconds} s without a finding"
