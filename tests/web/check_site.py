#!/usr/bin/env python3
# SPDX-License-Identifier: MIT

"""Checks a generated ibpm dashboard in a real (headless Chromium) browser, from file:// URLs.

Usage: check_site.py SITE_DIR [--artifacts DIR] [--hostile-name TEXT] [--switch-name NAME]

Prints one line per check ("ok ..." or "FAIL: check: reason"); exit status 0 when every check
passed, 1 otherwise.  The site contract it checks against:
  index.html      #map with an inline Graphviz SVG (g.node > a xlink:href="nodes/0xGUID.html"),
                  #summary, table.sortable #worst-ports and #busiest-links, img.graph
  locality.html   table.sortable #locality
  switches.html   table.sortable #switches, one img.graph per switch
  nodes/0xGUID.html       h1 with the node's name, table.sortable #ports, img.graph
  links/0xGUID-PORT.html  h1 naming both ends, img.graph
  every page      <nav> with links to index.html, locality.html, switches.html; scripts only
                  from the site's own .js files; nothing fetched from outside the site
  sortable tables a click on a th sorts by that column (by data-value when present), a second
                  click reverses; the th gets aria-sort="ascending" / "descending"
"""

import argparse
import html
import html.parser
import os
import re
import sys
import time
import traceback
from pathlib import Path
from urllib.parse import unquote, urlsplit

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, BrowserError  # noqa: E402

NODE_HREF = re.compile(r"(^|/)nodes/0x[0-9a-fA-F]{16}\.html$")
LINK_HREF = re.compile(r"(^|/)links/0x[0-9a-fA-F]{16}-\d+\.html$")
TEXT_FILES = (".html", ".htm", ".svg", ".css", ".js")
# src/href-like attributes (xlink:href too) and CSS url()/@import pointing outside the site.
# xmlns declarations and the SVG DOCTYPE are neither, so they never match.
EXTERNAL = re.compile(r"""(\b(?:src|srcset|href|action|poster|data)\s*=\s*["']?\s*|"""
                      r"""url\(\s*["']?\s*|@import\s+["']\s*)(?:https?:)?//""", re.I)

# Every img.graph of the page, once loaded (or failed): [{src, ok}].
JS_GRAPHS = """Promise.all([...document.querySelectorAll('img.graph')].map(img =>
    (img.complete ? Promise.resolve() : new Promise(r => { img.addEventListener('load', r);
                                                           img.addEventListener('error', r); }))
    .then(() => img.decode().then(() => true, () => false))
    .then(decoded => ({src: img.getAttribute('src'),
                       ok: img.complete && (img.naturalWidth > 0 || decoded)}))))"""
JS_ROWS = "document.querySelectorAll(%r).length"
JS_TEXT = "(document.querySelector(%r) || {innerText: null}).innerText"
XLINK = "http://www.w3.org/1999/xlink"
# The map's node links: [{href, title, texts}] in document order of g.node.
JS_MAP_NODES = """[...document.querySelectorAll('#map svg g.node')].map(g => {
    const a = g.querySelector('a');
    const attr = n => a && (a.getAttributeNS('%s', n) || a.getAttribute(n)) || '';
    return {href: attr('href'), title: attr('title'),
            texts: [...g.querySelectorAll('text')].map(t => t.textContent.trim()).filter(t => t)};
})""" % XLINK


class Failed(Exception):
    pass


def squash(text):
    return " ".join((text or "").split())


