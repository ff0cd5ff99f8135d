#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The options the shared helpers register (core/plugin/options.cpp: --jobs, --rrdcached, -C/--Ca,
-P/--Port, --cache, --node-name-map, --state-dir, --top, --sort, --xmit-wait-tick, -o/--output,
-v/--verbose, -t/--timeout, --baseline, --summary-ports, --refresh, --graph-format, --fold,
--no-history, --delegation, --assign, ...; core/products/event_options.cpp: --no-syslog,
--syslog-facility, --events-file) are registered there only: every other command goes through the
helpers (or plugin/add_option.hpp for its own options), so each such option has one name, type,
validation and base help text.

Usage: check_shared_options.py SOURCE_DIR   (exit 1 naming each file that registers one itself)
       check_shared_options.py --self-test  (checks that a planted registration is found)
"""
import pathlib
import re
import sys
import tempfile

import source_check

SHARED_FILES = (pathlib.Path("core/plugin/options.cpp"), pathlib.Path("core/products/event_options.cpp"))
SHARED = SHARED_FILES[0]
# A direct registration, through CLI11 (app.add_option("--jobs", ...), add_flag("!--no-x", ...) and
# the like) or plugin/add_option.hpp (plugin::add_option(app, "--jobs", ...)).
REGISTRATION = re.compile(
    r'(?:\.|\b)add_(?:option|flag|option_function<[^>]*>)\(\s*(?:[\w*&.>-]+\s*,\s*)?"([^"]+)"')
SKIPPED = ("tests/", "fuzz/", "bench/")


def names(text):
    for match in REGISTRATION.finditer(text):
        for name in match.group(1).split(","):
            name = name.strip().lstrip("!")
            if name.startswith("-"):
                yield name


def violations(root):
    shared = {}
    for helper in SHARED_FILES:
        if (root / helper).exists():
            shared.update({name: helper for name in names((root / helper).read_text())})
    found = []
    for path in source_check.sources(root):
        if path in SHARED_FILES or str(path).startswith(SKIPPED):
            continue
        again = sorted(set(shared).intersection(names((root / path).read_text())))
        if again:
            helpers = ", ".join(sorted({str(shared[name]) for name in again}))
            found.append(f"{path}: registers {', '.join(again)} itself; use the helper in {helpers}")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / SHARED).parent.mkdir(parents=True)
        (root / SHARED).write_text('app.add_option("--jobs", file, "Jobs file")')
        (root / "tools").mkdir()
        (root / "tools/ok.cpp").write_text('plugin::add_jobs_option(app, jobs, "use");')
        (root / "tools/bad.cpp").write_text('app.add_option(\n  "--jobs", jobs, "other text");')
        (root / "tools/api.cpp").write_text('plugin::add_option(app,\n  "--jobs", jobs, "text");')
        return source_check.self_test_verdict(violations(root), ["tools/api.cpp", "tools/bad.cpp"],
                                              "the planted registration was found")


if __name__ == "__main__":
    sys.exit(source_check.main(sys.argv, __doc__, violations, self_test,
                               "every shared option is registered only in " + ", ".join(map(str, SHARED_FILES))))
