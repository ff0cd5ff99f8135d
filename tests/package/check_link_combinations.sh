#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No shipped executable links both librrd and Graphviz: RRDtool's licence (GPL-2+ with a FLOSS
# exception that does not list the EPL) and Graphviz's (EPL) make such an executable a
# combination a distribution's reviewers reject. ibpm-draw links Graphviz, ibpm-map and ibpm-web
# read the RRD history and start ibpm-draw (viz/CMakeLists.txt).
#
# An executable links librrd when
#   - readelf -d names librrd (the shared library) in a NEEDED entry, or
#   - it holds a static copy (the checks link librrd.a, core/state/CMakeLists.txt): defined rrd_*
#     symbols (nm) while it has its symbol table, and in any case librrd's own strings, which
#     strip leaves in .rodata: the usage lines of its rrdtool commands ("Usage: rrdtool %s"), the
#     rrd_fetch and libdbi messages. (A static copy stripped of symbols and built without those
#     objects would escape the strings; the self-test shows the ones ibpm's link pulls in.)
# and links Graphviz when readelf -d names one of its libraries (cgraph, gvc, cdt, pathplan,
# xdot, gvpr, lab_gamut, a gvplugin); ibpm never links Graphviz statically.
#
# Usage: check_link_combinations.sh PATH...   (files or folders of executables; exit 1 naming
#                                              each executable that links both)
#        check_link_combinations.sh --self-test   (builds planted executables: one linking both
#                                              is found, shared or static and stripped; one linking
#                                              either alone is not; exit 77 without a compiler or
#                                              the libraries)
set -euo pipefail

graphviz_needed='^lib(cgraph|gvc|cdt|pathplan|xdot|gvpr|lab_gamut|gvplugin_[a-z_]+)\.so'
rrd_strings='Usage: rrdtool %s|RRDDEBUGSQL|the RRD does not contain an RRA matching the chosen CF|rrd_fetch_cb_register'

needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

# How FILE links librrd ("shared", "static"), or nothing.
links_rrd() {
  # (grep reads everything, not -q: under pipefail an early exit would fail the writer with SIGPIPE)
  if needed "$1" | grep -E '^librrd\.so' >/dev/null; then echo shared; return; fi
  if nm --defined-only "$1" 2>/dev/null | grep -E ' [TtWw] rrd_[a-z_]+$' >/dev/null; then
    echo "static, rrd_* symbols"
    return
  fi
  if LC_ALL=C grep -aqE "$rrd_strings" "$1"; then echo "static (librrd's strings)"; return; fi
}

# The Graphviz libraries FILE names, space-separated.
links_graphviz() { needed "$1" | { grep -E "$graphviz_needed" || true; } | tr '\n' ' ' | sed 's/ $//'; }

is_elf() { [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }

check() {
  local status=0 file rrd graphviz checked=0
  while IFS= read -r -d '' file; do
    is_elf "$file" || continue
    checked=$((checked + 1))
    rrd=$(links_rrd "$file")
    graphviz=$(links_graphviz "$file")
    if [ -n "$rrd" ] && [ -n "$graphviz" ]; then
      echo "$file: links librrd ($rrd) and Graphviz ($graphviz)"
      status=1
    fi
  done < <(find "$@" -type f -perm -u+x -print0 2>/dev/null | sort -z)
  if [ "$checked" -eq 0 ]; then
    echo "no executables in $*" >&2
    return 2
  fi
  [ "$status" -eq 0 ] && echo "$checked executables: none links both librrd and Graphviz"
  return "$status"
}

self_test() {
  command -v cc >/dev/null || { echo "no C compiler: skipped"; exit 77; }
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT  # (dir is global: the trap runs after this function returns)
  cat > "$dir/planted.c" <<'C'
#ifdef WITH_RRD
#include <rrd.h>
#endif
#ifdef WITH_GRAPHVIZ
#include <graphviz/gvc.h>
#endif
#include <stdio.h>
int main(int argc, char **argv) {
#ifdef WITH_RRD
  time_t last = 0;
  unsigned long count = 0;
  char **names = NULL, **values = NULL;
  if (argc > 1) rrd_lastupdate_r(argv[1], &last, &count, &names, &values);
  puts(rrd_strerror(0));
#endif
#ifdef WITH_GRAPHVIZ
  GVC_t *gvc = gvContext();
  gvFreeContext(gvc);
#endif
  (void)argc;
  (void)argv;
  return 0;
}
C
  local rrd_flags graphviz_flags static_rrd glib dbi
  rrd_flags=$(pkg-config --cflags --libs librrd 2>/dev/null) || { echo "no librrd-dev: skipped"; exit 77; }
  graphviz_flags=$(pkg-config --cflags --libs libgvc libcgraph 2>/dev/null) ||
    { echo "no libgraphviz-dev: skipped"; exit 77; }
  mkdir "$dir/both" "$dir/both-static" "$dir/rrd" "$dir/graphviz"
  # shellcheck disable=SC2086
  {
    cc -o "$dir/both/planted" "$dir/planted.c" -DWITH_RRD -DWITH_GRAPHVIZ $rrd_flags $graphviz_flags
    cc -o "$dir/rrd/planted" "$dir/planted.c" -DWITH_RRD $rrd_flags
    cc -o "$dir/graphviz/planted" "$dir/planted.c" -DWITH_GRAPHVIZ $graphviz_flags
  }
  # As the checks link it: librrd.a (with glib), here beside Graphviz, then stripped as a package
  # strips it.
  static_rrd=$(find /usr/lib /usr/lib64 -name librrd.a 2>/dev/null | head -1 || true)
  glib=$(find /usr/lib /usr/lib64 -name 'libglib-2.0.so*' 2>/dev/null | head -1 || true)
  dbi=$(find /usr/lib /usr/lib64 -name 'libdbi.so*' 2>/dev/null | head -1 || true)
  if [ -n "$static_rrd" ] && [ -n "$glib" ]; then
    # shellcheck disable=SC2086
    cc -o "$dir/both-static/planted" "$dir/planted.c" -DWITH_RRD -DWITH_GRAPHVIZ \
      $(pkg-config --cflags librrd) "$static_rrd" "$glib" ${dbi:+"$dbi"} -lm $graphviz_flags \
      2>"$dir/static.err" ||
      { cat "$dir/static.err"; echo "self-test: cannot link librrd.a"; exit 1; }
    strip "$dir/both-static/planted"
    readelf -d "$dir/both-static/planted" | grep -q 'librrd\.so' &&
      { echo "self-test: the static build names librrd.so"; exit 1; }
  else
    echo "no librrd.a (or glib): the static case is not tested"
  fi
  local out failed=0
  for case in both both-static; do
    [ "$case" = both-static ] && [ -z "$static_rrd" ] && continue
    if out=$(check "$dir/$case"); then
      echo "self-test: $case passed the check: $out"
      failed=1
    elif ! grep -q "$dir/$case/planted: links librrd" <<<"$out"; then
      echo "self-test: $case failed without naming the executable: $out"
      failed=1
    else
      echo "found, as it should be: ${out#"$dir"/}"
    fi
  done
  for case in rrd graphviz; do
    if ! out=$(check "$dir/$case"); then
      echo "self-test: $case (one library alone) failed the check: $out"
      failed=1
    fi
  done
  [ "$failed" -eq 0 ] && echo "self-test passed"
  return "$failed"
}

if [ "${1:-}" = --self-test ]; then
  self_test
  exit
fi
[ $# -ge 1 ] || { echo "usage: $0 PATH... | --self-test" >&2; exit 2; }
check "$@"
