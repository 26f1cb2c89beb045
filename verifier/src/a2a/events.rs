//! What the replay saw of a task, in order: statuses, artifacts (chunks
//! joined) and direct messages, from stream events and task snapshots
//! alike, so one judgement serves streamed and polled sends.
//!
//! ProtoJSON's empty defaults are dropped; numbers are kept as sent, and
//! [`whole_numbers`] gives the reading with whole doubles as integers
//! (a2a-sdk carries every number as a protobuf double: `3` arrives as
//! `3.0`), which the part judgement also tries.

use std::time::Duration;

use accord_dsl::model::accord::TaskState;
use serde_json::{Map, Value};

/// One thing the task did.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A status: its state (`None`: not an A2A v1.0 state name, kept in
    /// `wire`), timestamp and message.
    Status {
        state: Option<TaskState>,
        wire: String,
        timestamp: Option<String>,
        message: Option<Value>,
    },
    /// An artifact, its chunks joined so far.
    Artifact {
        id: String,
        name: Option<String>,
        parts: Vec<Value>,
    },
    /// A direct message from the agent.
    Message(Value),
}

/// An event and when and where it was seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    pub event: Event,
    /// Since the send.
    pub at: Duration,
    /// `stream`, `SendMessage`, `GetTask`, `followUps[0]`, …
    pub source: String,
}

/// Everything seen of one task.
#[derive(Debug, Clone, Default)]
pub struct Record {
    pub events: Vec<Observed>,
    pub task_id: Option<String>,
    pub context_id: Option<String>,
    /// Frames that repeat an earlier one (an artifact update exactly, a
    /// terminal status by its state): (source, what).
    pub duplicates: Vec<(String, String)>,
    /// Stream frames that changed the task after its terminal state: (source, what).
    pub after_end: Vec<(String, String)>,
    /// Terminal snapshots without artifacts seen before: (source, artifact ids).
    pub lost: Vec<(String, Vec<String>)>,
    /// What could not be read as A2A v1.0: (source, why).
    pub malformed: Vec<(String, String)>,
    /// Stream frames seen, to tell repeats (canonical digests).
    seen: Vec<String>,
    /// The terminal status updates seen: (source, state).
    ends: Vec<(String, TaskState)>,
    /// The streams whose first event was taken.
    streams: Vec<String>,
}

impl Record {
    /// The last state seen.
    pub fn last_state(&self) -> Option<TaskState> {
        self.events.iter().rev().find_map(|o| match o.event {
            Event::Status { state, .. } => state,
            _ => None,
        })
    }

    /// The state the task ended in: the first terminal state reported
    /// (what came after it is judged as a reopening), else the last state.
    pub fn final_state(&self) -> Option<TaskState> {
        let terminal = self.events.iter().find_map(|o| match o.event {
            Event::Status { state: Some(s), .. } if s.is_terminal() => Some(s),
            _ => None,
        });
        terminal.or_else(|| self.last_state())
    }

    /// Whether another state was reported after the first terminal one.
    pub fn reported_after_end(&self) -> bool {
        let mut ended: Option<TaskState> = None;
        for o in &self.events {
            if let Event::Status { state, .. } = o.event {
                match ended {
                    Some(end) if state != Some(end) => return true,
                    Some(_) => {}
                    None => ended = state.filter(|s| s.is_terminal()),
                }
            }
        }
        false
    }

    /// When a state was first seen.
    pub fn first_seen(&self, wanted: TaskState) -> Option<Duration> {
        self.events.iter().find_map(|o| match o.event {
            Event::Status { state, .. } if state == Some(wanted) => Some(o.at),
            _ => None,
        })
    }

    /// When the task was first seen in a terminal state.
    pub fn terminal_at(&self) -> Option<Duration> {
        self.events.iter().find_map(|o| match o.event {
            Event::Status { state: Some(s), .. } if s.is_terminal() => Some(o.at),
            _ => None,
        })
    }

