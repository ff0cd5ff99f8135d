#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The license line (see LICENSE) at the top of every source file tracked by git:
#   C and C++ (*.cpp *.hpp *.h *.c)              "// SPDX-License-Identifier: MIT" as line 1
#   CMake, shell, Python (CMakeLists.txt *.cmake *.sh *.py, and any file starting with "#!")
#                                                "# SPDX-License-Identifier: MIT" as line 1, or
#                                                line 2 after a "#!" line
# Usage: scripts/add-spdx.sh          adds the line where it is missing (running it twice changes
#                                     nothing more)
#        scripts/add-spdx.sh --check  lists the files without it; exit 1 if any
#                                     (scripts/check-format.sh runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
spdx="SPDX-License-Identifier: MIT"
mode=add
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

mapfile -t c_files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')
mapfile -t hash_files < <(
  {
    git ls-files 'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake' '*.sh' '*.py'
    # Scripts without an extension (.ci/run, the package's postinst).
    git ls-files | while IFS= read -r f; do
      [ -f "$f" ] && [ "$(head -c 2 "$f")" = "#!" ] && printf '%s\n' "$f"
    done
  } | sort -u)

# has_line FILE LINE: whether FILE has LINE where it belongs (after a "#!" line if there is one).
has_line() {
  local first second
  { IFS= read -r first || true; IFS= read -r second || true; } <"$1"
  if [[ "$first" == '#!'* ]]; then [ "$second" = "$2" ]; else [ "$first" = "$2" ]; fi
}

# add_line FILE LINE: LINE at the top (after a "#!" line); a blank line after it when the file
# starts with code rather than a comment, so the line does not read as that code's comment.
add_line() {
  local file=$1 line=$2 marker=$3 tmp
  tmp=$(mktemp "$file.XXXXXX")
  awk -v line="$line" -v marker="$marker" '
    NR == 1 && /^#!/ { print; shebang = 1; next }
    !done {
      print line
      if ($0 != "" && index($0, marker) != 1) print ""
      done = 1
    }
    { print }
    END { if (!done) print line }
  ' "$file" >"$tmp"
  chmod --reference="$file" "$tmp"
  mv "$tmp" "$file"
}

missing=()
for f in "${c_files[@]}"; do
  has_line "$f" "// $spdx" || missing+=("$f")
done
for f in "${hash_files[@]}"; do
  has_line "$f" "# $spdx" || missing+=("$f")
done

if [ "$mode" = check ]; then
  if [ ${#missing[@]} -gt 0 ]; then
    echo "add-spdx: ${#missing[@]} files lack the line '$spdx' (scripts/add-spdx.sh adds it):" >&2
    printf '  %s\n' "${missing[@]}" >&2
    exit 1
  fi
  echo "add-spdx: $((${#c_files[@]} + ${#hash_files[@]})) files carry '$spdx'"
  exit 0
fi

for f in "${missing[@]}"; do
  case "$f" in
    *.cpp | *.hpp | *.h | *.c) add_line "$f" "// $spdx" "//" ;;
    *) add_line "$f" "# $spdx" "#" ;;
  esac
done
echo "add-spdx: added '$spdx' to ${#missing[@]} files"
