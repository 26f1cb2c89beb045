"""The consumer's code under test: an orchestrator that asks a planning
agent (the official a2a-sdk client) for plans and looks plans up on a tool
server (the official mcp client). Nothing here is Accord code."""

from __future__ import annotations

import asyncio

import httpx
from a2a.client import ClientConfig, create_client
from a2a.helpers import new_data_part, new_message
from a2a.types import Role, SendMessageRequest
from google.protobuf.json_format import MessageToDict

from mcp import Client


async def _ask(agent_url: str, data: dict, token: str | None = None) -> dict | None:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(timeout=20, headers=headers) as http:
        client = await create_client(agent_url, ClientConfig(httpx_client=http, streaming=True))
        plan = None
        message = new_message([new_data_part(data)], role=Role.ROLE_USER)
        async for event in client.send_message(SendMessageRequest(message=message)):
            if event.HasField("artifact_update"):
                plan = MessageToDict(event.artifact_update.artifact.parts[0].data)
        return plan


def draft_plan(agent_url: str, titles: list[str], token: str | None = None) -> dict | None:
    """Asks the agent to draft a plan for these work items (with a bearer token, if given)."""
    return asyncio.run(_ask(agent_url, {"items": [{"title": t} for t in titles]}, token))


def show_plan(agent_url: str, plan_id: str) -> dict | None:
    return asyncio.run(_ask(agent_url, {"show": plan_id}))


def draft_plan_or_none(agent_url: str, titles: list[str], token: str | None = None) -> dict | None:
    """draft_plan, but an orchestrator that logs a refusal and carries on."""
    try:
        return draft_plan(agent_url, titles, token)
    except Exception as e:  # the agent refused the message
        print(f"orchestrator: the agent refused: {e}")
        return None


async def _lookup(mcp_url: str, plan_id: str):
    async with Client(mcp_url) as client:
        return await client.call_tool("plan_lookup", {"plan_id": plan_id})


def lookup_plan(mcp_url: str, plan_id: str) -> dict | None:
    """The plan's structured content, or None when the tool says it is an error."""
    result = asyncio.run(_lookup(mcp_url, plan_id))
    return None if result.is_error else result.structured_content