class SiteCheck:
    def __init__(self, site, browser, args):
        self.site, self.b, self.args = site, browser, args
        self.artifacts = Path(args.artifacts).resolve() if args.artifacts else None
        self.failures = []
        self.shots = []
        self.step_name = ""

    # ---- reporting -------------------------------------------------------
    def expect(self, cond, message):
        """A failed expectation is reported; the step goes on."""
        if not cond:
            self.failures.append(self.step_name)
            print("FAIL: %s: %s" % (self.step_name, message), flush=True)
        return cond

    def require(self, cond, message):
        """A failed requirement ends the step."""
        if not cond:
            raise Failed(message)

    def run(self, name, fn):
        self.step_name, before, start = name, len(self.failures), time.monotonic()
        try:
            fn()
        except Failed as e:
            self.expect(False, str(e))
        except BrowserError as e:
            self.expect(False, "browser: %s" % e)
        except Exception:  # a bug here, or a page far off the contract: report, go on
            self.expect(False, "unexpected error:\n" + traceback.format_exc())
        if len(self.failures) == before:
            print("ok   %s (%.1f s)" % (name, time.monotonic() - start), flush=True)

    # ---- helpers ---------------------------------------------------------
    def url(self, rel):
        return (self.site / rel).as_uri()

    def rel(self, url):
        """A site URL as a path relative to the site, for messages."""
        path = Path(unquote(urlsplit(url).path))
        try:
            return str(path.relative_to(self.site))
        except ValueError:
            return url

    def open(self, rel):
        self.b.clear_console_errors()
        self.b.open(self.url(rel))

    def rows(self, table_id):
        return self.b.eval(JS_ROWS % ("#%s tbody tr" % table_id))

    def table(self, page, table_id, min_rows):
        """Checks table.sortable#id with thead and tbody; returns its row count."""
        shape = self.b.eval("""(() => { const t = document.getElementById(%r);
            return t && {sortable: t.classList.contains('sortable'), thead: !!t.tHead,
                         th: t.querySelectorAll('thead th').length, tbody: t.tBodies.length}; })()"""
                            % table_id)
        self.require(shape, "%s: no table #%s" % (page, table_id))
        self.expect(shape["sortable"], "%s: table #%s lacks class sortable" % (page, table_id))
        self.expect(shape["thead"] and shape["th"] > 0, "%s: table #%s has no thead th" % (page, table_id))
        self.require(shape["tbody"] > 0, "%s: table #%s has no tbody" % (page, table_id))
        n = self.rows(table_id)
        self.expect(n >= min_rows, "%s: table #%s has %d rows, expected at least %d"
                    % (page, table_id, n, min_rows))
        return n

    def graphs(self, page, min_count=1):
        graphs = self.b.eval(JS_GRAPHS)
        self.expect(len(graphs) >= min_count, "%s: %d img.graph, expected at least %d"
                    % (page, len(graphs), min_count))
        broken = [g["src"] for g in graphs if not g["ok"]]
        self.expect(not broken, "%s: graphs not loaded: %s" % (page, ", ".join(map(str, broken))))
        return len(graphs)

    def page_basics(self, page):
        """What every page must satisfy: no JS errors, nav, own scripts only, nothing external."""
        errors = self.b.console_errors()
        self.expect(not errors, "%s: console errors:\n    %s" % (page, "\n    ".join(errors)))
        nav = self.b.eval("[...document.querySelectorAll('nav a')].map(a => a.href)")
        missing = [p for p in ("index.html", "locality.html", "switches.html") if self.url(p) not in nav]
        self.expect(not missing, "%s: nav has no link to %s (links: %s)"
                    % (page, ", ".join(missing), ", ".join(self.rel(u) for u in nav) or "none"))
        scripts = self.b.eval("""[...document.querySelectorAll('script')].map(s =>
            ({src: s.getAttribute('src') && s.src, text: s.textContent.slice(0, 80)}))""")
        for s in scripts:
            path = Path(unquote(urlsplit(s["src"]).path)) if s["src"] else None
            own = (path is not None and s["src"].startswith("file:") and path.suffix == ".js"
                   and path.is_file() and self.site in path.parents)
            self.expect(own, "%s: a <script> that is not one of the site's .js files: %s"
                        % (page, s["src"] or "inline: " + repr(s["text"])))
        outside = [u for u in self.b.requests if not u.startswith(("file:", "data:", "blob:", "about:"))]
        self.expect(not outside, "%s: requests outside the site: %s" % (page, ", ".join(outside)))

    def screenshot(self, name):
        if self.artifacts:
            self.artifacts.mkdir(parents=True, exist_ok=True)
            self.shots.append(self.b.screenshot(str(self.artifacts / name)))

    def site_files(self, suffixes):
        return sorted(p for p in self.site.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)

    # ---- the checks ------------------------------------------------------
    def overview(self):
        self.open("index.html")
        self.page_basics("index.html")
        self.require(self.b.eval("!!document.querySelector('#map svg')"), "index.html: no #map svg")
        self.expect(self.b.eval(JS_ROWS % "#map svg g.node") >= 1, "index.html: no g.node in the map")
        summary = self.b.eval(JS_TEXT % "#summary")
        self.expect(summary is not None, "index.html: no #summary")
        self.expect(summary is None or squash(summary), "index.html: #summary is empty")
        self.run_part(lambda: self.table("index.html", "worst-ports", 0))
        self.run_part(lambda: self.table("index.html", "busiest-links", 1))
        self.graphs("index.html")
        self.screenshot("overview.png")

    def run_part(self, fn):
        """A sub-check whose requirement failing is reported without ending the step."""
        try:
            fn()
        except Failed as e:
            self.expect(False, str(e))

    def sorting(self):
        self.open("index.html")
        table = "busiest-links"
        heads = self.b.eval("[...document.querySelectorAll('#%s thead th')].map(th => th.cellIndex)" % table)
        cells = self.b.eval("""[...document.querySelectorAll('#%s tbody tr')].map(tr =>
            [...tr.cells].map(c => c.getAttribute('data-value')))""" % table)
        self.require(len(cells) >= 1, "#%s has no rows" % table)

        def numbers(col):
            try:
                return [float(row[col]) for row in cells]
            except (IndexError, TypeError, ValueError):
                return None
        numeric = [(len(set(numbers(c))), i) for i, c in enumerate(heads) if numbers(c) is not None]
        self.require(numeric, "#%s: no column whose cells all carry a numeric data-value" % table)
        _, th = max(numeric, key=lambda n: (n[0], -n[1]))  # most distinct values, then leftmost
        col = heads[th]
        before = sorted(numbers(col))

        def click_and_read():
            self.b.click("#%s thead th" % table, th)
            deadline = time.monotonic() + 2
            while True:
                state = self.b.eval("""[document.querySelectorAll('#%s thead th')[%d].getAttribute('aria-sort'),
                    [...document.querySelectorAll('#%s tbody tr')].map(tr => tr.cells[%d].getAttribute('data-value'))]"""
                                    % (table, th, table, col))
                if state[0] in ("ascending", "descending") or time.monotonic() > deadline:
                    return state[0], [float(v) for v in state[1]]
                time.sleep(0.05)

        def ordered(values, direction):
            pairs = list(zip(values, values[1:]))
            return all(a <= b for a, b in pairs) if direction == "ascending" else all(a >= b for a, b in pairs)

        name = "#%s column %d" % (table, col + 1)
        aria1, first = click_and_read()
        self.require(aria1 in ("ascending", "descending"),
                     "%s: after a click, aria-sort is %r" % (name, aria1))
        self.require(sorted(first) == before, "%s: rows lost or changed by the sort" % name)
        self.require(ordered(first, aria1), "%s: aria-sort=%s but the rows are %s" % (name, aria1, first))
        aria2, second = click_and_read()
        want = "descending" if aria1 == "ascending" else "ascending"
        self.require(aria2 == want, "%s: after a second click, aria-sort is %r, expected %r"
                     % (name, aria2, want))
        self.require(ordered(second, want), "%s: aria-sort=%s but the rows are %s" % (name, aria2, second))
        self.expect(sorted(second) == before, "%s: rows lost or changed by the sort" % name)

    def map_click(self):
        self.open("index.html")
        nodes = self.b.eval(JS_MAP_NODES)
        wanted = self.args.switch_name
        if wanted:
            index = next((i for i, n in enumerate(nodes)
                          if wanted in n["title"] or any(wanted in t for t in n["texts"])), None)
            self.require(index is not None, "no node of the map is named %r" % wanted)
        else:
            linked = [i for i, n in enumerate(nodes) if NODE_HREF.search(n["href"])]
            self.require(linked, "no node of the map links to nodes/0xGUID.html")
            index = next((i for i in linked if "switch" in nodes[i]["title"].lower()), linked[0])
        node = nodes[index]
        self.require(NODE_HREF.search(node["href"]), "map node %r links to %r, not nodes/0xGUID.html"
                     % (wanted or node["texts"], node["href"]))
        names = [wanted] if wanted else node["texts"] + node["title"].splitlines()[:1]
        names = list(dict.fromkeys(squash(n) for n in names if squash(n)))
        target = self.url(node["href"])

        self.b.clear_console_errors()
        self.b.click("#map svg g.node", index)  # a real mouse click at the node's centre
        try:
            self.b.wait_for_url(lambda u: NODE_HREF.search(urlsplit(u).path), timeout=5,
                                what="a nodes/0xGUID.html page")
        except BrowserError as e:
            raise Failed("a click on map node %s did not open its page: %s" % (names, e))
        page = self.rel(self.b.url())
        self.expect(self.b.url() == target, "the click opened %s, the node links to %s"
                    % (page, node["href"]))
        h1 = squash(self.b.eval(JS_TEXT % "h1"))
        self.expect(any(n in h1 for n in names), "%s: h1 %r does not name the node %s" % (page, h1, names))
        self.page_basics(page)
        self.run_part(lambda: self.table(page, "ports", 1))
        self.graphs(page)
        self.screenshot("node.png")

        # From the node's page to one of its cables, by a click in the ports table.
        links = self.b.eval("[...document.querySelectorAll('#ports a')].map(a => a.getAttribute('href'))")
        which = next((i for i, h in enumerate(links) if LINK_HREF.search(h or "")), None)
        self.require(which is not None, "%s: no link to links/0xGUID-PORT.html in #ports" % page)
        self.b.clear_console_errors()
        self.b.click("#ports a", which)
        try:
            self.b.wait_for_url(lambda u: LINK_HREF.search(urlsplit(u).path), timeout=5,
                                what="a links/0xGUID-PORT.html page")
        except BrowserError as e:
            raise Failed("%s: a click on the cable link %s did not open it: %s" % (page, links[which], e))
        cable = self.rel(self.b.url())
        h1 = squash(self.b.eval(JS_TEXT % "h1"))
        self.expect(any(n in h1 for n in names), "%s: h1 %r does not name the end %s" % (cable, h1, names))
        self.page_basics(cable)
        self.graphs(cable)

    def other_pages(self):
        self.open("locality.html")
        self.page_basics("locality.html")
        self.run_part(lambda: self.table("locality.html", "locality", 1))
        self.graphs("locality.html", min_count=0)
        self.open("switches.html")
        self.page_basics("switches.html")
        switches = 0
        try:
            switches = self.table("switches.html", "switches", 1)
        except Failed as e:
            self.expect(False, str(e))
        count = self.graphs("switches.html")
        if count < switches:
            print("note: switches.html: %d img.graph for %d table rows" % (count, switches))

    def hostile(self):
        name = self.args.hostile_name
        files = self.site_files((".html", ".htm", ".svg"))
        raw_hits, pages = [], []
        for path in files:
            text = path.read_text(errors="replace")
            # Unescaped in the file: markup from a name. Only meaningful if the name has some.
            if any(c in name for c in "<>&") and name in text:
                raw_hits.append(str(path.relative_to(self.site)))
            if path.suffix != ".svg" and name in html.unescape(text):
                pages.append(str(path.relative_to(self.site)))
        self.expect(not raw_hits, "the name is written unescaped in %s" % ", ".join(raw_hits))
        self.require(pages, "the name %r is not on any page of the site" % name)
        # The overview and node pages first; a handful is enough.
        pages.sort(key=lambda p: (p != "index.html", not p.startswith("nodes/"), p))
        shown = []
        for page in pages[:8]:
            self.open(page)
            self.page_basics(page)
            self.expect(self.b.eval("typeof window.__pwned") == "undefined",
                        "%s: window.__pwned is set: markup from the name ran" % page)
            handlers = self.b.eval("""[...document.querySelectorAll('*')].flatMap(el =>
                [...el.attributes].filter(a => /^on/i.test(a.name)).map(a => a.value))""")
            bad = [h for h in handlers if h and h in name]
            self.expect(not bad, "%s: event handler attributes from the name: %s" % (page, bad))
            if squash(name) in squash(self.b.eval("document.body.innerText")):
                shown.append(page)
        self.expect(shown, "the name is not shown literally (innerText) on any of %s" % ", ".join(pages[:8]))

    def screenshots(self):
        if not self.artifacts:
            print("note: no --artifacts DIR, no screenshots")
            return
        for name in ("overview.png", "node.png"):
            path = self.artifacts / name
            taken = str(path) in self.shots and path.is_file() and path.stat().st_size > 0
            if self.expect(taken, "no screenshot %s (its check failed before)" % path):
                print("screenshot: %s" % path)

    def external_urls(self):
        hits = []
        for path in self.site_files(TEXT_FILES):
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                for m in EXTERNAL.finditer(line):
                    hits.append("%s:%d: %s" % (path.relative_to(self.site), number,
                                               line[m.start():m.end() + 40].strip()))
        self.expect(not hits, "external URLs in the site:\n    " + "\n    ".join(hits[:10]))

    def internal_links(self):
        broken = []
        for path in self.site_files((".html", ".htm")):
            for ref in collect_refs(path.read_text(errors="replace")):
                parts = urlsplit(ref)
                if parts.scheme or parts.netloc or not parts.path:  # external, data:, #fragment
                    continue
                target = (path.parent / unquote(parts.path)).resolve()
                if self.site not in target.parents or not target.is_file():
                    broken.append("%s -> %s" % (path.relative_to(self.site), ref))
        broken = list(dict.fromkeys(broken))
        self.expect(not broken, "%d links to missing files:\n    %s"
                    % (len(broken), "\n    ".join(broken[:10])))


