"""Providers on the official Python SDKs, served in this process so that the
tests' provider-state functions change their data directly: a planning agent
on a2a-sdk and a plan tool server on mcp. Nothing here is Accord code.
`fault` injects one fault (see each function)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import uvicorn
from a2a.helpers import get_data_parts, new_data_part, new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from pydantic import BaseModel
from starlette.applications import Starlette

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError


@dataclass
class Store:
    """A provider's data: plans by id, and how many records it wrote."""

    plans: dict[str, dict] = field(default_factory=dict)
    records: int = 0


@contextlib.contextmanager
def serving(make_app: Callable[[str], object]) -> Iterator[str]:
    """Serves the ASGI app `make_app(base_url)` on a free loopback port; its
    base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(make_app(base_url), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the provider did not start")
        time.sleep(0.02)
    try:
        yield base_url
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def planning_agent(store: Store, base_url: str, fault: str | None = None) -> Starlette:
    """An A2A agent: a message `{items}` drafts a plan (one record), `{show:
    id}` sends a stored plan back as the `work-plan` artifact. Fault
    `ready_plans`: every plan says `status: ready`."""

    class Planner(AgentExecutor):
        async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
            data = next(iter(get_data_parts(context.message.parts)), {})
            await event_queue.enqueue_event(new_task_from_user_message(context.message))
            updater = TaskUpdater(event_queue, context.task_id, context.context_id)
            await updater.start_work()
            if "show" in data:
                plan = store.plans[str(data["show"])]
            else:
                store.records += 1
                plan = {"plan_id": f"plan-{store.records}", "status": "draft"}
                store.plans[plan["plan_id"]] = plan
            if fault == "ready_plans":
                plan = {**plan, "status": "ready"}
            await updater.add_artifact([new_data_part(plan, media_type="application/json")], name="work-plan", last_chunk=True)
            await updater.complete()

        async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
            await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()

    card = AgentCard(
        name="planning-agent",
        description="Drafts work plans.",
        version="1.0.0",
        supported_interfaces=[AgentInterface(url=f"{base_url}/", protocol_binding="JSONRPC", protocol_version="1.0")],
        capabilities=AgentCapabilities(streaming=True),
        default_input_modes=["application/json"],
        default_output_modes=["application/json"],
        skills=[AgentSkill(id="work-planning", name="Work planning", description="Drafts a work plan.", tags=["planning"])],
    )
    handler = DefaultRequestHandler(Planner(), InMemoryTaskStore(), card)
    return Starlette(routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, "/")])


class Plan(BaseModel):
    plan_id: str
    status: str


def plan_tools(store: Store, fault: str | None = None):
    """An MCP server with `plan_lookup`. Fault `lookup_writes`: a lookup
    writes a record."""
    server = MCPServer("plan-tools")

    @server.tool()
    def plan_lookup(plan_id: str) -> Plan:
        """Read a plan by id."""
        if fault == "lookup_writes":
            store.records += 1
        plan = store.plans.get(plan_id)
        if plan is None:
            raise ToolError(f"{plan_id} not found")
        return Plan(**plan)

    return server.streamable_http_app(streamable_http_path="/mcp")
