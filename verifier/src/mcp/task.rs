//! The tasks extension of MCP 2026-07-28 (`io.modelcontextprotocol/tasks`,
//! `specification/draft/tasks.md` of modelcontextprotocol/ext-tasks): what
//! a task answer is, how long one is followed, and the finding of a task
//! that did not end with something to judge. Pure; `follow.rs` polls.
//!
//! A server may answer a request with a task (`CreateTaskResult`,
//! `resultType: "task"`) only when that request declares the extension in
//! its client capabilities, and must refuse `tasks/get` from a client that
//! does not (-32021). The verifier declares it on `tools/call` and
//! `tasks/*`, so that it can follow a task: `tasks/get` until the task is
//! terminal. `completed` carries the call's result, `failed` its JSON-RPC
//! error; either is judged as a direct answer is.

use std::time::Duration;

use serde_json::{Value, json};

use super::wire::RpcError;
use crate::finding::{Finding, Layer, codes};

/// The extension's identifier.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// Most `tasks/get` polls for one task.
pub const MAX_POLLS: u32 = 100;
/// The wait between polls when the server suggests none.
const DEFAULT_POLL: Duration = Duration::from_millis(100);
/// The shortest wait between polls, whatever the server suggests.
const MIN_POLL: Duration = Duration::from_millis(10);
/// Without `completionWithinMs`, a task is followed this many request
/// timeouts.
const TIMEOUTS: u32 = 10;
/// The wait between polls is at least the time spent so far divided by
/// this: a long task is polled less often, so [`MAX_POLLS`] cover ten
/// request timeouts of 30 s even where the server asks for 10 ms.
const BACKOFF: u32 = 10;

/// The `clientCapabilities` a 2026-07-28 request of `method` declares.
pub fn client_capabilities(method: &str) -> Value {
    if method == "tools/call" || method.starts_with("tasks/") {
        json!({"extensions": {EXTENSION: {}}})
    } else {
        json!({})
    }
}

/// A result that is a task handle rather than the call's result.
pub fn is_task(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("task")
}

/// A task's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "working" => Status::Working,
            "input_required" => Status::InputRequired,
            "completed" => Status::Completed,
            "failed" => Status::Failed,
            "cancelled" => Status::Cancelled,
            _ => return None,
        })
    }

    /// As on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }
}

/// A task answer that is not one: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    pub path: String,
    pub why: String,
}

/// One reading of a task: a `CreateTaskResult` or a `tasks/get` result.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub id: String,
    pub status: Status,
    pub poll_interval_ms: Option<u64>,
    /// `completed`: the call's result; `failed`: its JSON-RPC error.
    pub end: Option<Result<Value, RpcError>>,
}

/// Reads a `CreateTaskResult` (a `Task` under `resultType: "task"`).
pub fn read_created(result: &Value) -> Result<Reading, Malformed> {
    read_task(result, "the CreateTaskResult")
}

/// Reads a `tasks/get` result for task `id` (a `Task` with, by status,
/// the final `result`, the `error` or the `inputRequests`).
pub fn read_polled(result: &Value, id: &str) -> Result<Reading, Malformed> {
    let what = "tasks/get";
    let mut reading = read_task(result, what)?;
    if reading.id != id {
        return Err(bad(
            "taskId",
            what,
            &format!("another task, `{}`", reading.id),
        ));
    }
    let field = |name: &str| result.get(name).filter(|v| v.is_object());
    match reading.status {
        Status::Completed => {
            let r = field("result").ok_or_else(|| bad("result", what, "no result object"))?;
            reading.end = Some(Ok(r.clone()));
        }
        Status::Failed => {
            let e = field("error").ok_or_else(|| bad("error", what, "no error object"))?;
            let code = e["code"].as_i64();
            let message = e["message"].as_str();
            let (Some(code), Some(message)) = (code, message) else {
                return Err(bad("error", what, "an error without code and message"));
            };
            reading.end = Some(Err(RpcError {
                code,
                message: message.to_owned(),
                data: e.get("data").cloned(),
            }));
        }
        Status::InputRequired if field("inputRequests").is_none() => {
            return Err(bad("inputRequests", what, "no inputRequests object"));
        }
        _ => {}
    }
    Ok(reading)
}

fn bad(field: &str, what: &str, why: &str) -> Malformed {
    Malformed {
        path: format!("task.{field}"),
        why: format!("{what} answered a task with {why} at `{field}`"),
    }
}

/// The fields every `Task` has (`ttlMs` is required, `null` for unlimited).
fn read_task(result: &Value, what: &str) -> Result<Reading, Malformed> {
    let text = |name: &str| result.get(name).and_then(Value::as_str);
    let id = text("taskId")
        .filter(|id| !id.is_empty())
        .ok_or_else(|| bad("taskId", what, "no task id"))?;
    let status = text("status")
        .and_then(Status::parse)
        .ok_or_else(|| bad("status", what, "no known status"))?;
    for stamp in ["createdAt", "lastUpdatedAt"] {
        text(stamp).ok_or_else(|| bad(stamp, what, "no timestamp"))?;
    }
    match result.get("ttlMs") {
        Some(Value::Null) => {}
        Some(ttl) if ttl.as_u64().is_some() => {}
        _ => return Err(bad("ttlMs", what, "no ttlMs (milliseconds, or null)")),
    }
    let poll_interval_ms = match result.get("pollIntervalMs") {
        None => None,
        Some(p) => Some(p.as_u64().ok_or_else(|| {
            bad(
                "pollIntervalMs",
                what,
                "a pollIntervalMs that is not milliseconds",
            )
        })?),
    };
    Ok(Reading {
        id: id.to_owned(),
        status,
        poll_interval_ms,
        end: None,
    })
}

