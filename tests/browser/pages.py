"""Loads every kind of page of a running broker in headless Chromium.

Starts at the home page and follows its links (same origin, under /ui) breadth
first, so a page kind that cannot be reached from home is reported. Each page
is loaded through the Chrome DevTools Protocol and fails the check on:
a console error or an uncaught exception, a request that failed or answered
4xx/5xx (other than the page itself when an error page is expected), a
missing element (heading, navigation, applied stylesheet), a card (or the
table of declarations) whose content is wider than its box at 1280 px, a
network drawing narrower than its box or a name wider than its node, or a
body wider than a phone's screen. Screenshots of every page go to --out.

    python tests/browser/pages.py --base http://127.0.0.1:9292 --out /tmp/shots \
        [--docs docs] [--chromium /usr/bin/chromium]

Needs the `websockets` package (PyPI) and Chromium. Exit 0 when every page
passed, 1 otherwise (every failure is printed), 2 when Chromium cannot start.
"""

import argparse
import base64
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import deque

from websockets.sync.client import connect

# Page kinds, by path pattern; each but search (a form) must be reached from
# home by links.
KINDS = [
    ("home", r"^/ui$"),
    ("search", r"^/ui/search$"),
    ("matrix", r"^/ui/matrix$"),
    ("matrix landing", None),
    ("matrix grid", None),
    ("candidate", r"^/ui/providers/[^/]+/versions/[^/]+$"),
    ("can-i-deploy", r"^/ui/can-i-deploy$"),
    ("network", r"^/ui/network$"),
    ("pacticipant", r"^/ui/pacticipants/[^/]+$"),
    ("contract", r"^/ui/pacts/provider/[^/]+/consumer/[^/]+/version/[^/]+$"),
    ("diff", r"^/ui/pacts/provider/[^/]+/consumer/[^/]+/diff$"),
    ("verification", r"^/ui/pacts/provider/[^/]+/consumer/[^/]+/pact-version/[^/]+/verification-results/[^/]+$"),
]
# How many pages of one kind are loaded (the first ones found).
PER_KIND = 4
# Pages that must answer an error page with this status (bad input).
ERRORS = [
    ("/ui/pacticipants/no-such-application", 404),
    ("/ui/matrix?page=99999999999999999999999", 400),
    ("/ui/search?q=" + "x" * 300, 400),
]
# Which screenshots go into the docs (kind -> file name).
DOCS = {"matrix": "matrix.png", "verification": "verification.png"}
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-quic", "--remote-debugging-port=0", "--hide-scrollbars",
]


def kind_of(path, query=""):
    for kind, pattern in KINDS:
        if pattern and re.match(pattern, path):
            # the matrix as a grid (one pair) is a page of its own, and so
            # is its landing (no filter: every integration's verdicts)
            if kind == "matrix" and "view=grid" in query:
                return "matrix grid"
            if kind == "matrix" and not query:
                return "matrix landing"
            return kind
    return None


