#!/usr/bin/env bash
# Issue 12's speed benchmark: `accord mock` against `pact mock` (pip
# pact-python-cli) serving the same 10-interaction Pact V4 HTTP contract,
# and nginx serving the same bodies as static files, measured with wrk on
# loopback at 1 and 16 connections: requests/s and p99 latency. Also the
# idle RSS of the accord mock, 1 s after it accepts connections. Then the
# same harness against the mock's A2A agent (a blocking SendMessage whose
# task completes with an artifact) and MCP server (a 2026-07-28 tools/call
# answered with structured content), with the mock's RSS after them.
#
# Usage: mock/bench/compare.sh
# Needs: wrk and nginx (apt-get install -y wrk nginx), a release build
# (cargo build --release -p accord), the Pact CLI (PACT=/path/to/pact, else
# the one on PATH or in $HOME/.cache/accord/venv). DURATION (default 10s)
# per wrk run. Every server runs as a background process of this script
# and is stopped by PID.
#
# Measured 2026-12-03 on the project's 2-core machine (load 2-3.5: a build
# ran beside it), release build, DURATION=5s:
#   server        conns   req/s     p99
#   accord mock     1     19,927    4.17 ms
#   pact mock       1      3,317    9.08 ms
#   nginx           1     27,315    3.41 ms
#   accord mock    16     38,520    4.78 ms
#   pact mock      16      3,678   16.41 ms
#   nginx          16     43,583    7.13 ms
#   accord mock idle RSS: 11.8 MB
# The A2A and MCP rows, measured 2026-12-03 on the same machine (load 3-4:
# the CI run beside it), release build, DURATION=5s:
#   A2A send        1      4,595    2.13 ms
#   MCP call        1      6,065    1.21 ms
#   A2A send       16     16,897    3.38 ms
#   MCP call       16     34,423    3.25 ms
#   accord mock RSS after those runs: 37.9 MB (the newest 1,000 tasks kept)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
accord=${ACCORD:-${CARGO_TARGET_DIR:-$root/target}/release/accord}
pact=${PACT:-$(command -v pact || echo "$HOME/.cache/accord/venv/bin/pact")}
duration=${DURATION:-10s}
export PACT_DO_NOT_TRACK=true

[ -x "$accord" ] || { echo "no release build at $accord (cargo build --release -p accord)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk missing (apt-get install -y wrk)" >&2; exit 2; }
command -v nginx >/dev/null || { echo "nginx missing (apt-get install -y nginx)" >&2; exit 2; }
[ -x "$pact" ] || { echo "pact missing (pip install pact-python-cli, or PACT=…)" >&2; exit 2; }

work=$(mktemp -d /tmp/accord-mock-bench.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on $1" >&2
    exit 1
}

# the contract: GET /items/{i} → {"id": i, "name": "item i"}, i = 1..10
python3 - "$work/items.json" "$work/static" <<'PY'
import json, os, sys
out, static = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(static, "items"), exist_ok=True)
interactions = []
for i in range(1, 11):
    body = {"id": i, "name": f"item {i}"}
    interactions.append({"type": "Synchronous/HTTP", "description": f"get item {i}",
        "request": {"method": "GET", "path": f"/items/{i}"},
        "response": {"status": 200, "headers": {"Content-Type": ["application/json"]},
                     "body": {"content": body, "contentType": "application/json", "encoded": False}}})
    with open(os.path.join(static, "items", str(i)), "w") as f:
        json.dump(body, f)
json.dump({"consumer": {"name": "bench"}, "provider": {"name": "items"},
           "interactions": interactions,
           "metadata": {"pactSpecification": {"version": "4.0"}}}, open(out, "w"))
PY

# nginx's workers read the bodies as an unprivileged user
chmod -R a+rX "$work"

# wrk cycles through the ten paths
cat >"$work/paths.lua" <<'LUA'
local i = 0
request = function()
  i = (i % 10) + 1
  return wrk.format("GET", "/items/" .. i)
end
LUA

