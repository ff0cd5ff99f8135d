# SPDX-License-Identifier: MIT
# Sourced by the bench scripts: `source "$(dirname "$0")/common.sh" "${1:-}"` (the optional
# BUILD_DIR argument). Sets here (bench/), build (default ./build), bin and out
# (IBPM_BENCH_OUT, default out/bench, made when missing), and offers:
#   need_programs PROGRAM[:PACKAGE] ...   exit 1 naming the Debian package of a missing program
#   need_built TARGET ...                 exit 1 when BUILD_DIR/bin lacks a target
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
bin=$build/bin
mkdir -p "${IBPM_BENCH_OUT:-$here/../out/bench}"
out=$(cd "${IBPM_BENCH_OUT:-$here/../out/bench}" && pwd)

need_programs() {
  local spec program
  for spec in "$@"; do
    program=${spec%%:*}
    command -v "$program" >/dev/null ||
      { echo "$program missing: apt-get install ${spec#*:}" >&2; exit 1; }
  done
}

need_built() {
  local target
  for target in "$@"; do
    [[ -x $bin/$target ]] || { echo "no $bin/$target: build first" >&2; exit 1; }
  done
}
