#!/usr/bin/env bash
# Issue 4's speed benchmark: `accord verify` against `pact verifier` on the
# same N-interaction Pact V4 HTTP contract (each interaction with its own
# provider state, set up and torn down) and the same fast static provider:
# nginx on a loopback port, serving `GET /items/{i}` → {"id": i, "name": "item i"}
# and answering the state-change URL with `{}`.
#
# Usage: verifier/bench/compare.sh [N…]        (default: 100 1000 10000)
# Needs: nginx and hyperfine (apt-get install -y nginx hyperfine), a release
# build (cargo build --release -p accord), and the Pact CLI (pip package
# pact-python-cli; PACT=/path/to/pact to choose it). Set SKIP_PACT=1 to time
# accord only; PACT_MAX (default 1000) is the largest N pact is run for;
# RUNS (default 5) timed runs of accord, PACT_RUNS (default 1) of pact.
# nginx runs as a background process of this script and is stopped by PID.
#
# Measured 2026-11-29 on the project's 2-core machine (load 1.5-2), release
# build, hyperfine means of 10 runs (pact verifier: 1 run):
#   N        accord --jobs 1   accord --jobs 4   pact verifier
#   100       21.9 ms           20.6 ms            2.08 s
#   1,000    180 ms            101 ms             23.8 s
#   10,000   1.80 s            0.92 s             -
# Re-run at the end of the session (load 1.5): 1,000 → 198 ms / 90 ms,
# 10,000 → 1.81 s / 0.83 s.
# --jobs 4 runs on 2 threads (one per core), each a single-threaded runtime
# with its own connections, 2 chains in flight on each.
set -euo pipefail

[ $# -gt 0 ] || set -- 100 1000 10000
sizes=("$@")
root=$(cd "$(dirname "$0")/../.." && pwd)
accord=${ACCORD:-${CARGO_TARGET_DIR:-$root/target}/release/accord}
pact=${PACT:-$(command -v pact || echo /root/.cache/accord/venv/bin/pact)}
pact_max=${PACT_MAX:-1000}
runs=${RUNS:-5}
export PACT_DO_NOT_TRACK=true

[ -x "$accord" ] || { echo "no release build at $accord (cargo build --release -p accord)" >&2; exit 2; }
command -v nginx >/dev/null || { echo "nginx missing (apt-get install -y nginx)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "hyperfine missing (apt-get install -y hyperfine)" >&2; exit 2; }

work=$(mktemp -d /tmp/accord-bench.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

sed -e "s|@WORK@|$work|g" -e "s|@PORT@|$port|g" "$root/verifier/bench/nginx.conf" >"$work/nginx.conf"

nginx -p "$work" -c "$work/nginx.conf" &
nginx_pid=$!
trap 'kill "$nginx_pid" 2>/dev/null; wait "$nginx_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "$base/items/1" >/dev/null && break; sleep 0.1; done
curl -sf -X POST -d '{"state":"x"}' "$base/_state" | grep -q '{}'

make_pact() { # N → path of a Pact V4 file with N interactions
  python3 "$root/verifier/bench/items_pact.py" "$1" "$work/pact-$1.json"
}

accord_cmd() { # pact jobs
  echo "$accord verify --provider items --provider-base-url $base --state-change-url $base/_state --contract $1 --jobs $2"
}
pact_cmd() {
  echo "$pact verifier --file $1 --hostname 127.0.0.1 --port $port --provider-name items --state-change-url $base/_state --state-change-teardown --loglevel error"
}

for n in "${sizes[@]}"; do
  file=$(make_pact "$n")
  # accord must pass before it is timed (hyperfine fails on a non-zero exit).
  $(accord_cmd "$file" 1) >"$work/accord.out" || { tail -20 "$work/accord.out"; exit 1; }
  accord_runs=$runs
  [ "$n" -ge 10000 ] && accord_runs=3
  hyperfine --warmup 1 --runs "$accord_runs" --export-markdown "$work/accord-$n.md" \
    -n "accord verify --jobs 1 ($n)" "$(accord_cmd "$file" 1)" \
    -n "accord verify --jobs 4 ($n)" "$(accord_cmd "$file" 4)"
  cat "$work/accord-$n.md"
  if [ -z "${SKIP_PACT:-}" ] && [ "$n" -le "$pact_max" ] && [ -x "$pact" ]; then
    # pact verifier takes tens of seconds per 1,000 interactions: PACT_RUNS (default 1).
    hyperfine --runs "${PACT_RUNS:-1}" --export-markdown "$work/pact-$n.md" \
      -n "pact verifier ($n)" "$(pact_cmd "$file")"
    cat "$work/pact-$n.md"
  fi
done
