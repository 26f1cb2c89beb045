-- wrk script for verifier/bench/wire.sh: the requests `accord verify` sends
-- for N interactions (env N), in its order: for each i, the setup POST of
-- state "item i exists", GET /items/i, the teardown POST; then again.
-- Built in init(), once wrk has set the Host header.
local requests = {}
local k = 0

function init(args)
  local n = tonumber(os.getenv("N") or "1000")
  local json = { ["Content-Type"] = "application/json" }
  for i = 1, n do
    local state = string.format('{"state":"item %d exists","params":{"id":%d},"action":"%%s"}', i, i)
    requests[#requests + 1] = wrk.format("POST", "/_state", json, string.format(state, "setup"))
    requests[#requests + 1] = wrk.format("GET", "/items/" .. i)
    requests[#requests + 1] = wrk.format("POST", "/_state", json, string.format(state, "teardown"))
  end
end

function request()
  k = k % #requests + 1
  return requests[k]
end
