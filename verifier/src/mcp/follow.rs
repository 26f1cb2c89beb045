//! Following a 2026-07-28 `tools/call` answered with a task (`task.rs`):
//! `tasks/get` as the same credential with the same headers, at the
//! server's `pollIntervalMs`, until the task is terminal or the bound is
//! spent. The reply then carries the task's result or error as if the call
//! had answered it: judged in one place (`judge.rs`), watched by the same
//! canaries, compared by the same probes. A task given up on (still
//! working, or waiting for input) is cancelled with `tasks/cancel`.

use std::time::Instant;

use serde_json::{Map, Value, json};

use super::driver::McpDriver;
use super::task::{Bound, End, Followed, Malformed, Reading, Status, read_created, read_polled};
use super::wire::{Endpoint, Era, Reply, RpcError};
use crate::transport::CutOff;

/// What one `tasks/get` told.
enum Step {
    /// Not terminal: poll again, at this interval if the server says one.
    Again(Status, Option<u64>),
    /// Following ends (with the task's result or error, when it ended).
    Done(End, Option<Result<Value, RpcError>>),
}

impl McpDriver {
    /// Follows the task `created` answers (a `CreateTaskResult`), the call
    /// sent at `started`. `Err` only when a `tasks/get` is cut off.
    pub(super) async fn follow(
        &self,
        endpoint: &Endpoint<'_>,
        created: Reply,
        started: Instant,
        bound: Bound,
    ) -> Result<Reply, CutOff> {
        let mut followed = Followed {
            id: String::new(),
            polls: 0,
            took: created.total,
            bound,
            end: End::Unfinished(Status::Working),
        };
        let reading = match &created.outcome {
            Ok(Ok(result)) => read_created(result),
            _ => return Ok(created),
        };
        let reading = match reading {
            Ok(r) => r,
            Err(m) => {
                followed.end = End::Malformed(m);
                return Ok(with_task(created, followed));
            }
        };
        followed.id = reading.id.clone();
        let mut last = created.clone();
        let outcome = self
            .poll_to_end(endpoint, &reading, started, &mut followed, &mut last)
            .await?;
        followed.took = started.elapsed();
        if matches!(followed.end, End::Unfinished(_) | End::InputRequired) {
            self.cancel(endpoint, &followed.id).await;
        }
        let reply = Reply {
            outcome: outcome.map_or(created.outcome, Ok),
            ack: created.total,
            total: followed.took,
            ..last
        };
        Ok(with_task(reply, followed))
    }

    /// Polls until the task ends or the bound is spent, keeping the last
    /// answer (its body: every answer's); the task's result or error when
    /// it ended with one.
    async fn poll_to_end(
        &self,
        endpoint: &Endpoint<'_>,
        created: &Reading,
        started: Instant,
        followed: &mut Followed,
        last: &mut Reply,
    ) -> Result<Option<Result<Value, RpcError>>, CutOff> {
        let (mut status, mut asked) = (created.status, created.poll_interval_ms);
        let mut body = std::mem::take(&mut last.body);
        let outcome = loop {
            let elapsed = started.elapsed();
            let Some(wait) = followed.bound.next_wait(asked, elapsed, followed.polls) else {
                followed.end = End::Unfinished(status);
                break None;
            };
            tokio::time::sleep(wait).await;
            *last = self.poll(endpoint, &followed.id).await?;
            followed.polls += 1;
            body.push(b'\n');
            body.extend_from_slice(&last.body);
            match step(last, &followed.id) {
                Step::Again(s, interval) => (status, asked) = (s, interval.or(asked)),
                Step::Done(end, outcome) => {
                    followed.end = end;
                    break outcome;
                }
            }
        };
        last.body = body;
        Ok(outcome)
    }

