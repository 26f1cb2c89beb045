"""Issue 27's broker start-up measures: cold start to the first heartbeat
(a new SQLite database, so every migration runs) and the idle RSS 1 s
after it, of `accord serve` as a process.

Usage: python3 broker/bench/start.py [ACCORD] [RUNS]
  ACCORD: the binary (default $CARGO_TARGET_DIR/release/accord, else
  target/release/accord); RUNS (default 5). Each run starts the broker on a
  free loopback port with a fresh database in a temporary folder, polls
  GET /diagnostic/status/heartbeat every millisecond from the moment the
  process is spawned, then reads /proc/PID/status (VmRSS, RssAnon,
  RssFile, Threads) after one idle second, and stops the broker by its PID.
  Prints each run and the medians. Set ACCORD_DATABASE_URL=postgres://… to
  start against PostgreSQL instead (the database must be empty for the
  migrations to count). With ACCORD_MAX_IDLE_RSS_MB=N it exits 1 when the
  median idle RSS is above N MB: .ci/python-wheel runs it so on the
  wheel's binary, which catches a stale link/startup-symbols.txt (its
  names carry crate-metadata hashes; a stale list leaves the start-up code
  scattered and the idle RSS back at ~22 MB).

Measured 2026-12-05 before (main at 7b0cec1) and after (branch start27),
taking turns, 4 rounds, load 8-11 with builds beside it: idle RSS 34.7 ->
24.6 MB (anonymous 13.9 -> 4.6, file-backed 20.8 -> 20.1), 23.7 MB with
ACCORD_WORKERS=1; first heartbeat median 115 -> 95 ms (main: 26 ms at
load 0.7); at load 4-6, 5 rounds: 24.8 -> 15.0 ms, 33.1 -> 22.5 MB
(21.5 MB with one worker). The anonymous part was actix-router's regex automata, ~4.6 MB
per worker (now regex-lite); the file-backed part is the binary's code
the start-up ran and libcrypto. ARCHITECTURE.md "Start-up and idle
memory" has the breakdown and the PostgreSQL figures. With the start-up
functions placed together by the linker (link/startup-symbols.txt, from
broker/bench/startup_order.py), same commit without/with the list, load
10-12: SQLite 24.0 -> 13.0 MB (file-backed 19.4 -> 8.6), PostgreSQL 22.1
-> 12.9 MB.
"""
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
accord = sys.argv[1] if len(sys.argv) > 1 else os.path.join(target, "release", "accord")
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
if not os.access(accord, os.X_OK):
    sys.exit(f"no release build at {accord} (cargo build --release -p accord)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "Threads"):
                fields[name] = int(value.split()[0])
    return fields


starts, rss = [], []
for _ in range(runs):
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        database = os.environ.get("ACCORD_DATABASE_URL", os.path.join(folder, "accord.db"))
        began = time.perf_counter()
        broker = subprocess.Popen(
            [accord, "serve", "--bind", f"127.0.0.1:{port}", "--database-url", database],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}/diagnostic/status/heartbeat"
            while True:
                if broker.poll() is not None:
                    sys.exit(f"the broker exited with {broker.returncode}")
                try:
                    urllib.request.urlopen(url, timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.001)
            ms = (time.perf_counter() - began) * 1000
            time.sleep(1.0)
            s = status(broker.pid)
        finally:
            broker.terminate()
            broker.wait()
    starts.append(ms)
    rss.append(s["VmRSS"] / 1024)
    print(f"first heartbeat {ms:6.1f} ms   idle RSS {s['VmRSS'] / 1024:5.1f} MB "
          f"(anonymous {s['RssAnon'] / 1024:.1f}, file {s['RssFile'] / 1024:.1f}), "
          f"{s['Threads']} threads")
print(f"median: first heartbeat {statistics.median(starts):.1f} ms, "
      f"idle RSS {statistics.median(rss):.1f} MB; load {os.getloadavg()[0]:.1f}")
limit = os.environ.get("ACCORD_MAX_IDLE_RSS_MB")
if limit and statistics.median(rss) > float(limit):
    sys.exit(f"idle RSS {statistics.median(rss):.1f} MB is above {limit} MB: if the start-up "
             "functions are scattered again, rewrite link/startup-symbols.txt "
             "(broker/bench/startup_order.py; ARCHITECTURE.md 'Start-up and idle memory')")
