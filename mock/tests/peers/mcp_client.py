"""The official MCP client (`mcp` 2.x) against `accord mock`'s MCP server.

    python mcp_client.py URL --mode auto|legacy --case good|bad

`auto` discovers the server (2026-07-28), `legacy` initializes a session
(2025-11-25). `good` lists the tools and calls them as the contract in
mock/tests/mcp.rs expects; `bad` calls `make_plan` with an argument the
contract does not allow. Prints what it saw as one JSON object.
"""

import argparse
import asyncio
import json

from mcp import Client
from mcp.shared.exceptions import MCPError


def call_summary(result):
    text = next((c.text for c in result.content if getattr(c, "type", "") == "text"), None)
    return {"is_error": result.is_error, "structured": result.structured_content, "text": text}


async def run(url, mode, case):
    seen = {}
    async with Client(url, mode=mode) as client:
        seen["protocol_version"] = client.session.protocol_version
        listed = await client.list_tools()
        seen["tools"] = {t.name: {"title": t.title, "description": t.description} for t in listed.tools}
        if case == "good":
            plan = await client.call_tool("make_plan", {"goal": "a literature review", "max_steps": 3})
            seen["plan"] = call_summary(plan)
            missing = await client.call_tool("lookup_plan", {"plan_id": "plan-404"})
            seen["missing"] = call_summary(missing)
            try:
                await client.call_tool("shred", {})
                seen["shred"] = {"error_code": None}
            except MCPError as e:
                seen["shred"] = {"error_code": e.error.code, "message": e.error.message}
        else:
            plan = await client.call_tool("make_plan", {"goal": "x", "max_steps": "two"})
            seen["plan"] = call_summary(plan)
    return seen


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("--mode", choices=["auto", "legacy"], default="auto")
    p.add_argument("--case", choices=["good", "bad"], default="good")
    a = p.parse_args()
    print(json.dumps(asyncio.run(run(a.url, a.mode, a.case))))


if __name__ == "__main__":
    main()