class RefCollector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        self.refs += [v for k, v in attrs if k in ("href", "src", "xlink:href") and v]


def collect_refs(text):
    parser = RefCollector()
    parser.feed(text)
    return parser.refs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("site", help="the generated site (ibpm-web -o DIR)")
    ap.add_argument("--artifacts", help="write screenshots overview.png and node.png here")
    ap.add_argument("--hostile-name", help="a node name with markup the site must show as text")
    ap.add_argument("--switch-name", help="the switch to click in the map (default: the first one)")
    ap.add_argument("--timeout", type=float, default=15, help="seconds for each browser wait")
    args = ap.parse_args()
    site = Path(args.site).resolve()
    if not (site / "index.html").is_file():
        print("FAIL: %s has no index.html" % site)
        return 1
    start = time.monotonic()
    try:
        with Browser(timeout=args.timeout) as browser:
            check = SiteCheck(site, browser, args)
            check.run("1 overview", check.overview)
            check.run("2 sorting", check.sorting)
            check.run("3 map click", check.map_click)
            check.run("4 locality and switches", check.other_pages)
            if args.hostile_name:
                check.run("5 hostile name", check.hostile)
            check.run("6 screenshots", check.screenshots)
            check.run("7 no external URLs", check.external_urls)
            check.run("8 internal links", check.internal_links)
    except BrowserError as e:
        print("FAIL: browser: %s" % e)
        return 1
    failed = sorted(set(check.failures))
    print("%s in %.1f s" % ("FAILED: " + ", ".join(failed) if failed else "all checks passed",
                            time.monotonic() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
