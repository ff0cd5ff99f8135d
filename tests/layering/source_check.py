# SPDX-License-Identifier: MIT
"""What the source checks here share: the C++ files of a tree, and their command line
(SOURCE_DIR, or --self-test)."""
import pathlib
import subprocess


def sources(root):
    """The .cpp and .hpp files git tracks below root (every one when root is no checkout)."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "*.cpp", "*.hpp"],
                            capture_output=True, text=True, check=False)
    if listed.returncode == 0 and listed.stdout:
        return [pathlib.Path(line) for line in listed.stdout.split()
                if (pathlib.Path(root) / line).is_file()]
    return [p.relative_to(root) for p in root.rglob("*.[ch]pp")]


def main(argv, usage, violations, self_test, clean):
    """check.py SOURCE_DIR: prints each violation (exit 1) or `clean` (exit 0);
    check.py --self-test: runs self_test()."""
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(usage)
        return 2
    found = violations(pathlib.Path(argv[1]))
    for line in found:
        print(line)
    if not found:
        print(clean)
    return 1 if found else 0


def self_test_verdict(found, expected, what):
    """0 when the files named in `found` (lines "FILE: ..." or "FILE:LINE: ...") are `expected`."""
    files = sorted(line.split(":")[0] for line in found)
    if files != sorted(expected):
        print("self-test: expected", sorted(expected), "found:", found)
        return 1
    print("self-test:", what)
    return 0
