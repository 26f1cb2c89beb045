"""A work-planning MCP server on the official Python SDK (`mcp` 2.x), for
Accord's interop tests: both protocol eras on one Streamable HTTP endpoint
(`/mcp`), as the SDK serves them, plus Accord's provider-side protocol:

- POST /_accord/state  {"state", "params", "action"}: `a plan exists`
  {tenant, plan_id} (teardown removes it);
- GET  /_accord/observe -> {"records", "outbound_writes", "commits"}.

`--fault NAME` injects one fault (see FAULTS). Nothing here is Accord code:
it is a peer written the way a provider team would write it.
"""

import argparse
from typing import Annotated, Literal

from pydantic import BaseModel, Field, WithJsonSchema
from starlette.requests import Request
from starlette.responses import JSONResponse

from mcp.server import MCPServer
from mcp.types import ToolAnnotations

FAULTS = {
    "read_only_writes": "work_plan_lookup (readOnlyHint) writes a record",
    "tool_missing": "work_plan_lookup is not registered",
    "required_input_added": "work_plan_lookup requires a `region` argument",
    "draft_records_nothing": "work_plan_draft creates no record",
    "commit_twice": "work_plan_commit (idempotentHint) commits again on every call",
    "title_unbounded": "work_plan_draft declares maxLength 200 for `title` but takes any length",
}

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--fault", choices=sorted(FAULTS))
args = parser.parse_args()

plans: dict[tuple[str, str], dict] = {}
counters = {"records": 0, "outbound_writes": 0, "commits": 0}
next_plan = [100]


class Step(BaseModel):
    title: str


class Plan(BaseModel):
    plan_id: str
    status: Literal["draft", "ready"]
    steps: list[Step]


class Draft(BaseModel):
    plan_id: str
    status: Literal["draft"]


class Commit(BaseModel):
    plan_id: str
    status: Literal["committed"]
    commit_id: str


if args.fault == "title_unbounded":
    Title = Annotated[str, WithJsonSchema({"type": "string", "maxLength": 200})]
else:
    Title = Annotated[str, Field(max_length=200)]


mcp = MCPServer("planning-tools", instructions="Work plans per tenant.")


def lookup(tenant_id: str, plan_id: str) -> Plan:
    if args.fault == "read_only_writes":
        counters["records"] += 1
    plan = plans.get((tenant_id, plan_id))
    if plan is None:
        raise ValueError("plan not found")
    return Plan(**plan)


if args.fault == "required_input_added":

    @mcp.tool(title="Look up a work plan", annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
    def work_plan_lookup(tenant_id: str, plan_id: str, region: str) -> Plan:
        """Read a tenant's work plan by id."""
        return lookup(tenant_id, plan_id)

elif args.fault != "tool_missing":

    @mcp.tool(title="Look up a work plan", annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
    def work_plan_lookup(tenant_id: str, plan_id: str) -> Plan:
        """Read a tenant's work plan by id."""
        return lookup(tenant_id, plan_id)


@mcp.tool(title="Draft a work plan", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def work_plan_draft(tenant_id: str, title: Title) -> Draft:
    """Create a draft plan for a tenant."""
    next_plan[0] += 1
    plan_id = f"plan-{next_plan[0]}"
    plans[(tenant_id, plan_id)] = {"plan_id": plan_id, "status": "draft", "steps": [{"title": title}]}
    if args.fault != "draft_records_nothing":
        counters["records"] += 1
    return Draft(plan_id=plan_id, status="draft")


@mcp.tool(
    title="Commit a work plan",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False),
)
def work_plan_commit(tenant_id: str, plan_id: str) -> Commit:
    """Commit a plan; committing it again changes nothing."""
    plan = plans.get((tenant_id, plan_id))
    if plan is None:
        raise ValueError("plan not found")
    if plan["status"] != "committed" or args.fault == "commit_twice":
        plan["status"] = "committed"
        counters["commits"] += 1
    commit_id = f"commit-{counters['commits']}" if args.fault == "commit_twice" else f"commit-of-{plan_id}"
    return Commit(plan_id=plan_id, status="committed", commit_id=commit_id)


@mcp.custom_route("/_accord/state", methods=["POST"])
async def change_state(request: Request) -> JSONResponse:
    body = await request.json()
    params = body.get("params") or {}
    if body.get("state") == "a plan exists":
        key = (params.get("tenant", "tenant-a"), params.get("plan_id", "plan-1"))
        if body.get("action") == "teardown":
            plans.pop(key, None)
            return JSONResponse({})
        plans[key] = {"plan_id": key[1], "status": params.get("status", "draft"), "steps": [{"title": "rotate keys"}]}
        return JSONResponse({"plan_id": key[1]})
    return JSONResponse({})


@mcp.custom_route("/_accord/observe", methods=["GET"])
async def observe(request: Request) -> JSONResponse:
    return JSONResponse(counters)


mcp.run("streamable-http", host="127.0.0.1", port=args.port, streamable_http_path="/mcp")
