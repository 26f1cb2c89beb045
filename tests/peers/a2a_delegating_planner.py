"""A work-planning A2A v1.0 agent on the official Python SDK (`a2a-sdk` 1.x)
that plans with tools on an MCP server through the official `mcp` client:
the second seed's chain (orchestrator -> agent -> tool server), for Accord's
delegation tests.

The agent drafts a plan for the goal in the message's first data part
(`{"goal": ...}`): it calls `meeting.search` and `policy.check` on its tool
server, with its own service credential and the caller's W3C trace
continued, and answers with a `work-plan` artifact. The consumer's
delegation record arrives in the message's `metadata.delegation`.

Where the tool server is: the provider-state change request's
`dependencies.tools.mcpUrl` (Accord's verifier sends it when it serves
stand-ins), else `ACCORD_DEPENDENCY_MCP_URL_TOOLS`.

- POST /_accord/state  {"state", "params", "action", "dependencies"?}:
  `a user named <p>` issues a bearer token for <p> (the agent does not
  check it: it is the caller's credential, which must not travel on);
- GET  /_accord/observe -> {"records"}.

`--fault NAME` injects faults (see FAULTS); `synthetic` is the seed's
failure: the new build "may register tasks if needed". Nothing here is
Accord code: it is a peer written the way a provider team would write it.
"""

import argparse
import os
import secrets

import httpx2
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from a2a.helpers import get_data_parts, get_text_parts, new_data_part, new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

FAULTS = {
    "register_tasks": "also calls ticket.create (registers the plan's tasks), whatever the delegation says",
    "forward_token": "presents the caller's bearer token to the tool server instead of its own",
    "drop_trace": "starts a new trace for its tool calls instead of continuing the caller's",
    "synthetic": "all three: registers tasks, forwards the caller's token, drops the trace",
}

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--fault", choices=sorted(FAULTS))
parser.add_argument(
    "--wiring",
    choices=["any", "env"],
    default="any",
    help="env: ignore the state change's dependencies (only the environment tells the tool server)",
)
args = parser.parse_args()


def faulty(name: str) -> bool:
    return args.fault in (name, "synthetic")


BASE_URL = f"http://127.0.0.1:{args.port}"
SERVICE_TOKEN = "planner-service-token-7f3a"
counters = {"records": 0}
tool_server = {"url": os.environ.get("ACCORD_DEPENDENCY_MCP_URL_TOOLS", "")}


def read_goal(context: RequestContext) -> str:
    parts = context.message.parts if context.message else []
    for data in get_data_parts(parts):
        if isinstance(data, dict) and data.get("goal"):
            return str(data["goal"])
    return " ".join(get_text_parts(parts)).strip() or "unnamed goal"


def downstream_traceparent(incoming: str | None) -> str:
    """Continues the caller's trace with a span of our own (or a new trace)."""
    span = secrets.token_hex(8)
    fields = (incoming or "").split("-")
    if not faulty("drop_trace") and len(fields) == 4 and len(fields[1]) == 32:
        return f"00-{fields[1]}-{span}-01"
    return f"00-{secrets.token_hex(16)}-{span}-01"


async def call_tools(headers: dict, goal: str) -> dict:
    """Plans with the tool server: what it found and what policy allows."""
    caller = headers.get("authorization", "")
    outgoing = {
        "authorization": caller if faulty("forward_token") and caller else f"Bearer {SERVICE_TOKEN}",
        "traceparent": downstream_traceparent(headers.get("traceparent")),
    }
    async with httpx2.AsyncClient(headers=outgoing, timeout=10.0) as client:
        async with streamable_http_client(tool_server["url"], http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                meetings = await session.call_tool("meeting.search", {"query": goal})
                policy = await session.call_tool("policy.check", {"action": "draft_plan"})
                if faulty("register_tasks"):
                    await session.call_tool("ticket.create", {"title": goal})
    return {"meetings": meetings.structured_content, "policy": policy.structured_content}


class DelegatingPlanner(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        headers = context.call_context.state.get("headers", {}) if context.call_context else {}
        if context.current_task is None:
            await event_queue.enqueue_event(new_task_from_user_message(context.message))
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.start_work()
        goal = read_goal(context)
        try:
            found = await call_tools(headers, goal)
        except Exception as error:  # the tool server is a dependency: its failure fails the task
            await updater.failed(updater.new_agent_message([new_text_part(f"tool server: {error}")]))
            return
        counters["records"] += 1
        plan = {"plan_id": f"plan-{counters['records']}", "status": "draft", "goal": goal, "inputs": found}
        await updater.add_artifact([new_data_part(plan, media_type="application/json")], name="work-plan")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


card = AgentCard(
    name="planning-agent",
    description="Drafts a work plan for a goal, using meeting and policy tools.",
    version="2.0.0",
    supported_interfaces=[
        AgentInterface(url=f"{BASE_URL}/", protocol_binding="JSONRPC", protocol_version="1.0"),
        AgentInterface(url=f"{BASE_URL}/rest", protocol_binding="HTTP+JSON", protocol_version="1.0"),
    ],
    capabilities=AgentCapabilities(streaming=True),
    default_input_modes=["application/json", "text/plain"],
    default_output_modes=["application/json"],
    skills=[
        AgentSkill(
            id="work-planning",
            name="Work planning",
            description="Draft a work plan for a goal; may register tasks if needed."
            if faulty("register_tasks")
            else "Draft a work plan for a goal.",
            tags=["planning"],
        )
    ],
)

handler = DefaultRequestHandler(DelegatingPlanner(), InMemoryTaskStore(), card)


async def change_state(request: Request) -> JSONResponse:
    body = await request.json()
    dependency = (body.get("dependencies") or {}).get("tools") or {}
    if dependency.get("mcpUrl") and args.wiring != "env":
        tool_server["url"] = dependency["mcpUrl"]
    state = body.get("state") or ""
    if state.startswith("a user named ") and body.get("action", "setup") == "setup":
        principal = state.removeprefix("a user named ").strip()
        token = f"orchestrator-token-of-{principal}"
        return JSONResponse({"token": token, "tokens": {principal: token}})
    return JSONResponse({})


async def observe(request: Request) -> JSONResponse:
    return JSONResponse(counters)


app = Starlette(
    routes=[
        *create_agent_card_routes(card),
        Route("/_accord/state", change_state, methods=["POST"]),
        Route("/_accord/observe", observe, methods=["GET"]),
        *create_jsonrpc_routes(handler, "/"),
        *create_rest_routes(handler, path_prefix="/rest"),
    ],
)

uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")
