# SPDX-License-Identifier: MIT

"""A small Chrome DevTools Protocol driver for headless Chromium, over a pipe.

Chromium started with --remote-debugging-pipe reads commands from its fd 3 and
writes responses and events to its fd 4, each message a JSON object ended by a
NUL byte: no port, no websocket library, Python standard library only.

    with Browser() as b:
        b.open("file:///tmp/site/index.html")
        b.click("#map svg g.node")
        b.wait_for_url("/nodes/")
        assert not b.console_errors()
"""

import base64
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time


class BrowserError(Exception):
    """A CDP command failed, Chromium died, or a wait timed out."""


class JSError(BrowserError):
    """The page threw while evaluating an expression."""


def find_chromium():
    """$CHROMIUM if set, else the first of chromium / chromium-browser / google-chrome."""
    if os.environ.get("CHROMIUM"):
        if not os.access(os.environ["CHROMIUM"], os.X_OK):
            raise BrowserError("CHROMIUM=%s is not an executable" % os.environ["CHROMIUM"])
        return os.environ["CHROMIUM"]
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    raise BrowserError("chromium not found (apt-get install -y chromium, or set CHROMIUM)")


class Browser:
    def __init__(self, width=1366, height=900, timeout=15.0, chromium=None):
        self.width, self.height, self.timeout = width, height, timeout
        self.chromium = chromium or find_chromium()
        self._ids = itertools.count(1)
        self._cond = threading.Condition()
        self._responses = {}       # command id -> response message
        self._events = []          # (sequence number, message), page session only
        self._seq = 0
        self._errors = []          # console errors, exceptions, error log entries, dialogs
        self.requests = []         # URLs the page asked for (to spot external ones)
        self._closed = None        # why the pipe closed, once it has
        self._write_lock = threading.Lock()
        self._proc = self._reader = self._session = self._tmp = None
        self._to_chrome = self._from_chrome = None

    # ---- lifetime --------------------------------------------------------
    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self):
        self._tmp = tempfile.mkdtemp(prefix="ibpm-chromium-")
        self._log_path = os.path.join(self._tmp, "chromium.log")
        # After these two pipes, fds 3 and 4 are open in this process (ours or older ones),
        # which pass_fds below needs: the child marks them inheritable before child_fds().
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def child_fds():  # runs in the child: the two pipe ends become exactly fds 3 and 4
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)  # dup first: they may be 3 or 4
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [self.chromium, "--headless=new", "--remote-debugging-pipe",
                "--no-sandbox",              # needed as root (containers, CI)
                "--disable-dev-shm-usage",   # small /dev/shm in containers crashes renderers
                "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--user-data-dir=" + os.path.join(self._tmp, "profile"),
                "--window-size=%d,%d" % (self.width, self.height),
                "--allow-file-access-from-files", "--hide-scrollbars", "--mute-audio",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--disable-breakpad", "--password-store=basic",
                "--use-mock-keychain", "about:blank"]
        with open(self._log_path, "wb") as log:
            # Own process group, so that close() can end the renderers and helpers too.
            self._proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                          preexec_fn=child_fds, pass_fds=(3, 4),
                                          start_new_session=True)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=False)
        self._session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": self.width, "height": self.height,
                                                         "deviceScaleFactor": 1, "mobile": False})

    def close(self):
        if self._proc and self._proc.poll() is None:
            try:
                self.send("Browser.close", session=False, timeout=3)
            except BrowserError:
                pass
            try:
                self._proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                pass
        if self._proc:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)  # leftovers of our own group only
            except (ProcessLookupError, PermissionError):
                pass
            self._proc.wait()
            self._proc = None
        if self._reader:  # it sees the end of the pipe now; its fd must not be closed under it
            self._reader.join(timeout=5)
            self._reader = None
        for fd in (self._to_chrome, self._from_chrome):
            if fd is not None:
                os.close(fd)
        self._to_chrome = self._from_chrome = None
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    # ---- protocol --------------------------------------------------------
    def _read_loop(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self._from_chrome, 1 << 16)
            except (OSError, TypeError):
                chunk = b""
            if not chunk:
                proc = self._proc
                with self._cond:
                    self._closed = "chromium closed the pipe (exit status %s)%s" % (
                        proc.poll() if proc else "?", self._log_tail())
                    self._cond.notify_all()
                return
            buf += chunk
            *messages, buf = buf.split(b"\0")
            for raw in messages:
                self._dispatch(json.loads(raw))

    def _dispatch(self, msg):
        with self._cond:
            if "id" in msg:
                self._responses[msg["id"]] = msg
            elif self._session and msg.get("sessionId") == self._session:
                if msg["method"].startswith("Page."):  # the only events waited for
                    self._seq += 1
                    self._events.append((self._seq, msg))
                self._note_event(msg["method"], msg.get("params", {}))
            self._cond.notify_all()

    def _note_event(self, method, p):
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            self._errors.append("console.%s: %s" % (p["type"], text))
        elif method == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            text = d.get("exception", {}).get("description") or d.get("text", "")
            self._errors.append("exception: %s (%s:%s)" % (text, d.get("url", ""), d.get("lineNumber")))
        elif method == "Log.entryAdded" and p["entry"].get("level") == "error":
            e = p["entry"]
            self._errors.append("log: %s %s" % (e.get("text", ""), e.get("url", "")))
        elif method == "Network.requestWillBeSent":
            self.requests.append(p["request"]["url"])
        elif method == "Page.javascriptDialogOpening":
            # An open alert() blocks the page (and every Runtime.evaluate): note it, dismiss it.
            self._errors.append("dialog %s: %s" % (p.get("type"), p.get("message")))
            try:
                self._write({"id": next(self._ids), "sessionId": self._session,
                             "method": "Page.handleJavaScriptDialog", "params": {"accept": True}})
            except OSError:
                pass  # chromium is gone; the next command says so

    def _write(self, msg):
        data = json.dumps(msg).encode() + b"\0"
        with self._write_lock:
            while data:
                data = data[os.write(self._to_chrome, data):]

    def _log_tail(self):
        try:
            with open(self._log_path, "rb") as f:
                tail = f.read()[-800:].decode(errors="replace").strip()
            return "; chromium log: " + tail if tail else ""
        except OSError:
            return ""

    def send(self, method, params=None, session=True, timeout=None):
        """Sends a command, waits for its response and returns its result."""
        if self._closed:
            raise BrowserError(self._closed)
        msg_id = next(self._ids)
        msg = {"id": msg_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self._session
        try:
            self._write(msg)
        except OSError as e:
            raise BrowserError("cannot send %s to chromium: %s%s" % (method, e, self._log_tail()))
        timeout = timeout or self.timeout
        with self._cond:
            if not self._cond.wait_for(lambda: msg_id in self._responses or self._closed, timeout):
                raise BrowserError("no answer to %s after %.0f s" % (method, timeout))
            if msg_id not in self._responses:
                raise BrowserError("%s: %s" % (method, self._closed))
            response = self._responses.pop(msg_id)
        if "error" in response:
            raise BrowserError("%s failed: %s" % (method, response["error"].get("message")))
        return response.get("result", {})

    def _wait_event(self, methods, after, timeout, what):
        """The first event named in methods with a sequence number above after."""
        def found():
            return next((m for s, m in self._events if s > after and m["method"] in methods), None)
        with self._cond:
            if not self._cond.wait_for(lambda: found() or self._closed, timeout):
                raise BrowserError("timed out after %.0f s waiting for %s" % (timeout, what))
            if not found():
                raise BrowserError("while waiting for %s: %s" % (what, self._closed))
            return found()

    # ---- page API --------------------------------------------------------
    def open(self, url, timeout=None):
        """Navigates to url and waits for its load event."""
        timeout = timeout or self.timeout
        with self._cond:
            mark = self._seq
        result = self.send("Page.navigate", {"url": url}, timeout=timeout)
        if result.get("errorText"):
            raise BrowserError("cannot open %s: %s" % (url, result["errorText"]))
        self._wait_event(("Page.loadEventFired",), mark, timeout, "the load of " + url)

    def eval(self, js, timeout=None):
        """The value of a JS expression (promises awaited), returned by value."""
        r = self.send("Runtime.evaluate", {"expression": js, "returnByValue": True,
                                           "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise JSError(d.get("exception", {}).get("description") or d.get("text", "JS error"))
        return r["result"].get("value")

    def url(self):
        return self.eval("location.href")

    def click_at(self, x, y):
        """A real left click: mouse moved, pressed and released at (x, y), CSS pixels."""
        base = {"x": x, "y": y, "button": "left", "clickCount": 1}
        self.send("Input.dispatchMouseEvent", dict(base, type="mouseMoved", button="none", clickCount=0))
        self.send("Input.dispatchMouseEvent", dict(base, type="mousePressed", buttons=1))
        self.send("Input.dispatchMouseEvent", dict(base, type="mouseReleased", buttons=0))

    def center(self, selector, index=0):
        """Scrolls element [index] of selector into view; returns the centre of its box.

        Raises if it has no box, or if something else is on top of that point."""
        info = self.eval("""(() => {
            const el = document.querySelectorAll(%s)[%d];
            if (!el) return {error: 'no element'};
            el.scrollIntoView({block: 'center', inline: 'center'});
            const r = el.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            const hitName = hit ? hit.tagName + (hit.id ? '#' + hit.id : '') : 'nothing';
            return {x, y, w: r.width, h: r.height, hit: hitName,
                    ok: !!hit && (el === hit || el.contains(hit) || hit.contains(el))};
        })()""" % (json.dumps(selector), index))
        where = "%s [%d]" % (selector, index)
        if "error" in info:
            raise BrowserError("%s: %s" % (where, info["error"]))
        if info["w"] <= 0 or info["h"] <= 0:
            raise BrowserError("%s has an empty box, cannot click it" % where)
        if not info["ok"]:
            raise BrowserError("%s: its centre (%.0f, %.0f) is covered by %s"
                               % (where, info["x"], info["y"], info["hit"]))
        return info["x"], info["y"]

    def click(self, selector, index=0):
        self.click_at(*self.center(selector, index))

    def wait_for_url(self, want, timeout=None, what=None):
        """Waits until location.href matches want (a substring, or a predicate on the URL) and
        the page has loaded; returns the URL. what names the expected page in errors."""
        timeout = timeout or self.timeout
        match = want if callable(want) else (lambda u: want in u)
        what = what or ("a URL with %r" % want if isinstance(want, str) else "the expected URL")
        deadline, href = time.monotonic() + timeout, None
        while time.monotonic() < deadline:
            try:  # while the page is being replaced, evaluations may fail: try again
                href, state = self.eval("[location.href, document.readyState]", timeout=2)
                if match(href) and state == "complete":
                    return href
                if href.startswith("chrome-error:"):  # the navigation failed (missing file...)
                    break
            except BrowserError:
                if self._closed:
                    raise
            time.sleep(0.05)
        else:
            raise BrowserError("timed out after %.0f s waiting for %s (the page is still %s)"
                               % (timeout, what, href))
        raise BrowserError("navigation failed: Chromium shows an error page instead of %s" % what)

    def screenshot(self, path, full_page=False):
        params = {"format": "png"}
        if full_page:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params.update(captureBeyondViewport=True, clip={
                "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.send("Page.captureScreenshot", params)["data"]))
        return path

    def console_errors(self):
        """Console errors, uncaught exceptions, error log entries (failed loads) and dialogs
        since the last clear_console_errors()."""
        with self._cond:
            return list(self._errors)

    def clear_console_errors(self):
        """Forgets the errors and the requests seen so far."""
        with self._cond:
            self._errors.clear()
            self.requests.clear()
