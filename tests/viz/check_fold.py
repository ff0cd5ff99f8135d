# SPDX-License-Identifier: MIT

"""Checks a folded map set as a reader would use it: the overview's size and shape, and that
every switch of the dump is drawn on the overview or on a map at most two clicks away, following
the links written in the SVG files (and that none of those links leads nowhere).

    check_fold.py DUMP OVERVIEW.svg [--max-nodes 400] [--max-aspect 3] [--clicks 2]
Prints one line of figures; exits 1 with the reason on failure.
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def switch_guids(dump):
    with open(dump, encoding="utf-8", errors="replace") as f:
        return {int(m.group(1), 16) for m in re.finditer(r"^switchguid=0x([0-9a-fA-F]+)", f.read(), re.M)}


def read_svg(path):
    root = ET.parse(path).getroot()
    size = [float(root.get(k).rstrip("pt")) for k in ("width", "height")]
    nodes = [g.get("id") for g in root.iter(SVG + "g") if g.get("class") == "node"]
    hrefs = [a.get(XLINK) for a in root.iter(SVG + "a") if a.get(XLINK)]
    return size, nodes, hrefs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("overview")
    ap.add_argument("--max-nodes", type=int, default=400)
    ap.add_argument("--max-aspect", type=float, default=3.0)
    ap.add_argument("--clicks", type=int, default=2)
    a = ap.parse_args()

    (w, h), nodes, _ = read_svg(a.overview)
    drawn = [n for n in nodes if n != "legend"]
    if len(drawn) > a.max_nodes:
        sys.exit("FAIL: the overview has %d nodes, more than %d" % (len(drawn), a.max_nodes))
    aspect = max(w / h, h / w)
    if aspect > a.max_aspect:
        sys.exit("FAIL: the overview is %.0f x %.0f pt (%.1f:1), more than %.0f:1" % (w, h, aspect, a.max_aspect))

    # Breadth first over the SVG files, as far as --clicks.
    seen = {os.path.realpath(a.overview): 0}
    frontier = [os.path.realpath(a.overview)]
    switches_at = {}
    files = 0
    while frontier:
        path = frontier.pop(0)
        depth = seen[path]
        _, ids, hrefs = read_svg(path)
        files += 1
        for i in ids:
            if i.startswith("n0x"):
                switches_at.setdefault(int(i[1:], 16), depth)
        if depth == a.clicks:
            continue
        for href in hrefs:
            target = href.split("#")[0]
            if not target.endswith(".svg") or "://" in target:
                continue
            full = os.path.realpath(os.path.join(os.path.dirname(path), target))
            if not os.path.exists(full):
                sys.exit("FAIL: %s links to %s, which does not exist" % (path, href))
            if full not in seen:
                seen[full] = depth + 1
                frontier.append(full)
    switches = switch_guids(a.dump)
    missing = switches - set(switches_at)
    if missing:
        sys.exit("FAIL: %d switches are not within %d clicks, e.g. 0x%016x"
                 % (len(missing), a.clicks, sorted(missing)[0]))
    print("ok: overview %d nodes, %.0f x %.0f pt (%.2f:1); %d maps within %d clicks hold all %d switches"
          % (len(drawn), w, h, aspect, files, a.clicks, len(switches)))


if __name__ == "__main__":
    main()
