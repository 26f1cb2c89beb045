#!/usr/bin/env python3
"""Issue 22's load measurements of the mock's bounds, on 127.0.0.1 only.

Starts the bare mock (`mock/examples/serve.rs`, default options) on a
small HTTP contract, loads it one way, and prints the mock's peak RSS
(VmHWM) and what the load saw. The server is a child of this script,
stopped by its PID at the end.

Usage:
  cargo build -p accord-mock --example serve
  mock/bench/bounds.py BIN bad 200000        # unexpected requests, then a reset
  mock/bench/bounds.py BIN slow 300 --nofile 256   # slow bodies; a normal GET's wall time
  mock/bench/bounds.py BIN bodies 48 10485760      # concurrent bodies of that size

BIN is the example binary ($CARGO_TARGET_DIR/debug/examples/serve).
--nofile N starts the mock with that limit on open files. Every load is
bounded in count and in time (GIVE_UP seconds for a request). Slow
clients declare 10 KB bodies (within the body budget: what they test is
the deadline and the connection cap; a larger declared body is refused
by the budget at once).

Measured 2026-12-05 on the project's 2-core machine (other builds beside
it), debug builds, "before" = the example built on 8ed627d:
                                  before                 after
  200,000 bad requests: RSS       15.1 -> 123.5 MB       15.0 -> 17.4 MB
    after POST /__accord/reset    123.6 MB               17.4 MB
  300 slow clients, --nofile 256  a normal GET not       a normal GET
                                  answered in 60 s       answered in 10.0 s
  48 concurrent 10 MiB JSON       peak 1,017.5 MB;       peak 136.1 MB; 8 read (500),
    bodies                        all 48 read (500)      40 refused (503, or a broken
                                                         pipe while sending the rest)
"""

import http.client
import json
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

GIVE_UP = 60

CONTRACT = {
    "consumer": {"name": "orchestrator"},
    "provider": {"name": "items"},
    "interactions": [
        {"type": "Synchronous/HTTP", "description": "get an item",
         "request": {"method": "GET", "path": "/items/7"},
         "response": {"status": 200, "body": {"content": {"id": 7}}}},
        {"type": "Synchronous/HTTP", "description": "create an item",
         "request": {"method": "POST", "path": "/items",
                     "headers": {"Content-Type": ["application/json"]},
                     "body": {"content": {"name": "lamp", "n": 1}}},
         "response": {"status": 201, "body": {"content": {"id": 8}}}},
    ],
    "metadata": {"pactSpecification": {"version": "4.0"}},
}


def status(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024  # MB (of kB)
    return 0.0


def start(binary, nofile):
    path = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(CONTRACT, path)
    path.close()

    def limit():
        if nofile:
            _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, hard))

    proc = subprocess.Popen([binary, path.name], stdout=subprocess.PIPE, text=True,
                            preexec_fn=limit)
    url = proc.stdout.readline().strip()
    host, port = url.removeprefix("http://").split(":")
    assert host == "127.0.0.1", url
    return proc, int(port)


def request(port, method, path, body=None, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=GIVE_UP)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    r.read()
    c.close()
    return r.status


def bad(port, pid, n):
    threads = 4
    def run(k):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=GIVE_UP)
        for i in range(k, n, threads):
            c.request("GET", f"/nowhere/{i}?q={i}")
            c.getresponse().read()
        c.close()
    t0 = time.time()
    ts = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    print(f"{n} bad requests in {time.time() - t0:.1f} s")
    print(f"after them: RSS {status(pid, 'VmRSS'):.1f} MB, peak {status(pid, 'VmHWM'):.1f} MB")
    print("reset:", request(port, "POST", "/__accord/reset"))
    print(f"after reset: RSS {status(pid, 'VmRSS'):.1f} MB")


def slow(port, pid, n):
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=GIVE_UP)
        s.sendall(b"POST /items HTTP/1.1\r\nHost: mock\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 10000\r\n\r\n{")
        s.setblocking(False)
        socks.append(s)
    stop = threading.Event()
    cut = set()
    def drip():
        while not stop.is_set():
            for i, s in enumerate(socks):
                if i in cut:
                    continue
                try:
                    s.send(b" ")
                except OSError:
                    cut.add(i)
            time.sleep(0.5)
    d = threading.Thread(target=drip)
    d.start()
    time.sleep(1)
    t0 = time.time()
    try:
        answered = request(port, "GET", "/items/7")
    except OSError as e:
        answered = f"not answered ({e})"
    wall = time.time() - t0
    print(f"{n} slow clients dripping: normal GET -> {answered} after {wall:.1f} s;"
          f" slow clients cut so far: {len(cut)}")
    stop.set()
    d.join()
    for s in socks:
        s.close()
    print(f"peak RSS {status(pid, 'VmHWM'):.1f} MB")


def bodies(port, pid, n, size):
    name = "x" * (size - 40)
    body = json.dumps({"name": name, "n": 1}).encode()
    barrier = threading.Barrier(n)
    seen = []
    def post():
        barrier.wait()
        try:
            seen.append(request(port, "POST", "/items", body,
                                {"Content-Type": "application/json"}))
        except OSError as e:
            seen.append(type(e).__name__)
    ts = [threading.Thread(target=post) for _ in range(n)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    counts = {s: seen.count(s) for s in set(seen)}
    print(f"{n} concurrent bodies of {len(body)} bytes: answers {counts}")
    print("a normal GET after:", request(port, "GET", "/items/7"))
    print(f"peak RSS {status(pid, 'VmHWM'):.1f} MB")


def main():
    args = sys.argv[1:]
    nofile = None
    if "--nofile" in args:
        i = args.index("--nofile")
        nofile = int(args[i + 1])
        del args[i:i + 2]
    binary, mode, *rest = args
    proc, port = start(binary, nofile)
    try:
        print(f"idle RSS {status(proc.pid, 'VmRSS'):.1f} MB")
        if mode == "bad":
            bad(port, proc.pid, int(rest[0]))
        elif mode == "slow":
            slow(port, proc.pid, int(rest[0]))
        elif mode == "bodies":
            bodies(port, proc.pid, int(rest[0]), int(rest[1]))
        else:
            sys.exit(f"unknown mode {mode}")
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main()