    /// Takes one event of stream `source`: a stream starts with the task
    /// (or, replying with a message only, the message); one that starts
    /// otherwise is noted, and its events are still taken.
    pub fn take_stream_event(&mut self, response: &Value, at: Duration, source: &str) {
        if !self.streams.iter().any(|s| s == source) {
            self.streams.push(source.to_owned());
            if response.get("task").is_none() && response.get("message").is_none() {
                let why =
                    "the stream's first event is not the task: a task's stream starts with it";
                self.malformed.push((source.to_owned(), why.to_owned()));
            }
        }
        self.take_response(response, at, source);
    }

    /// Takes one `StreamResponse` (a stream event, or a `SendMessage`
    /// answer: `{"task"}` or `{"message"}`).
    pub fn take_response(&mut self, response: &Value, at: Duration, source: &str) {
        if let Some(task) = response.get("task") {
            self.take_task(task, at, source);
        } else if let Some(message) = response.get("message") {
            self.note_user_role(Some(message), source);
            self.push(Event::Message(normalised(message)), at, source);
        } else if let Some(update) = response.get("statusUpdate") {
            // progress may honestly repeat (WORKING, WORKING); an end may
            // not, whatever its timestamp or message
            let end = update["status"]["state"]
                .as_str()
                .and_then(TaskState::from_wire)
                .filter(|s| s.is_terminal());
            self.note_repeat(response, source, false);
            self.adopt(update);
            if let Some(end) = end {
                let again = (source.to_owned(), end);
                if self.ends.contains(&again) {
                    self.duplicates
                        .push((source.to_owned(), "statusUpdate".to_owned()));
                }
                self.ends.push(again);
            }
            self.same_task(update, "taskId", source);
            let submitted = update["status"]["state"].as_str() == Some("TASK_STATE_SUBMITTED");
            if !submitted {
                self.note_user_role(update["status"].get("message"), source);
            }
            self.push(status(&update["status"]), at, source);
        } else if let Some(update) = response.get("artifactUpdate") {
            // appended chunks (streamed tokens) may honestly repeat
            let whole = update.get("append").and_then(Value::as_bool) != Some(true);
            self.note_repeat(response, source, whole);
            self.adopt(update);
            self.same_task(update, "taskId", source);
            let append = update.get("append").and_then(Value::as_bool) == Some(true);
            // a terminal task never changes: the artifact is judged as one
            // of the task's (once: one fault, one finding), the change as
            // the fault
            let end = self.events.iter().position(
                |o| matches!(o.event, Event::Status { state: Some(s), .. } if s.is_terminal()),
            );
            if let Some(end) = end {
                let Event::Status { wire, .. } = &self.events[end].event else {
                    unreachable!("a status at the position found")
                };
                let what = format!("an artifact update after the terminal state {wire}");
                self.after_end.push((source.to_owned(), what));
            }
            self.take_artifact_before(&update["artifact"], append, at, source, end);
        } else {
            let why = "a StreamResponse with none of task, message, statusUpdate, artifactUpdate";
            self.malformed.push((source.to_owned(), why.to_owned()));
        }
    }

