#!/usr/bin/env python3
# SPDX-License-Identifier: MIT

"""The dashboard's folded map in headless Chromium at 1400x900: the overview page does not
scroll sideways, the map fits the window's width, and a click on a pod in the map opens the pod's
map (maps/pod-0x...svg), whose nodes link on.

Usage: large_map.py SITE_DIR [--artifacts DIR]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("--artifacts")
    a = ap.parse_args()
    index = "file://" + os.path.join(os.path.abspath(a.site), "index.html")
    with Browser(width=1400, height=900, timeout=30) as b:
        b.open(index)
        sizes = b.eval("""(() => {
            const svg = document.querySelector('#map svg').getBoundingClientRect();
            return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
                    svg_width: svg.width, pods: document.querySelectorAll('#map g.node[id^="u-pod-"]').length};
        })()""")
        if sizes["scroll"] > sizes["inner"]:
            sys.exit("FAIL: the overview scrolls sideways: %(scroll)d px wide in a %(inner)d px window" % sizes)
        if sizes["svg_width"] > sizes["inner"]:
            sys.exit("FAIL: the map is %(svg_width).0f px wide in a %(inner)d px window" % sizes)
        if sizes["pods"] == 0:
            sys.exit("FAIL: no folded pod on the overview map")
        if a.artifacts:
            b.screenshot(os.path.join(a.artifacts, "large-overview.png"))
        b.click('#map g.node[id^="u-pod-"] a')
        url = b.wait_for_url("/maps/pod-0x", what="the pod's map")
        links = b.eval("document.querySelectorAll('a').length")
        if not links:
            sys.exit("FAIL: the pod's map %s has no links" % url)
        if b.console_errors():
            sys.exit("FAIL: console errors: %s" % b.console_errors())
        print("ok: overview %(scroll)d px wide in %(inner)d px, %(pods)d pods; a click opened" % sizes, url)


if __name__ == "__main__":
    main()