run() { # name url connections
    local out
    out=$(wrk -t "$(( $3 < 2 ? 1 : 2 ))" -c "$3" -d "$duration" --latency -s "$work/paths.lua" "$2" 2>&1)
    local rps p99 non2xx
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    non2xx=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    printf '%-12s %3s conn  %10s req/s  p99 %8s%s\n' "$1" "$3" "$rps" "$p99" "${non2xx:+  (NOT 2xx: $non2xx)}"
}

# accord mock
port=$(free_port)
"$accord" mock --contract "$work/items.json" --port "$port" >"$work/accord.out" 2>/dev/null &
pids+=($!)
accord_pid=$!
wait_port "$port"
sleep 1
echo "accord mock idle RSS: $(awk '/VmRSS/ {print $2, $3}' "/proc/$accord_pid/status")"
accord_url="http://127.0.0.1:$port"

# pact mock: a master server, then a mock server created from the pact
master=$(free_port)
"$pact" mock start --port "$master" --no-term-log --no-file-log --loglevel error >"$work/pact.out" 2>&1 &
pids+=($!)
wait_port "$master"
created=$("$pact" mock create --port "$master" --file "$work/items.json" 2>&1)
pact_port=$(grep -oE '[0-9]{4,5}' <<<"$created" | tail -1)
wait_port "$pact_port"
pact_url="http://127.0.0.1:$pact_port"

# nginx: the same bodies as static files
nport=$(free_port)
cat >"$work/nginx.conf" <<CONF
daemon off;
worker_processes 2;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $work/body;
    server {
        listen 127.0.0.1:$nport;
        default_type application/json;
        root $work/static;
    }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" &
pids+=($!)
wait_port "$nport"
nginx_url="http://127.0.0.1:$nport"

for c in 1 16; do
    run "accord mock" "$accord_url" "$c"
    run "pact mock" "$pact_url" "$c"
    run "nginx" "$nginx_url" "$c"
done

# the mock's protocol surfaces: one A2A interaction and one MCP tool call
cat >"$work/agents.yaml" <<'YAML'
consumer: bench
provider: planner
protocols: { a2a: "1.0", mcp: "2026-07-28" }
interactions:
  - a2a: plan a goal
    send: { data: { goal: bench } }
    expect:
      - artifact: { name: plan, media_type: application/json, data: { steps: [search, summarise] } }
      - state: COMPLETED
  - mcp: look up a plan
    tool: plan_lookup
    arguments: { plan_id: plan-1 }
    expect: { structured: { plan_id: plan-1, status: draft } }
YAML
"$accord" contract compile "$work/agents.yaml" -o "$work/agents.json" >/dev/null
aport=$(free_port)
"$accord" mock --contract "$work/agents.json" --port "$aport" >"$work/agents.out" 2>/dev/null &
pids+=($!)
agents_pid=$!
wait_port "$aport"

cat >"$work/a2a.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["A2A-Version"] = "1.0"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"data":{"goal":"bench"}}]}}}'
LUA
cat >"$work/mcp.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "plan_lookup"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plan_lookup","arguments":{"plan_id":"plan-1"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
LUA
post() { # name url connections script
    local out
    out=$(wrk -t "$(( $3 < 2 ? 1 : 2 ))" -c "$3" -d "$duration" --latency -s "$4" "$2" 2>&1)
    printf '%-12s %3s conn  %10s req/s  p99 %8s%s\n' "$1" "$3" \
        "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1 == "99%" {print $2}' <<<"$out")" \
        "$(awk '/Non-2xx/ {print "  (NOT 2xx: " $5 ")"}' <<<"$out")"
}
for c in 1 16; do
    post "A2A send" "http://127.0.0.1:$aport/a2a" "$c" "$work/a2a.lua"
    post "MCP call" "http://127.0.0.1:$aport/mcp" "$c" "$work/mcp.lua"
done
echo "accord mock RSS after the A2A and MCP runs: $(awk '/VmRSS/ {print $2, $3}' "/proc/$agents_pid/status")"
# every answer was the contract's: the report has no unexpected request
curl -s "http://127.0.0.1:$aport/__accord/mismatches" | python3 -c 'import json,sys; m=json.load(sys.stdin)["mismatches"]; print("mismatches after the runs:", len(m)); sys.exit(1 if m else 0)'
