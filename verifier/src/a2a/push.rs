//! The contract's `push`: the verifier's own webhook receiver on loopback,
//! registered with the send (`configuration.taskPushNotificationConfig`:
//! the receiver's URL, the contract's `token`, and `authentication` with
//! the contract's `scheme` and a secret of the run), or registered after
//! the task was created when the registration must fail (`push.error`).
//!
//! | expected | received | finding |
//! | --- | --- | --- |
//! | `expectStates`, in order (repeats allowed: delivery is at least once) | a state missing, or out of order | PUSH_NOT_DELIVERED (protocol) |
//! | every delivery with `Authorization: <scheme> <secret>` and `X-A2A-Notification-Token: <token>` | one without them | PUSH_NOT_DELIVERED (protocol) |
//! | every delivery of the task names it (`taskId`, a task's `id`) | one naming another task: not this task's (the expected states are judged without it; all of them in, it is the finding) | PUSH_NOT_DELIVERED (protocol) |
//! | nothing after a follow-up `DeleteTaskPushNotificationConfig` was acknowledged | a delivery of a state first seen more than 250 ms after the acknowledgement (the receiver listens until it was silent for 500 ms) | PUSH_AFTER_CONFIG_DELETED (protocol) |
//! | registering fails with `error` | another error, or served (UNDECLARED_CAPABILITY_ACCEPTED when the card does not declare `pushNotifications`) | ERROR_CODE_MISMATCH (protocol) |
//!
//! The receiver is a bounded HTTP/1.1 reader (a head of at most 16 KiB, a
//! body of at most 1 MiB, 200 deliveries) that answers `200` to each POST.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use accord_dsl::model::accord::{PushScenario, TaskState};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::finding::{Finding, Layer, codes};

const MAX_HEAD: usize = 16 * 1024;
const MAX_BODY: usize = 1024 * 1024;
const MAX_DELIVERIES: usize = 200;
/// How long one delivery may take to arrive once its connection is open.
const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// One POST the agent made to the receiver.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    /// Header names lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Delivery {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The status the notification reports (a status update or a task).
    fn status(&self) -> Option<Value> {
        let v: Value = serde_json::from_slice(&self.body).ok()?;
        v.get("statusUpdate")
            .map(|u| u["status"].clone())
            .or_else(|| v.get("task").map(|t| t["status"].clone()))
            .or_else(|| v.get("status").cloned())
    }

    fn timestamp(&self) -> Option<chrono::DateTime<chrono::FixedOffset>> {
        let status = self.status()?;
        chrono::DateTime::parse_from_rfc3339(status.get("timestamp")?.as_str()?).ok()
    }

    /// The task the notification names (a status or artifact update's
    /// `taskId`, a task's `id`), if it names one.
    fn task_id(&self) -> Option<String> {
        let v: Value = serde_json::from_slice(&self.body).ok()?;
        let named = |u: &Value, key: &str| u.get(key).and_then(Value::as_str).map(str::to_owned);
        v.get("statusUpdate")
            .and_then(|u| named(u, "taskId"))
            .or_else(|| v.get("artifactUpdate").and_then(|u| named(u, "taskId")))
            .or_else(|| v.get("task").and_then(|t| named(t, "id")))
    }

    /// The task state the notification reports (a status update or a task).
    fn state(&self) -> Option<TaskState> {
        let status = self.status()?;
        TaskState::from_wire(status.get("state")?.as_str()?)
    }
}

