#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The state directory's map is drawn in one place: core/layout/state_layout.{hpp,cpp}
(layout::StateLayout) names every file and folder in it. Any other source that spells one of
those names in a string literal (topology.ibnetdiscover, lost-cables.ibnetdiscover, targets/, samples/, sweep/, routes.lft,
node.locks, sm/, baseline.cache, 0xGUID/portN.rrd, the .rec and .state endings) draws the map
again. Tests, fuzzers and benches may; help texts may name a file as STATE_DIR/NAME.

Usage: check_state_layout.py SOURCE_DIR   (exit 1 naming each file and line that does)
       check_state_layout.py --self-test  (checks that a planted path is found)
"""
import pathlib
import re
import sys
import tempfile

import source_check

HOME = ("core/layout/",)
SKIPPED = ("tests/", "fuzz/", "bench/")
FOLDERS = r"(?:targets|samples|sweep|sm)"
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
# A string literal that is a layout file, names one after a '/', or begins with a layout folder.
FILE_NAMES = re.compile(r"(topology\.ibnetdiscover|lost-cables\.ibnetdiscover|routes\.lft|node\.locks|baseline\.cache)")
FOLDER = re.compile(r'^"(?:/' + FOLDERS + r'/?|' + FOLDERS + r'/.*|.*/' + FOLDERS + r'(?:/.*)?)"$')
ENDINGS = re.compile(r'^"(?:[^"]*\.rrd|/port|\.rec|\.state)"$')
# fs::path(dir) / "targets" and the like.
JOINED = re.compile(r'/\s*"' + FOLDERS + r'"')
DOCUMENTED = re.compile(r"STATE_DIR/\S*$")


def code_lines(text):
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("//") or stripped.startswith("#include"):
            continue
        yield number, line


def drawn(line):
    if JOINED.search(line):
        return True
    for match in LITERAL.finditer(line):
        literal = match.group(0)
        for name in FILE_NAMES.finditer(literal):
            if not DOCUMENTED.search(literal[: name.start()]):
                return True
        if FOLDER.match(literal) and "STATE_DIR/" not in literal:
            return True
        if ENDINGS.match(literal):
            return True
    return False


def violations(root):
    found = []
    for path in source_check.sources(root):
        if str(path).startswith(HOME + SKIPPED):
            continue
        for number, line in code_lines((root / path).read_text(errors="replace")):
            if drawn(line):
                found.append(f"{path}:{number}: names a state directory path; ask "
                             f"layout::StateLayout (core/layout/state_layout.hpp)")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        files = {
            "core/layout/state_layout.cpp": 'return in_dir("routes.lft");',
            "tests/state/test.cpp": 'dir / "samples" / "x.rec";',
            "tools/ok.cpp": '#include "sweep/sweep.hpp"\n'
                            'help("needs STATE_DIR/routes.lft, see --refresh");\n'
                            '// writes sweep/fabric.json\n'
                            'if (key == "sm") f("errors/s", "port");',
            "tools/joined.cpp": 'auto p = fs::path(dir) / "samples";',
            "web/plus.cpp": 'auto p = dir + "/sm";',
            "core/x/rrd.cpp": 'return g + "/port" + n + ".rrd";',
            "core/y/topo.cpp": 'return dir + "/topology.ibnetdiscover";',
        }
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text + "\n")
        return source_check.self_test_verdict(
            violations(root),
            ["core/x/rrd.cpp", "core/y/topo.cpp", "tools/joined.cpp", "web/plus.cpp"],
            "the planted paths were found, the allowed ones were not")


if __name__ == "__main__":
    sys.exit(source_check.main(sys.argv, __doc__, violations, self_test,
                               f"every state directory path is named only in {HOME[0]}"))