/// How long a task is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// From the send of `tools/call`.
    pub within: Duration,
    /// The interaction's `completionWithinMs`, when it set the bound.
    pub limit_ms: Option<u64>,
}

impl Bound {
    /// Up to `completionWithinMs` when the interaction sets it, else ten
    /// request timeouts.
    pub fn of(completion_within_ms: Option<u64>, request_timeout: Duration) -> Bound {
        Bound {
            within: completion_within_ms.map_or(request_timeout * TIMEOUTS, Duration::from_millis),
            limit_ms: completion_within_ms,
        }
    }

    /// The wait before the next poll, `elapsed` after the send and after
    /// `polls` polls; `None` when the bound is spent. The server's
    /// `pollIntervalMs` is honoured (never polled faster), the last poll
    /// falls on the bound.
    pub fn next_wait(
        &self,
        asked_ms: Option<u64>,
        elapsed: Duration,
        polls: u32,
    ) -> Option<Duration> {
        if polls >= MAX_POLLS || elapsed >= self.within {
            return None;
        }
        let asked = asked_ms.map_or(DEFAULT_POLL, Duration::from_millis);
        let wait = asked.max(MIN_POLL).max(elapsed / BACKOFF);
        Some(wait.min(self.within - elapsed))
    }
}

/// How following a task ended.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// `completed` or `failed`: the reply carries its result or error.
    Ended(Status),
    /// Still `status` when the bound was spent (then cancelled).
    Unfinished(Status),
    /// `input_required`: it needs `tasks/update` (then cancelled).
    InputRequired,
    /// `cancelled`, though the verifier did not cancel it.
    Cancelled,
    /// `tasks/get` answered a JSON-RPC error (an unknown or expired task).
    Lost(RpcError),
    /// A task answer that is not one.
    Malformed(Malformed),
}

/// A `tools/call` answered with a task, followed.
#[derive(Debug, Clone, PartialEq)]
pub struct Followed {
    pub id: String,
    pub polls: u32,
    /// From the send of `tools/call` to the last answer.
    pub took: Duration,
    pub bound: Bound,
    pub end: End,
}

impl Followed {
    /// The task ended with a result or error to judge.
    pub fn ended(&self) -> bool {
        matches!(self.end, End::Ended(_))
    }

    /// The finding of a task that did not end with a result or error to
    /// judge: the call's only one.
    pub fn finding(&self) -> Option<Finding> {
        let (id, polls) = (&self.id, self.polls);
        let ms = u64::try_from(self.took.as_millis()).unwrap_or(u64::MAX);
        let protocol = |code, path: &str, detail: String| {
            Some(Finding::new(Layer::Protocol, code, path, detail))
        };
        match &self.end {
            End::Ended(_) => None,
            End::Unfinished(status) => {
                let s = status.as_str();
                let seen = format!(
                    "the task `{id}` was still `{s}` after {polls} tasks/get polls, {ms} ms"
                );
                match self.bound.limit_ms {
                    Some(limit) => Some(
                        Finding::new(
                            Layer::Temporal,
                            codes::COMPLETION_LATE,
                            "completionWithinMs",
                            format!("{seen}; completionWithinMs is {limit} ms"),
                        )
                        .values(Some(json!(limit)), Some(json!(ms))),
                    ),
                    None => {
                        let most = self.bound.within.as_millis();
                        let detail =
                            format!("{seen} (followed for at most {most} ms, {MAX_POLLS} polls)");
                        protocol(codes::TASK_NOT_COMPLETED, "task.status", detail)
                    }
                }
            }
            End::InputRequired => protocol(
                codes::RESULT_TYPE_UNSUPPORTED,
                "task.status",
                format!(
                    "the task `{id}` needs input (`input_required`, answered with tasks/update), which the verifier does not give: the call is not verified"
                ),
            ),
            End::Cancelled => protocol(
                codes::TASK_NOT_COMPLETED,
                "task.status",
                format!(
                    "the task `{id}` ended `cancelled` without a result, though the verifier did not cancel it"
                ),
            ),
            End::Lost(e) => protocol(
                codes::TASK_NOT_COMPLETED,
                "task",
                format!(
                    "tasks/get answered error {} `{}` for the task `{id}` before it ended",
                    e.code, e.message
                ),
            ),
            End::Malformed(m) => protocol(codes::MALFORMED_RESPONSE, &m.path, m.why.clone()),
        }
    }
}

#[cfg(test)]
#[path = "task_tests.rs"]
mod tests;
