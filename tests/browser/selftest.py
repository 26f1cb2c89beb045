"""The browser check must be able to fail: serves a broken home page (a
console error, an uncaught exception, a missing stylesheet and image, no
<h1>, an unlabelled field, a table wider than a phone, a card its content
overflows, a network drawing narrower than its box whose name overflows
its node) on loopback and runs
pages.py against it; exits 0 only when pages.py failed and named each fault.

    python tests/browser/selftest.py [--chromium /usr/bin/chromium]
"""

import http.server
import os
import subprocess
import sys
import tempfile
import threading

BROKEN = b"""<!doctype html><html><head><title>broken</title>
<link rel="stylesheet" href="/ui/static/missing.css"></head><body>
<header class="top"><nav><a class="brand" href="/ui">Accord</a></nav></header>
<main><p>no heading</p><input name="unlabelled">
<img src="/nowhere.png" alt="x"><div style="width:2000px">wide</div>
<div class="card" style="width:200px"><code style="white-space:nowrap">http://127.0.0.1:41234/a2a/v1/a-long-url-that-does-not-wrap</code></div>
<div><svg class="network" width="100" height="30" viewBox="0 0 100 30"><a class="node" href="/ui"><rect x="0" y="0" width="20" height="20"/><text x="2" y="14">a-name-much-wider-than-its-box</text></a></svg></div>
<script>console.error("boom"); undefined_function();</script></main></body></html>"""

# what pages.py must say about the page above
EXPECTED = ["console.error", "exception", "missing.css", "no <h1>", "stylesheet not applied",
            "unlabelled form field", "wider than a 390 px screen", "content wider than its box",
            "network drawing narrower than its box", "a name wider than its node"]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the http.server API)
        if self.path.split("?")[0] == "/ui":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(BROKEN)
        else:
            self.send_error(404)

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run([sys.executable, os.path.join(here, "pages.py"), "--base", base,
                              "--out", out, *sys.argv[1:]], capture_output=True, text=True)
    server.shutdown()
    missing = [e for e in EXPECTED if e not in run.stdout]
    if run.returncode != 1 or missing:
        print(run.stdout, run.stderr)
        print(f"selftest: pages.py exited {run.returncode} and did not report {missing}")
        return 1
    print(f"selftest: pages.py failed the broken page on all {len(EXPECTED)} faults, as it must")
    return 0


if __name__ == "__main__":
    sys.exit(main())