class Browser:
    """One headless Chromium and one page target, spoken to over CDP."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="accord-chromium-")
        self.proc = subprocess.Popen(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port = self._devtools_port()
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(
            connect(page["webSocketDebuggerUrl"], max_size=64 * 1024 * 1024))
        self.next_id = 0
        self.events = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")

    def _devtools_port(self):
        marker = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 20
        while time.time() < deadline:
            if os.path.exists(marker):
                with open(marker) as f:
                    first = f.readline().strip()
                if first:
                    return int(first)
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("Chromium did not open its DevTools port")

    def call(self, method, **params):
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=30))
            if msg.get("id") == mine:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def wait_for(self, method, timeout=15):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e["method"] == method:
                del self.events[: i + 1]
                return e
        while time.time() < deadline:
            msg = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.time())))
            if msg.get("method") == method:
                return msg
            if "method" in msg:
                self.events.append(msg)
        raise TimeoutError(method)

    def drain(self, quiet=0.3):
        """Collects events until none arrived for `quiet` seconds."""
        while True:
            try:
                msg = json.loads(self.ws.recv(timeout=quiet))
            except TimeoutError:
                return
            if "method" in msg:
                self.events.append(msg)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.stack.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


def load(browser, url, width=1280, height=900):
    """Navigates; returns (status of the document, problems seen while loading)."""
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                 deviceScaleFactor=1, mobile=width < 600)
    browser.events.clear()
    browser.call("Page.navigate", url=url)
    browser.wait_for("Page.loadEventFired")
    browser.drain()
    status, problems = None, []
    for e in browser.events:
        m, p = e["method"], e.get("params", {})
        if m == "Network.responseReceived":
            r = p["response"]
            if p.get("type") == "Document" and status is None:
                status = r["status"]
            elif r["status"] >= 400:
                problems.append(f"request {r['url']} answered {r['status']}")
        elif m == "Network.loadingFailed" and not p.get("canceled"):
            problems.append(f"request failed: {p.get('errorText')} ({p.get('type')})")
        elif m == "Runtime.exceptionThrown":
            problems.append(f"exception: {p['exceptionDetails'].get('text')}")
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            problems.append(f"console.{p['type']}: {p.get('args')}")
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            entry = p["entry"]
            # the document's own error status is expected on an error page
            if not (entry.get("source") == "network" and entry.get("url") == url):
                problems.append(f"console: {entry.get('text')} {entry.get('url', '')}")
    return status, problems


CHECKS = """(() => {
  const out = [];
  if (!document.querySelector('main h1')) out.push('no <h1> in <main>');
  if (!document.querySelector('header nav a.brand[href="/ui"]')) out.push('no navigation');
  if (!document.title) out.push('no <title>');
  const top = document.querySelector('.top');
  if (!top || getComputedStyle(top).backgroundColor !== 'rgb(31, 78, 121)') out.push('stylesheet not applied');
  for (const box of document.querySelectorAll('.card, .scroll:has(> table.declarations)'))
    if (box.scrollWidth > box.clientWidth + 1) out.push('content wider than its box: ' + box.className);
  // the network drawing shown fills its box, and every name fits its node
  for (const svg of document.querySelectorAll('svg.network, svg.network-phone')) {
    if (!svg.getClientRects().length) continue;
    if (svg.getBoundingClientRect().width < svg.parentElement.clientWidth - 2) out.push('a network drawing narrower than its box');
    for (const node of svg.querySelectorAll('a.node')) {
      const box = node.querySelector('rect'), name = node.querySelector('text');
      if (box && name && name.getBBox().width > box.getBBox().width) out.push('a name wider than its node: ' + name.textContent);
    }
  }
  for (const img of document.images) if (!img.alt && img.getAttribute('role') !== 'presentation') out.push('img without alt');
  for (const i of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
    const labelled = i.labels && i.labels.length || i.getAttribute('aria-label') || i.getAttribute('aria-labelledby');
    if (!labelled) out.push('unlabelled form field ' + (i.name || i.id));
  }
  return out;
})()"""

# SVG links have an SVGAnimatedString `href`: read the attribute and resolve it
LINKS = """Array.from(document.querySelectorAll('a[href]'))
  .map(a => new URL(a.getAttribute('href'), document.baseURI).href)"""
PHONE_FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"


def screenshot(browser, path):
    data = browser.call("Page.captureScreenshot", format="png")["data"]
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))


FAILED_MARKS = "document.querySelectorAll('.verdict.fail').length"


def crawl(browser, base, out, best):
    """Follows links from home; returns (failures, pages by kind). `best`
    gets, per kind, the screenshot showing the most failures (for the docs)."""
    failures, seen, by_kind = [], set(), {}
    queue = deque(["/ui", "/ui/search?q=a"])
    while queue:
        target = queue.popleft()
        parts = urllib.parse.urlsplit(target)
        kind = kind_of(parts.path, parts.query)
        if target in seen or kind is None or len(by_kind.get(kind, [])) >= PER_KIND:
            continue
        seen.add(target)
        by_kind.setdefault(kind, []).append(target)
        status, problems = load(browser, base + target)
        if status != 200:
            problems.insert(0, f"answered {status}")
        problems += browser.evaluate(CHECKS) or []
        name = f"{kind}-{len(by_kind[kind])}.png"
        screenshot(browser, os.path.join(out, name))
        marks = browser.evaluate(FAILED_MARKS) or 0
        if kind not in best or marks > best[kind][0]:
            best[kind] = (marks, name)
        for link in browser.evaluate(LINKS) or []:
            parts = urllib.parse.urlsplit(link)
            if link.startswith(base) and parts.path.startswith("/ui") and "/static/" not in parts.path:
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
        report(kind, target, status, problems, failures)
    return failures, by_kind


def report(kind, target, status, problems, failures):
    shown = target if len(target) < 110 else target[:107] + "..."
    print(f"{'FAIL' if problems else 'ok  '} {kind:<13} {status} {shown}")
    for p in problems:
        print(f"       {p}")
        failures.append(f"{target}: {p}")


def phone_checks(browser, base, by_kind, out, failures):
    """The first page of each kind at a phone's width: nothing wider than the screen."""
    for kind, pages in by_kind.items():
        status, problems = load(browser, base + pages[0], width=390, height=844)
        if not browser.evaluate(PHONE_FITS):
            problems.append("the page is wider than a 390 px screen")
        screenshot(browser, os.path.join(out, f"phone-{kind}.png"))
        report(f"phone {kind}", pages[0], status, problems, failures)


def error_checks(browser, base, failures):
    for path, expected in ERRORS:
        status, problems = load(browser, base + path)
        if status != expected:
            problems.insert(0, f"expected {expected}, answered {status}")
        heading = browser.evaluate("(document.querySelector('main h1')||{}).textContent") or ""
        if not heading.startswith(str(expected)):
            problems.append(f"heading {heading!r} does not state {expected}")
        report("error page", path, status, problems, failures)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the broker's URL, e.g. http://127.0.0.1:9292")
    ap.add_argument("--out", required=True, help="folder for the screenshots")
    ap.add_argument("--docs", help="copy the matrix and verification screenshots here")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = ap.parse_args()
    base = args.base.rstrip("/")
    os.makedirs(args.out, exist_ok=True)
    try:
        browser = Browser(args.chromium)
    except (OSError, RuntimeError, StopIteration) as e:
        print(f"pages: Chromium ({args.chromium}) could not start: {e}", file=sys.stderr)
        return 2
    try:
        best = {}
        failures, by_kind = crawl(browser, base, args.out, best)
        phone_checks(browser, base, by_kind, args.out, failures)
        error_checks(browser, base, failures)
    finally:
        browser.close()
    for kind, _ in KINDS:
        if kind not in by_kind:
            failures.append(f"no {kind} page is reachable by links from the home page")
            print(f"FAIL {kind}: not reachable by links from /ui")
    if args.docs:
        for kind, file in DOCS.items():
            if kind in best:
                shutil.copy(os.path.join(args.out, best[kind][1]), os.path.join(args.docs, file))
    pages = sum(len(v) for v in by_kind.values())
    print(f"pages: {pages} pages of {len(by_kind)} kinds loaded, {len(failures)} problem(s); screenshots in {args.out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
