"""An orchestrator's code on the official a2a-sdk client, run against
`accord mock` (ACCORD_A2A_URL): streams a plan, reads it back, fails to
cancel it, lists tasks, then starts a slow plan (carrying its delegation
record in the message metadata) and cancels it.
With --off-contract it also sends a message the contract does not expect;
with --wrong-delegation the slow plan's record differs from the contract's.
"""

import asyncio
import os
import sys
import uuid

import httpx
from a2a.client import ClientConfig, create_client
from a2a.helpers import new_data_part, new_message, new_text_message
from a2a.types import CancelTaskRequest, GetTaskRequest, ListTasksRequest, Role, SendMessageRequest


def fail(why):
    print(f"consumer: {why}", file=sys.stderr)
    sys.exit(1)


async def main():
    url = os.environ["ACCORD_A2A_URL"]
    http = httpx.AsyncClient(headers={"Authorization": "Bearer token-a"}, timeout=20)
    streaming = await create_client(url, ClientConfig(httpx_client=http, streaming=True))
    plan = {"request_id": str(uuid.uuid4()), "items": [{"title": "rotate keys"}]}
    message = new_message([new_data_part(plan)], role=Role.ROLE_USER)
    states, task_id, artifact = [], None, None
    async for event in streaming.send_message(SendMessageRequest(message=message)):
        if event.HasField("task"):
            task_id = event.task.id
            states.append(event.task.status.state)
        elif event.HasField("status_update"):
            states.append(event.status_update.status.state)
        elif event.HasField("artifact_update"):
            artifact = event.artifact_update.artifact
    if states[-1] != 3 or artifact is None or artifact.name != "work-plan":  # 3: COMPLETED
        fail(f"the plan did not complete with its artifact: {states} {artifact}")
    plan_id = artifact.parts[0].data.struct_value.fields["plan_id"].string_value
    if not plan_id.startswith("plan-"):
        fail(f"plan id {plan_id!r}")
    task = await streaming.get_task(GetTaskRequest(id=task_id, history_length=0))
    if task.status.state != 3:
        fail(f"GetTask: {task.status.state}")
    try:
        await streaming.cancel_task(CancelTaskRequest(id=task_id))
        fail("a completed task was canceled")
    except Exception as e:  # a2a.utils.errors.TaskNotCancelableError
        if type(e).__name__ != "TaskNotCancelableError":
            fail(f"unexpected cancel error: {e!r}")
    listed = await streaming.list_tasks(ListTasksRequest())
    if task_id not in [t.id for t in listed.tasks]:
        fail("ListTasks does not list the task")

    polling = await create_client(url, ClientConfig(httpx_client=http, streaming=False, polling=True))
    slow_plan = new_text_message("a slow plan", role=Role.ROLE_USER)
    # what the agent may do downstream; a protobuf Struct sends 0 as 0.0
    delegation = {"mode": "DRAFT_ONLY", "forbiddenTools": ["ticket.create"], "maxDepth": 0,
                  "traceContext": "propagate"}
    if "--wrong-delegation" in sys.argv:
        delegation["maxDepth"] = 2
    slow_plan.metadata.update({"delegation": delegation})
    try:
        async for event in polling.send_message(SendMessageRequest(message=slow_plan)):
            slow = event.task
    except Exception as e:  # a JSON-RPC error of the SDK
        fail(f"the slow plan was refused: {e!r}")
    for _ in range(50):
        current = await polling.get_task(GetTaskRequest(id=slow.id))
        if current.status.state == 2:  # WORKING
            break
        await asyncio.sleep(0.05)
    canceled = await polling.cancel_task(CancelTaskRequest(id=slow.id))
    if canceled.status.state != 5:  # CANCELED
        fail(f"cancel: {canceled.status.state}")

    if "--off-contract" in sys.argv:
        try:
            async for _ in polling.send_message(
                SendMessageRequest(message=new_text_message("delete every plan", role=Role.ROLE_USER))
            ):
                pass
        except Exception:  # a JSON-RPC error of the SDK
            pass  # the mock refuses it; the run fails on its report
    print("consumer: ok")


asyncio.run(main())
