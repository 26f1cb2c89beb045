"""A work-planning A2A v1.0 agent on the official Python SDK (`a2a-sdk` 1.x),
for Accord's interop tests: JSON-RPC at `/` and HTTP+JSON at `/rest`, served
by the SDK's own request handler, task store and push sender, plus Accord's
provider-side protocol:

- POST /_accord/state  {"state", "params", "action"}: `a user named <p>`
  {tenant} issues bearer tokens for <p> (from then on every A2A call needs
  one);
- GET  /_accord/observe -> {"records", "outbound_writes"}.

The message's first data part (or its text) drives the work: `request_id`
(idempotency key per tenant), `items: [{title}]`, `work_ms`, `needs_input`,
`fail`, `reply: "message"`. `--fault NAME` injects one fault (see FAULTS).
Nothing here is Accord code: it is a peer written the way a provider team
would write it.
"""

import argparse
import asyncio
import contextlib
from datetime import datetime, timezone

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.authentication import AuthCredentials, AuthenticationBackend, AuthenticationError, SimpleUser
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from a2a.helpers import get_data_parts, get_text_parts, new_data_part, new_task_from_user_message, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import BasePushNotificationSender, InMemoryPushNotificationConfigStore, InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    HTTPAuthSecurityScheme,
    Role,
    SecurityRequirement,
    SecurityScheme,
    StringList,
    TaskState,
    TaskStatus,
    TaskStatusUpdateEvent,
)
from a2a.utils.constants import AGENT_CARD_WELL_KNOWN_PATH
from a2a.utils.errors import InternalError, TaskNotFoundError

FAULTS = {
    "prose_artifact": "the work-plan artifact is a text/plain prose part instead of JSON",
    "cancel_keeps_writing": "after a cancel the abandoned work still writes its record ~100 ms later",
    "cross_tenant": "no tenant scoping: every tenant reads, cancels and lists every task",
    "schema_violation": "the plan's plan_id is a number, not a string",
    "missing_artifact": "the task completes without the work-plan artifact",
    "fail_instead": "every task ends FAILED",
    "terminal_reopened": "after COMPLETED the task goes back to WORKING",
    "streaming_off": "not a fault: the card declares no streaming (the SDK then refuses every stream)",
    "duplicate_final": "COMPLETED is reported twice, the second with a later timestamp",
    "context_changed": "a WORKING update names another contextId than the task's",
    "get_context_changed": "GetTask answers the task with another contextId",
    "get_wrong_error": "GetTask of a task the caller may not see (or of none) is InternalError, not TaskNotFound",
    "push_other_task": "push notifications name another task id",
    "prompt_as_user": "the INPUT_REQUIRED prompt is a message with role ROLE_USER",
    "get_drops_artifacts": "GetTask answers the task without its artifacts",
}

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--fault", choices=sorted(FAULTS))
args = parser.parse_args()

BASE_URL = f"http://127.0.0.1:{args.port}"
MAX_WORK_MS = 10_000

counters = {"records": 0, "outbound_writes": 0}
# principal -> tenant; bearer token -> principal; expired token -> principal
principals: dict[str, str] = {}
tokens: dict[str, str] = {}
expired_tokens: dict[str, str] = {}
# (tenant, request_id) -> plan, the idempotency records
plans: dict[tuple[str, str], dict] = {}
# task id -> the request parked in INPUT_REQUIRED
awaiting_input: dict[str, dict] = {}


# ---- who is calling -------------------------------------------------------


class BearerTokens(AuthenticationBackend):
    """Open until a user is registered; then every A2A call needs a token."""

    async def authenticate(self, conn: HTTPConnection):
        path = conn.url.path
        if not principals or path == AGENT_CARD_WELL_KNOWN_PATH or path.startswith("/_accord/"):
            return None
        scheme, _, token = conn.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise AuthenticationError("a bearer token is required")
        if token in expired_tokens:
            raise AuthenticationError("the bearer token has expired")
        principal = tokens.get(token)
        if principal is None:
            raise AuthenticationError("unknown bearer token")
        return AuthCredentials(["authenticated"]), SimpleUser(principal)