    /// One `tasks/get` (its `Mcp-Name` is the task id).
    async fn poll(&self, endpoint: &Endpoint<'_>, id: &str) -> Result<Reply, CutOff> {
        let mut params = Map::new();
        params.insert("taskId".into(), json!(id));
        endpoint
            .call(Era::Modern, None, Some(self.id()), "tasks/get", params)
            .await
    }

    /// `tasks/cancel` for a task given up on; its answer changes nothing
    /// (cancellation is cooperative).
    async fn cancel(&self, endpoint: &Endpoint<'_>, id: &str) {
        let mut params = Map::new();
        params.insert("taskId".into(), json!(id));
        let _ = endpoint
            .call(Era::Modern, None, Some(self.id()), "tasks/cancel", params)
            .await;
    }
}

/// What a `tasks/get` answer means for following task `id`.
fn step(reply: &Reply, id: &str) -> Step {
    let result = match &reply.outcome {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => return Step::Done(End::Lost(e.clone()), None),
        Err(why) => {
            let m = Malformed {
                path: "task".into(),
                why: format!("tasks/get: HTTP {}: {why}", reply.status),
            };
            return Step::Done(End::Malformed(m), None);
        }
    };
    match read_polled(result, id) {
        Err(m) => Step::Done(End::Malformed(m), None),
        Ok(r) => match r.status {
            Status::Working => Step::Again(r.status, r.poll_interval_ms),
            Status::InputRequired => Step::Done(End::InputRequired, None),
            Status::Cancelled => Step::Done(End::Cancelled, None),
            Status::Completed | Status::Failed => Step::Done(End::Ended(r.status), r.end),
        },
    }
}

fn with_task(mut reply: Reply, followed: Followed) -> Reply {
    reply.task = Some(followed);
    reply
}

#[cfg(test)]
mod tests {

    use super::*;

    fn answered(outcome: Result<Result<Value, RpcError>, String>) -> Reply {
        Reply::answered(200, outcome)
    }

    fn task(status: &str) -> Value {
        json!({"resultType": "complete", "taskId": "t-1", "status": status,
            "createdAt": "2026-08-01T10:00:00Z", "lastUpdatedAt": "2026-08-01T10:00:01Z",
            "ttlMs": 60000, "pollIntervalMs": 25})
    }

    #[test]
    fn a_working_task_is_polled_again_at_the_interval_it_asks_for() {
        let s = step(&answered(Ok(Ok(task("working")))), "t-1");
        assert!(matches!(s, Step::Again(Status::Working, Some(25))));
    }

    #[test]
    fn a_completed_task_ends_with_its_result_and_a_failed_one_with_its_error() {
        let mut done = task("completed");
        done["result"] = json!({"content": [], "isError": false});
        let s = step(&answered(Ok(Ok(done))), "t-1");
        assert!(
            matches!(s, Step::Done(End::Ended(Status::Completed), Some(Ok(ref r))) if r["isError"] == false)
        );
        let mut failed = task("failed");
        failed["error"] = json!({"code": -32603, "message": "rate limited"});
        let s = step(&answered(Ok(Ok(failed))), "t-1");
        assert!(
            matches!(s, Step::Done(End::Ended(Status::Failed), Some(Err(ref e))) if e.code == -32603)
        );
    }

    #[test]
    fn a_refused_or_unreadable_poll_ends_following() {
        let lost = RpcError {
            code: -32602,
            message: "Task not found".into(),
            data: None,
        };
        let s = step(&answered(Ok(Err(lost))), "t-1");
        assert!(matches!(s, Step::Done(End::Lost(ref e), None) if e.code == -32602));
        let s = step(&answered(Err("the answer is not JSON".into())), "t-1");
        assert!(matches!(s, Step::Done(End::Malformed(ref m), None) if m.path == "task"));
        let s = step(&answered(Ok(Ok(task("input_required")))), "t-1");
        assert!(
            matches!(s, Step::Done(End::Malformed(ref m), None) if m.path == "task.inputRequests")
        );
    }
}
