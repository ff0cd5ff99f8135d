# SPDX-License-Identifier: MIT
# Sourced by the bench scripts: `source "$(dirname "$0")/common.sh" "${1:-}"` (the optional
# BUILD_DIR argument). Sets here (bench/), build (default ./build), bin and out
# (IBPM_BENCH_OUT, default out/bench, made when missing), and offers:
#   need_programs PROGRAM[:PACKAGE] ...   exit 1 naming the Debian package of a missing program
#   need_built TARGET ...                 exit 1 when BUILD_DIR/bin lacks a target
#   start_rrdcached READY ARGS...         rrdcached -g ARGS in the background, waited for until
#                                         READY (a socket path or 127.0.0.1:PORT) answers; its pid
#                                         added to rrdcached_pids (stop_rrdcached kills them all)
#   free_loopback_port                    prints a TCP port free on 127.0.0.1
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

rrdcached_pids=()
start_rrdcached() {
  local ready=$1
  shift
  rrdcached -g "$@" >/dev/null 2>&1 &
  rrdcached_pids+=($!)
  for _ in $(seq 200); do
    if [[ $ready == /* ]]; then
      [[ -S $ready ]] && return 0
    elif (exec 3<>"/dev/tcp/${ready%:*}/${ready##*:}") 2>/dev/null; then
      return 0
    fi
    sleep 0.05
  done
  echo "rrdcached $* did not start" >&2
  exit 1
}

stop_rrdcached() {
  local pid
  for pid in "${rrdcached_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rrdcached_pids=()
}

free_loopback_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