def unauthorized(conn: HTTPConnection, exc: AuthenticationError) -> JSONResponse:
    return JSONResponse(
        {"error": "unauthorized", "message": str(exc)},
        status_code=401,
        headers={"WWW-Authenticate": 'Bearer realm="planning-agent"'},
    )


def tenant_of(context: ServerCallContext) -> str:
    """The caller's tenant: the store and the push configs are scoped by it."""
    return principals.get(context.user.user_name, "")


def one_scope(context: ServerCallContext) -> str:
    return ""


# ---- the agent ------------------------------------------------------------


def read_request(context: RequestContext) -> dict:
    """The first data part if it is an object, else the text as one step."""
    parts = context.message.parts if context.message else []
    for data in get_data_parts(parts):
        if isinstance(data, dict):
            return data
    text = " ".join(get_text_parts(parts)).strip()
    return {"items": [{"title": text}]} if text else {}


def work_ms(request: dict) -> int:
    try:
        return max(0, min(MAX_WORK_MS, int(request.get("work_ms") or 0)))
    except (TypeError, ValueError):
        return 0


def write_record(tenant: str, request: dict) -> dict:
    """Stores the plan; the same request_id in a tenant gives the same plan."""
    request_id = request.get("request_id")
    key = (tenant, str(request_id)) if request_id is not None else None
    if key is not None and key in plans:
        return plans[key]
    counters["records"] += 1
    n = counters["records"]
    steps = [{"title": str(item.get("title", ""))} for item in request.get("items") or [] if isinstance(item, dict)]
    plan = {"plan_id": n if args.fault == "schema_violation" else f"plan-{n}", "status": "draft", "steps": steps}
    if key is not None:
        plans[key] = plan
    return plan


def raw_status(task_id: str, context_id: str, state: TaskState) -> TaskStatusUpdateEvent:
    """A status update as the SDK would send it, stamped now, past TaskUpdater's checks."""
    status = TaskStatus(state=state)
    status.timestamp.FromDatetime(datetime.now(timezone.utc))
    return TaskStatusUpdateEvent(task_id=task_id, context_id=context_id, status=status)


class WorkPlanningExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        tenant = tenant_of(context.call_context)
        resumed = awaiting_input.pop(context.task_id, None)
        request = resumed if resumed is not None else read_request(context)

        if request.get("reply") == "message" and context.current_task is None:
            await event_queue.enqueue_event(new_text_message("hello from planning-agent", context_id=context.context_id))
            return

        if context.current_task is None:
            await event_queue.enqueue_event(new_task_from_user_message(context.message))
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.start_work()
        if args.fault == "context_changed":
            await event_queue.enqueue_event(raw_status(context.task_id, "ctx-of-somebody-else", TaskState.TASK_STATE_WORKING))

        if request.get("fail") or args.fault == "fail_instead":
            await updater.failed(updater.new_agent_message([new_text_part("cannot plan that")]))
            return
        if request.get("needs_input") and resumed is None:
            awaiting_input[context.task_id] = request
            prompt = updater.new_agent_message([new_text_part("Which deadline?")])
            if args.fault == "prompt_as_user":
                prompt.role = Role.ROLE_USER
            await updater.requires_input(prompt)
            return

        try:
            await asyncio.sleep(work_ms(request) / 1000)
        except asyncio.CancelledError:
            if args.fault == "cancel_keeps_writing":
                asyncio.get_running_loop().call_later(0.1, write_record, tenant, request)
            raise
        plan = write_record(tenant, request)

        if args.fault == "prose_artifact":
            titles = ", ".join(step["title"] for step in plan["steps"])
            part = new_text_part(f"Draft plan {plan['plan_id']}: {titles}.", media_type="text/plain")
        else:
            part = new_data_part(plan, media_type="application/json")
        if args.fault != "missing_artifact":
            await updater.add_artifact([part], name="work-plan", last_chunk=True)
        await updater.complete()

        if args.fault == "terminal_reopened":
            # TaskUpdater refuses to leave a terminal state; the raw event is not refused.
            await event_queue.enqueue_event(raw_status(context.task_id, context.context_id, TaskState.TASK_STATE_WORKING))
        if args.fault == "duplicate_final":
            await asyncio.sleep(0.01)
            await event_queue.enqueue_event(raw_status(context.task_id, context.context_id, TaskState.TASK_STATE_COMPLETED))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        awaiting_input.pop(context.task_id, None)
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