    /// Takes a task snapshot (a stream's first event, `GetTask`, a
    /// blocking send's answer): its status when it differs from the last
    /// one seen, and its artifacts.
    pub fn take_task(&mut self, task: &Value, at: Duration, source: &str) {
        let Some(id) = task.get("id").and_then(Value::as_str) else {
            let why = "a task without an id";
            self.malformed.push((source.to_owned(), why.to_owned()));
            return;
        };
        if self.task_id.is_none() {
            self.task_id = Some(id.to_owned());
            self.context_id = task
                .get("contextId")
                .and_then(Value::as_str)
                .map(str::to_owned);
        }
        self.same_task(task, "id", source);
        let snapshot = status(&task["status"]);
        let changed = match (&snapshot, self.events.iter().rev().find(|o| is_status(o))) {
            (Event::Status { wire, .. }, Some(last)) => match &last.event {
                Event::Status { wire: was, .. } => wire != was,
                _ => true,
            },
            _ => true,
        };
        if matches!(snapshot, Event::Status { state: Some(s), .. } if s.is_terminal()) {
            self.note_lost(task, source);
        }
        // a snapshot's artifacts were made while it ran: after a running
        // state, before the state it ended in
        let ended = matches!(snapshot, Event::Status { state: Some(s), .. } if s.is_terminal() || s.is_interrupted());
        if changed && !ended {
            self.push(snapshot.clone(), at, source);
        }
        for artifact in task
            .get("artifacts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.take_artifact(artifact, false, at, source);
        }
        if changed && ended {
            self.push(snapshot, at, source);
        }
    }

    fn take_artifact(&mut self, artifact: &Value, append: bool, at: Duration, source: &str) {
        self.take_artifact_before(artifact, append, at, source, None);
    }

    /// Takes an artifact; a new one goes at `before` (an event index)
    /// when given, else last.
    fn take_artifact_before(
        &mut self,
        artifact: &Value,
        append: bool,
        at: Duration,
        source: &str,
        before: Option<usize>,
    ) {
        let id = artifact
            .get("artifactId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let parts: Vec<Value> = artifact
            .get("parts")
            .and_then(Value::as_array)
            .map(|p| p.iter().map(normalised).collect())
            .unwrap_or_default();
        let name = artifact
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .map(str::to_owned);
        let known = self.events.iter_mut().find_map(|o| match &mut o.event {
            Event::Artifact {
                id: known,
                parts: p,
                name: n,
            } if *known == id => Some((p, n)),
            _ => None,
        });
        match known {
            Some((existing, known_name)) => {
                if known_name.is_none() {
                    *known_name = name;
                }
                if append {
                    existing.extend(parts);
                } else {
                    *existing = parts;
                }
            }
            None => {
                let observed = Observed {
                    event: Event::Artifact { id, name, parts },
                    at,
                    source: source.to_owned(),
                };
                self.events
                    .insert(before.unwrap_or(self.events.len()), observed);
            }
        }
    }

    fn push(&mut self, event: Event, at: Duration, source: &str) {
        self.events.push(Observed {
            event,
            at,
            source: source.to_owned(),
        });
    }
}

fn is_status(o: &Observed) -> bool {
    matches!(o.event, Event::Status { .. })
}

/// A `TaskStatus` as an event.
fn status(status: &Value) -> Event {
    let wire = status
        .get("state")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    Event::Status {
        state: TaskState::from_wire(&wire),
        wire,
        timestamp: status
            .get("timestamp")
            .and_then(Value::as_str)
            .map(str::to_owned),
        message: status.get("message").map(normalised),
    }
}

/// A copy with ProtoJSON's empty defaults (`"mediaType": ""`,
/// `"filename": ""`) dropped. Numbers stay as sent: the part judgement
/// reads whole doubles both ways (see [`whole_numbers`]).
pub fn normalised(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(normalised).collect()),
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                let empty_default =
                    matches!(k.as_str(), "mediaType" | "filename") && v.as_str() == Some("");
                if !empty_default {
                    out.insert(k.clone(), normalised(v));
                }
            }
            Value::Object(out)
        }
        _ => value.clone(),
    }
}

/// A copy with whole-valued doubles as integers: a2a-sdk carries every
/// number as a protobuf double (`3` arrives as `3.0`).
pub fn whole_numbers(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            // exact: |f| < 2^53
            Some(f) if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                Value::from(f as i64)
            }
            _ => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(whole_numbers).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), whole_numbers(v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

#[path = "events_notes.rs"]
mod notes;

#[cfg(test)]
#[path = "events_tests.rs"]
mod tests;
