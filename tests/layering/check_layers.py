#!/usr/bin/env python3
# SPDX-License-Identifier: MIT

"""Fails when a lower layer reaches up into a higher one.

The core's layers are listed lowest first in core/CMakeLists.txt (set(IBPM_CORE_LAYERS ...)); the
wings above the core (the simulator, the analyzers, the presenters, the commands) are listed lowest
first in WINGS below. A source file may include only headers of its own layer or wing and of those
listed before it; a core layer's CMake target may link only the targets of layers listed before it.
Only core/plugin includes <CLI/CLI.hpp> (its whole implementation compiles inline, seconds per file)
or links CLI11: the other layers and the wings add options through core/plugin/add_option.hpp.
Each core layer declares its names in its own namespace, ibpm::<layer> (and namespaces inside it),
except the fabric model (SHARED_NAMESPACE_LAYERS), which is the project's vocabulary in ibpm::; so
does each wing, in ibpm::<wing> ('-' written '_': ibpm::nagios_config).

Usage: check_layers.py [ROOT]     (exit 1 and one line per violation)
       check_layers.py --self-test (exit 0 when a planted violation of each kind is found)
"""
import os
import re
import sys
import tempfile

# Above the core, lowest first. nagios-config's sources live in nagios-config/generator.
WINGS = ["sim", "locality", "viz", "graphs", "analysis", "web", "nagios-config", "checks", "tools"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_-]+)/', re.M)
LINK = re.compile(r"target_link_libraries\(\s*ibpm_(\w+)([^)]*)\)", re.S)
CLI11 = re.compile(r'^\s*#\s*include\s+<CLI/CLI\.hpp>', re.M)
NAMESPACE = re.compile(r"^namespace\s+(ibpm(?:::\w+)*)\s*\{", re.M)
SHARED_NAMESPACE_LAYERS = ["fabric"]
CLI11_LAYER = "plugin"  # the one layer that includes <CLI/CLI.hpp> and links CLI11::CLI11


def core_layers(root):
    text = open(os.path.join(root, "core", "CMakeLists.txt")).read()
    match = re.search(r"set\(IBPM_CORE_LAYERS\s+([^)]*)\)", text)
    if not match:
        sys.exit("check_layers: core/CMakeLists.txt has no set(IBPM_CORE_LAYERS ...)")
    return match.group(1).split()


def sources(folder):
    for dirpath, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith((".cpp", ".hpp", ".h")):
                yield os.path.join(dirpath, name)


def check(root):
    layers = core_layers(root)
    rank = {name: i for i, name in enumerate(layers)}
    rank.update({name: len(layers) + i for i, name in enumerate(WINGS)})
    problems = []
    homes = [(os.path.join("core", layer), layer) for layer in layers] + [(wing, wing) for wing in WINGS]
    for folder, home in homes:
        for path in sources(os.path.join(root, folder)):
            text = open(path, encoding="utf-8", errors="replace").read()
            for target in INCLUDE.findall(text):
                if target in rank and rank[target] > rank[home]:
                    rel = os.path.relpath(path, root)
                    problems.append(f"{rel}: {home} includes {target}/, a higher layer")
            if home != CLI11_LAYER and CLI11.search(text):
                rel = os.path.relpath(path, root)
                problems.append(f"{rel}: includes <CLI/CLI.hpp>; use plugin/add_option.hpp")
            if home not in SHARED_NAMESPACE_LAYERS:
                own = "ibpm::" + home.replace("-", "_")
                for namespace in NAMESPACE.findall(text):
                    if not (namespace + "::").startswith(own + "::"):
                        rel = os.path.relpath(path, root)
                        problems.append(f"{rel}: declares namespace {namespace}, not {own}")
    for layer in layers:
        cmake = os.path.join(root, "core", layer, "CMakeLists.txt")
        if not os.path.exists(cmake):
            problems.append(f"core/{layer}/CMakeLists.txt: missing")
            continue
        text = open(cmake).read()
        if layer != CLI11_LAYER and "CLI11::CLI11" in text:
            problems.append(f"core/{layer}/CMakeLists.txt: links CLI11; use plugin/add_option.hpp")
        for target, linked in LINK.findall(text):
            if target not in rank:
                continue
            for dep in re.findall(r"\bibpm_(\w+)", linked):
                if dep in rank and rank[dep] >= rank[target] and dep != target:
                    problems.append(f"core/{layer}/CMakeLists.txt: ibpm_{target} links ibpm_{dep}, "
                                    "a layer not below it")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            open(os.path.join(root, rel), "w").write(text)
        write("core/CMakeLists.txt", "set(IBPM_CORE_LAYERS low plugin high)\n")
        write("core/low/CMakeLists.txt", "target_link_libraries(ibpm_low PUBLIC ibpm_high)\n")
        write("core/high/CMakeLists.txt",
              "target_link_libraries(ibpm_high PUBLIC ibpm_low CLI11::CLI11)\n")
        write("core/low/a.hpp", '#include "high/b.hpp"\nnamespace ibpm::low {\n}\n')
        write("core/high/b.hpp", '#include "low/a.hpp"\nnamespace ibpm::high::detail {\n}\n')
        write("core/high/c.hpp", 'namespace ibpm {\n}\nnamespace ibpm::highway {\n}\n')
        write("viz/m.cpp", '#include "web/page.hpp"\n#include "high/b.hpp"\n')
        write("tools/t.cpp", '#include <CLI/CLI.hpp>\n')
        write("tools/u.hpp", 'namespace ibpm {\n}\nnamespace ibpm::tools::detail {\n}\n')
        write("nagios-config/n.cpp", 'namespace ibpm::nagios_config {\n}\nnamespace {\n}\n')
        write("core/high/d.cpp", '#include <CLI/CLI.hpp>\nnamespace ibpm::high {\n}\n')
        # core/plugin may: neither is a violation.
        write("core/plugin/CMakeLists.txt",
              "target_link_libraries(ibpm_plugin PUBLIC ibpm_low CLI11::CLI11)\n")
        write("core/plugin/o.cpp", '#include <CLI/CLI.hpp>\nnamespace ibpm::plugin {\n}\n')
        found = check(root)
        expected = ["core/low/a.hpp: low includes high/", "ibpm_low links ibpm_high",
                    "viz/m.cpp: viz includes web/", "core/high/c.hpp: declares namespace ibpm,",
                    "core/high/c.hpp: declares namespace ibpm::highway,",
                    "tools/t.cpp: includes <CLI/CLI.hpp>", "core/high/d.cpp: includes <CLI/CLI.hpp>",
                    "tools/u.hpp: declares namespace ibpm, not ibpm::tools",
                    "core/high/CMakeLists.txt: links CLI11"]
        missing = [e for e in expected if not any(e in p for p in found)]
        if missing or len(found) != len(expected):
            print("self-test: expected", expected, "found", found)
            return 1
    print("self-test: every planted violation found, nothing else")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    if not os.path.isfile(os.path.join(root, "core", "CMakeLists.txt")):
        sys.exit(f"check_layers: {root} is not an ibpm source tree (no core/CMakeLists.txt)")
    problems = check(root)
    for p in problems:
        print(p)
    if not problems:
        print(f"layers: {len(core_layers(root))} core layers and {len(WINGS)} wings, no include or link upwards, each layer and wing in its namespace, CLI11 in core/plugin only")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