# ---- the card and the server ------------------------------------------------

card = AgentCard(
    name="planning-agent",
    description="Turns a list of work items into a draft work plan (JSON).",
    version="1.0.0",
    supported_interfaces=[
        AgentInterface(url=f"{BASE_URL}/", protocol_binding="JSONRPC", protocol_version="1.0"),
        AgentInterface(url=f"{BASE_URL}/rest", protocol_binding="HTTP+JSON", protocol_version="1.0"),
    ],
    capabilities=AgentCapabilities(streaming=args.fault != "streaming_off", push_notifications=True),
    security_schemes={
        "bearer": SecurityScheme(http_auth_security_scheme=HTTPAuthSecurityScheme(scheme="Bearer")),
    },
    security_requirements=[SecurityRequirement(schemes={"bearer": StringList()})],
    default_input_modes=["application/json", "text/plain"],
    default_output_modes=["application/json"],
    skills=[
        AgentSkill(
            id="work-planning",
            name="Work planning",
            description="Draft a step-by-step work plan from a list of work items.",
            tags=["planning"],
            examples=['{"request_id": "r-1", "items": [{"title": "rotate keys"}]}'],
            input_modes=["application/json", "text/plain"],
            output_modes=["application/json"],
        )
    ],
)

scope = one_scope if args.fault == "cross_tenant" else tenant_of
push_configs = InMemoryPushNotificationConfigStore(owner_resolver=scope)
push_client = httpx.AsyncClient(timeout=5.0)


class OtherTaskPushSender(BasePushNotificationSender):
    """Posts each notification under another task's id."""

    async def _dispatch_notification(self, event, push_info, task_id):
        other = type(event)()
        other.CopyFrom(event)
        if hasattr(other, "task_id"):
            other.task_id = "task-of-somebody-else"
        else:
            other.id = "task-of-somebody-else"
        return await super()._dispatch_notification(other, push_info, task_id)


class FaultyHandler(DefaultRequestHandler):
    async def on_get_task(self, params, context):
        try:
            task = await super().on_get_task(params, context)
        except TaskNotFoundError:
            if args.fault == "get_wrong_error":
                raise InternalError("task lookup failed")
            raise
        if args.fault == "get_context_changed" and task is not None:
            task.context_id = "ctx-of-somebody-else"
        if args.fault == "get_drops_artifacts" and task is not None:
            del task.artifacts[:]
        return task


handler = FaultyHandler(
    WorkPlanningExecutor(),
    InMemoryTaskStore(owner_resolver=scope),
    card,
    push_config_store=push_configs,
    push_sender=(OtherTaskPushSender if args.fault == "push_other_task" else BasePushNotificationSender)(push_client, push_configs),
)


async def change_state(request: Request) -> JSONResponse:
    body = await request.json()
    state = body.get("state") or ""
    params = body.get("params") or {}
    if state.startswith("a user named ") and body.get("action", "setup") == "setup":
        principal = state.removeprefix("a user named ").strip()
        principals[principal] = str(params.get("tenant") or principal)
        token, expired = f"a2a-token-of-{principal}", f"a2a-expired-token-of-{principal}"
        tokens[token] = principal
        expired_tokens[expired] = principal
        return JSONResponse({"token": token, "tokens": {principal: token}, "expiredToken": expired})
    return JSONResponse({})


async def observe(request: Request) -> JSONResponse:
    return JSONResponse(counters)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette):
    yield
    await handler.aclose()
    await push_client.aclose()


# The provider routes go before the REST ones: those also mount `/{tenant}/...`.
app = Starlette(
    routes=[
        *create_agent_card_routes(card),
        Route("/_accord/state", change_state, methods=["POST"]),
        Route("/_accord/observe", observe, methods=["GET"]),
        *create_jsonrpc_routes(handler, "/"),
        *create_rest_routes(handler, path_prefix="/rest"),
    ],
    middleware=[Middleware(AuthenticationMiddleware, backend=BearerTokens(), on_error=unauthorized)],
    lifespan=lifespan,
)

uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")
