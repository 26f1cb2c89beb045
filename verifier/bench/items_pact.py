"""The benchmark contract of compare.sh and wire.sh: a Pact V4 file of N
HTTP interactions, interaction i in state "item i exists" (params {id: i}),
GET /items/i answered {"id": i, "name": "item i"}.

Usage: python3 items_pact.py N PATH
"""
import json
import sys

n, path = int(sys.argv[1]), sys.argv[2]
interactions = [{
    "type": "Synchronous/HTTP",
    "key": f"item-{i}",
    "description": f"get item {i}",
    "providerStates": [{"name": f"item {i} exists", "params": {"id": i}}],
    "request": {"method": "GET", "path": f"/items/{i}"},
    "response": {
        "status": 200,
        "headers": {"Content-Type": ["application/json"]},
        "body": {"contentType": "application/json", "encoded": False,
                 "content": {"id": i, "name": f"item {i}"}},
        "matchingRules": {"body": {"$.name": {"combine": "AND", "matchers": [{"match": "type"}]}}},
    },
} for i in range(1, n + 1)]
doc = {"consumer": {"name": "web"}, "provider": {"name": "items"},
       "interactions": interactions,
       "metadata": {"pactSpecification": {"version": "4.0"}}}
with open(path, "w") as f:
    json.dump(doc, f)
print(path)
