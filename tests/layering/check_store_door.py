#!/usr/bin/env python3
# SPDX-License-Identifier: MIT

"""Fails when the store's client leaks out of core/state, or an output reaches the poller.

One door to the store: only core/state speaks to rrdcached, so no source outside it (tests and
benchmarks aside) includes librrd's client <rrd_client.h> or the project's own client headers
(state/rrdcached_*.hpp). The outputs (every header of core/products, and the reports of
core/poll) describe results: none of them may include, directly or through other project headers,
the poller (poll/port_poller.hpp), the MAD engine (mad/mad_engine.hpp) or the store
(state/port_store.hpp).

Usage: check_store_door.py [ROOT]     (exit 1 and one line per violation)
       check_store_door.py --self-test (exit 0 when a planted violation of each kind is found)
"""
import os
import re
import sys
import tempfile

SOURCE_FOLDERS = ["core", "checks", "tools", "analysis", "locality", "viz", "graphs", "web",
                  "events", "nagios-config", "sim"]
INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([^>"]+)[>"]', re.M)
CLIENT = re.compile(r"^(rrd_client\.h|state/rrdcached_\w+\.hpp)$")
FORBIDDEN_IN_OUTPUTS = ["poll/port_poller.hpp", "mad/mad_engine.hpp", "state/port_store.hpp"]


def outputs(root):
    found = []
    for folder, pattern in (("core/products", r".*\.hpp$"), ("core/poll", r".*report\.hpp$")):
        path = os.path.join(root, folder)
        if os.path.isdir(path):
            found += [os.path.join(folder, f) for f in sorted(os.listdir(path)) if re.match(pattern, f)]
    return found


def includes(root, header, cache):
    """The project headers `header` (relative to core/) includes, directly."""
    if header not in cache:
        path = os.path.join(root, "core", header)
        text = open(path, encoding="utf-8", errors="replace").read() if os.path.isfile(path) else ""
        cache[header] = [h for h in INCLUDE.findall(text) if os.path.isfile(os.path.join(root, "core", h))]
    return cache[header]


def check(root):
    problems = []
    for folder in SOURCE_FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir == "core/state" or rel_dir.startswith("core/state/"):
                continue
            for name in sorted(files):
                if not name.endswith((".cpp", ".hpp", ".h", ".c")):
                    continue
                path = os.path.join(dirpath, name)
                for target in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
                    if CLIENT.match(target):
                        problems.append(f"{os.path.relpath(path, root)}: includes {target}: only core/state speaks to rrdcached")
    cache = {}
    for output in outputs(root):
        start = os.path.relpath(output, "core")
        seen, stack, parent = {start}, [start], {start: None}
        while stack:
            header = stack.pop()
            for child in includes(root, header, cache):
                if child in seen:
                    continue
                seen.add(child)
                parent[child] = header
                stack.append(child)
        for forbidden in FORBIDDEN_IN_OUTPUTS:
            if forbidden in seen:
                chain, at = [], forbidden
                while at:
                    chain.append(at)
                    at = parent[at]
                problems.append(f"{output}: reaches {forbidden} ({' <- '.join(chain)})")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            open(os.path.join(root, rel), "w").write(text)
        write("core/state/port_store.hpp", '#include "state/rrdcached_connection.hpp"\n')
        write("core/state/rrdcached_connection.hpp", "")
        write("core/poll/port_poller.hpp", '#include "state/port_store.hpp"\n')
        write("core/poll/port_result.hpp", "")
        write("core/poll/helper.hpp", '#include "poll/port_poller.hpp"\n')
        write("core/products/clean.hpp", '#include "poll/port_result.hpp"\n')
        write("core/products/leaky.hpp", '#include "poll/helper.hpp"\n')
        write("core/history/reader.cpp", '#include "state/rrdcached_connection.hpp"\n')
        problems = check(root)
        want = ["core/history/reader.cpp: includes state/rrdcached_connection.hpp",
                "core/products/leaky.hpp: reaches poll/port_poller.hpp",
                "core/products/leaky.hpp: reaches state/port_store.hpp"]
        missing = [w for w in want if not any(p.startswith(w) for p in problems)]
        extra = [p for p in problems if "clean.hpp" in p or p.startswith("core/state/")]
        if missing or extra:
            print("self-test failed:", missing, extra)
            return 1
    print("self-test: every planted violation found")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    found = check(root)
    for line in found:
        print(line)
    sys.exit(1 if found else 0)