/// A webhook receiver running on loopback for one interaction.
#[derive(Debug)]
pub struct Receiver {
    pub url: String,
    /// The id the config is registered with (the verifier's own, so that a
    /// follow-up can delete it).
    pub id: String,
    /// The credentials the agent must present with each delivery.
    pub secret: String,
    received: Arc<Mutex<Vec<Delivery>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// Binds `127.0.0.1:0` and starts accepting.
    pub async fn start() -> std::io::Result<Receiver> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/accord-webhook", listener.local_addr()?);
        let received: Arc<Mutex<Vec<Delivery>>> = Arc::default();
        let into = received.clone();
        let task = tokio::spawn(async move {
            // the connections live as long as the accept loop: aborting it
            // drops the set, which aborts them
            let mut connections = tokio::task::JoinSet::new();
            while let Ok((mut socket, _)) = listener.accept().await {
                let into = into.clone();
                while connections.try_join_next().is_some() {}
                connections.spawn(async move {
                    loop {
                        let read = tokio::time::timeout(READ_TIMEOUT, read_request(&mut socket));
                        let Ok(Some(d)) = read.await else { return };
                        {
                            let mut list = into
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner);
                            if list.len() < MAX_DELIVERIES {
                                list.push(d);
                            }
                        }
                        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
                        if socket.write_all(ok).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        Ok(Receiver {
            url,
            id: format!("accord-push-config-{:016x}", rand::random::<u64>()),
            secret: format!("accord-push-{:032x}", rand::random::<u128>()),
            received,
            task,
        })
    }

    /// The config registered with the send (A2A v1.0 `TaskPushNotificationConfig`).
    pub fn config(&self, push: &PushScenario) -> Value {
        let mut config = json!({"id": self.id, "url": self.url,
            "authentication": {"scheme": push.scheme.as_deref().unwrap_or("Bearer"), "credentials": self.secret}});
        if let Some(t) = &push.token {
            config["token"] = json!(t);
        }
        config
    }

    /// What arrived so far.
    pub fn deliveries(&self) -> Vec<Delivery> {
        self.received
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Waits (at most `limit`) until the expected states arrived.
    pub async fn settle(&self, push: &PushScenario, limit: Duration) -> Vec<Delivery> {
        let deadline = Instant::now() + limit;
        loop {
            let got = self.deliveries();
            if in_order(&push.expect_states, &got).is_none() || Instant::now() >= deadline {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Keeps listening until nothing new arrived for [`QUIET`] (at most
    /// `limit`): after a config's deletion the expected states may all be
    /// in while a forbidden notification is still on its way — the task
    /// ended, the agent's notifier has not posted yet.
    pub async fn linger(&self, limit: Duration) -> Vec<Delivery> {
        let deadline = Instant::now() + limit;
        let mut seen = self.deliveries().len();
        let mut quiet_since = Instant::now();
        loop {
            let got = self.deliveries();
            if got.len() != seen {
                seen = got.len();
                quiet_since = Instant::now();
            }
            if quiet_since.elapsed() >= QUIET || Instant::now() >= deadline {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// How long the receiver must stay silent, after a config's deletion, for
/// the verifier to conclude nothing more is coming.
pub const QUIET: Duration = Duration::from_millis(500);

/// Reads one request (head and `content-length` body) from a connection.
async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<Delivery> {
    let mut buf = Vec::new();
    let head_end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        if buf.len() > MAX_HEAD {
            return None;
        }
        let mut chunk = [0u8; 4096];
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    if length > MAX_BODY {
        return None;
    }
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let mut chunk = vec![0u8; (length - body.len()).min(64 * 1024)];
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(length);
    Some(Delivery { headers, body })
}

/// The first expected state that did not arrive in order, if any. Order
/// is either the arrival or the status timestamps': an agent may send its
/// notifications without waiting for each other (a2a-js does), so arrival
/// alone is no evidence, and timestamps that go backwards are a finding of
/// their own.
fn in_order(expected: &[TaskState], got: &[Delivery]) -> Option<TaskState> {
    let arrived: Vec<TaskState> = got.iter().filter_map(Delivery::state).collect();
    let missing = first_missing(expected, &arrived)?;
    let mut timed: Vec<(Option<chrono::DateTime<chrono::FixedOffset>>, TaskState)> = got
        .iter()
        .filter_map(|d| Some((d.timestamp(), d.state()?)))
        .collect();
    if !timed.iter().all(|(t, _)| t.is_some()) {
        return Some(missing);
    }
    timed.sort_by_key(|(t, _)| *t);
    let stamped: Vec<TaskState> = timed.into_iter().map(|(_, s)| s).collect();
    first_missing(expected, &stamped).map(|_| missing)
}

fn first_missing(expected: &[TaskState], states: &[TaskState]) -> Option<TaskState> {
    let mut states = states.iter();
    expected
        .iter()
        .find(|want| !states.by_ref().any(|s| s == *want))
        .copied()
}

/// Whether a delivery presents a registered credential and no wrong one:
/// the `Authorization` of the registered scheme and secret, or the
/// registered token (the Python SDK sends only the token, the JavaScript
/// SDK only `Authorization` when both are registered).
fn authenticated(d: &Delivery, authorization: &str, token: Option<&str>) -> bool {
    let auth = d.header("authorization");
    let sent_token = d.header("x-a2a-notification-token");
    let auth_ok = auth == Some(authorization);
    let token_ok = token.is_some() && sent_token == token;
    let wrong = auth.is_some_and(|a| a != authorization)
        || (token.is_some() && sent_token.is_some_and(|t| Some(t) != token));
    (auth_ok || token_ok) && !wrong
}

/// The deliveries against the scenario; a notification that names
/// another task than `task` is not one of this task's.
pub fn judge(
    push: &PushScenario,
    secret: &str,
    got: &[Delivery],
    task: Option<&str>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let (got, foreign): (Vec<Delivery>, Vec<Delivery>) = got
        .iter()
        .cloned()
        .partition(|d| task.is_none() || d.task_id().is_none_or(|t| Some(t.as_str()) == task));
    let elsewhere = match foreign.first().and_then(Delivery::task_id) {
        Some(other) => format!(
            "; {} more named another task ({other}), not {}",
            foreign.len(),
            task.unwrap_or_default()
        ),
        None => String::new(),
    };
    let scheme = push.scheme.as_deref().unwrap_or("Bearer");
    let authorization = format!("{scheme} {secret}");
    let token = push.token.as_deref();
    let bare = got
        .iter()
        .filter(|d| !authenticated(d, &authorization, token))
        .count();
    if bare > 0 {
        let detail = format!(
            "{bare} of {} notifications came without a registered credential, or with a wrong one (Authorization: {scheme} …, X-A2A-Notification-Token)",
            got.len()
        );
        out.push(Finding::new(
            Layer::Protocol,
            codes::PUSH_NOT_DELIVERED,
            "push",
            detail,
        ));
    }
    let got = &got[..];
    if let Some(missing) = in_order(&push.expect_states, got) {
        let seen: Vec<&str> = got
            .iter()
            .filter_map(Delivery::state)
            .map(TaskState::as_str)
            .collect();
        let detail = format!(
            "{missing} was not delivered in order (delivered: {}{elsewhere})",
            seen.join(", ")
        );
        out.push(
            Finding::new(
                Layer::Protocol,
                codes::PUSH_NOT_DELIVERED,
                "push.expectStates",
                detail,
            )
            .values(Some(json!(push.expect_states)), Some(json!(seen))),
        );
    } else if !foreign.is_empty() {
        let detail =
            format!("every expected state was delivered{elsewhere}: a notification names its task");
        out.push(Finding::new(
            Layer::Protocol,
            codes::PUSH_NOT_DELIVERED,
            "push",
            detail,
        ));
    }
    out
}

/// How long after a config's deletion a state the replay sees may still
/// have been reached before it (the agent may process a state change and
/// the delete together; the stream shows the state a little later).
pub const IN_FLIGHT: Duration = Duration::from_millis(250);

/// Deliveries of the states the task reached only after the config was
/// deleted (`late`: first seen more than [`IN_FLIGHT`] after the
/// acknowledgement): PUSH_AFTER_CONFIG_DELETED. A notification of an
/// earlier state may arrive late — it was on its way — and is not one.
pub fn after_delete(got: &[Delivery], late: &[TaskState]) -> Option<Finding> {
    let late: Vec<&Delivery> = got
        .iter()
        .filter(|d| d.state().is_some_and(|s| late.contains(&s)))
        .collect();
    let first = late.first()?;
    let state = first.state().map_or("a notification", TaskState::as_str);
    let detail = format!(
        "{} notification(s) arrived after DeleteTaskPushNotificationConfig was acknowledged (the first: {state})",
        late.len()
    );
    Some(Finding::new(
        Layer::Protocol,
        codes::PUSH_AFTER_CONFIG_DELETED,
        "push",
        detail,
    ))
}

#[cfg(test)]
#[path = "push_tests.rs"]
mod tests;
