"""Writes link/startup-symbols.txt: the functions `accord serve` runs from
its start to one idle second after the first heartbeat, for the linker to
place together (see build.rs and ARCHITECTURE.md "Start-up and idle
memory").

Why: the kernel maps an executable's code into a process in 64-128 KB
blocks around every page it touches (fault-around over the page cache's
large folios), so the broker's start-up, which runs ~2.4 MB of functions
scattered over 28 MB of code, left ~14 MB of code resident. Placed
together, they take ~2.5 MB.

Usage: python3 broker/bench/startup_order.py [ACCORD]
  ACCORD: a release build WITH symbols (default $CARGO_TARGET_DIR/release/
  accord, else target/release/accord). Needs valgrind (callgrind). Runs the
  broker under callgrind on a fresh SQLite database, polls the heartbeat,
  waits one second, dumps the functions executed so far, stops the broker,
  and writes their linker (mangled) names in address order; with
  ACCORD_ORDER_DATABASE_URL=postgres://… it does the same against that
  database too and writes the functions of both runs. Run it again
  when start-up code changes a lot (lld skips names it no longer finds, so
  a stale list only orders less).
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
accord = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(target, "release", "accord"))
out_file = os.path.join(root, "link", "startup-symbols.txt")
if not os.access(accord, os.X_OK):
    sys.exit(f"no release build at {accord} (cargo build --release -p accord)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_under_callgrind(folder, database):
    """Runs the broker under callgrind; returns the dump taken when idle."""
    port = free_port()
    dump = os.path.join(folder, "callgrind.out")
    broker = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={dump}",
         accord, "serve", "--bind", f"127.0.0.1:{port}", "--database-url", database],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/diagnostic/status/heartbeat"
        deadline = time.monotonic() + 120
        while True:
            if broker.poll() is not None:
                sys.exit(f"the broker exited with {broker.returncode} under valgrind")
            if time.monotonic() > deadline:
                sys.exit("no heartbeat within 120 s under valgrind")
            try:
                urllib.request.urlopen(url, timeout=5).read()
                break
            except OSError:
                time.sleep(0.05)
        time.sleep(1.0)
        subprocess.run(["callgrind_control", "--dump", str(broker.pid)],
                       stdout=subprocess.DEVNULL, check=True)
    finally:
        broker.terminate()
        broker.wait()
    dumps = sorted(f for f in os.listdir(folder) if f.startswith("callgrind.out."))
    if not dumps:
        sys.exit("callgrind wrote no dump")
    return os.path.join(folder, dumps[0])


def executed_functions(dump):
    """The names of the functions of `accord` with cost in the dump."""
    names, objects, current, executed = {}, {}, None, set()
    line_re = re.compile(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$")
    with open(dump, errors="replace") as f:
        for line in f:
            m = line_re.match(line.rstrip("\n"))
            if not m:
                continue
            kind, ident, name = m.groups()
            table = objects if kind.endswith("ob") else names
            if name is not None:
                table[ident] = name
            if kind == "ob":
                current = objects[ident]
            elif kind == "fn" and current == accord:
                executed.add(names[ident].split("'")[0])
    return executed


def addresses():
    """Linker name -> address of every function symbol of the binary."""
    # a stripped binary makes nm fail ("no symbols"): main() says so
    nm = subprocess.run(["nm", "--defined-only", accord], capture_output=True,
                        text=True, check=False).stdout
    found = {}
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            found[parts[2]] = int(parts[0], 16)
    return found


def main():
    where = addresses()
    if not where:
        sys.exit(f"{accord} has no symbols (a stripped build cannot be ordered)")
    databases = [None]  # None: a new SQLite file
    if os.environ.get("ACCORD_ORDER_DATABASE_URL"):
        databases.append(os.environ["ACCORD_ORDER_DATABASE_URL"])
    executed = set()
    for database in databases:
        with tempfile.TemporaryDirectory() as folder:
            url = database or os.path.join(folder, "accord.db")
            executed |= executed_functions(run_under_callgrind(folder, url))
    ordered = sorted((where[n], n) for n in executed if n in where)
    os.makedirs(os.path.dirname(out_file), exist_ok=True)
    with open(out_file, "w") as f:
        f.write("".join(f"{name}\n" for _, name in ordered))
    print(f"{len(ordered)} functions of {len(executed)} executed written to {out_file}")


main()
