//! A task of the mock agent: created by a send that matched an
//! interaction, it walks the interaction's expected sequence — SUBMITTED
//! first, then each expected status, artifact (the expected parts'
//! examples, consumer-side generators applied) and the terminal state.
//!
//! Events are applied at once, except where the contract needs the task
//! to stay in a state for a while: at `cancel.at` (a cancel the contract
//! expects to succeed), and at the `after` state of a follow-up that is
//! neither terminal nor interrupted. The task holds there until that
//! operation arrives, or for [`HOLD`] at most (a consumer that never
//! sends it is not left hanging; the report then names what it missed).

use std::collections::VecDeque;
use std::time::Duration;

use accord_dsl::generators::{GeneratorContext, GeneratorMode, apply_to_json};
use accord_dsl::model::accord::{A2aTaskInteraction, PartExpectation, TaskState, TaskStep};
use serde_json::{Value, json};

/// The longest a task holds in a state for an operation of the contract.
pub(crate) const HOLD: Duration = Duration::from_secs(5);

/// The most push configs kept per task (past it the oldest is forgotten).
pub(crate) const MAX_PUSH_CONFIGS: usize = 100;

/// The most follow-up messages a task takes (a follow-up that leaves the
/// task where it was, sent in a loop, cannot grow its history without end).
pub(crate) const MAX_FOLLOW_UPS: usize = 100;

/// The most bytes of user messages one task keeps (their JSON text): a
/// follow-up past it is refused (100 follow-ups of 10 MiB each would
/// otherwise hold a gigabyte in one task).
pub(crate) const MAX_TASK_BYTES: usize = 16 * 1024 * 1024;

/// The length of `value`'s JSON text, counted without writing it out.
pub(crate) fn json_len(value: &Value) -> usize {
    #[derive(Default)]
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count::default();
    // writing a Value to a sink that never fails cannot fail
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// An event still to come.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Planned {
    /// A status, with the parts of its message.
    Status(TaskState, Vec<Value>),
    /// An artifact (without `artifactId`, given when emitted).
    Artifact(Value),
}

/// A task of the mock.
#[derive(Debug, Clone)]
pub(crate) struct MockTask {
    pub id: String,
    pub context_id: String,
    /// The bearer token of the creator: another caller does not see it.
    pub owner: Option<String>,
    /// The interaction (position among the surface's A2A interactions).
    pub slot: usize,
    pub state: TaskState,
    pub status: Value,
    pub artifacts: Vec<Value>,
    pub history: Vec<Value>,
    /// Every `StreamResponse` after the creation snapshot, in order.
    pub log: Vec<Value>,
    /// The snapshot right after creation (the first stream event).
    pub created: Value,
    pub plan: VecDeque<Planned>,
    /// States to hold in, in plan order; the first is the next.
    pub holds: Vec<TaskState>,
    /// Push configs registered for it ([`MAX_PUSH_CONFIGS`] at most).
    pub push: Vec<Value>,
    /// How many follow-up messages it took ([`MAX_FOLLOW_UPS`] at most).
    pub follow_ups: usize,
    /// Bytes of the user messages it keeps ([`MAX_TASK_BYTES`] at most
    /// through follow-ups; the store bounds the sum over tasks).
    pub bytes: usize,
    /// For ordering lists: when its status last changed.
    pub changed: chrono::DateTime<chrono::Utc>,
}

impl MockTask {
    /// A new task at SUBMITTED for `message` (the user's message, given
    /// its ids here).
    pub(crate) fn new(
        slot: usize,
        message: &Value,
        owner: Option<String>,
        plan: VecDeque<Planned>,
        holds: Vec<TaskState>,
    ) -> MockTask {
        let id = new_id();
        let context_id = message["contextId"]
            .as_str()
            .filter(|c| !c.is_empty())
            .map_or_else(new_id, str::to_owned);
        let mut user = message.clone();
        user["taskId"] = json!(id);
        user["contextId"] = json!(context_id);
        let now = chrono::Utc::now();
        let mut task = MockTask {
            id,
            context_id,
            owner,
            slot,
            state: TaskState::Submitted,
            status: json!({"state": TaskState::Submitted.as_str(), "timestamp": stamp(now)}),
            artifacts: Vec::new(),
            history: vec![user],
            log: Vec::new(),
            created: Value::Null,
            plan,
            holds,
            push: Vec::new(),
            follow_ups: 0,
            // the message is kept twice: in the history and the creation snapshot
            bytes: 2 * json_len(message),
            changed: now,
        };
        task.created = task.snapshot(None, true);
        task
    }

    /// The task as GetTask answers it; `history` at most that many messages.
    pub(crate) fn snapshot(&self, history: Option<usize>, artifacts: bool) -> Value {
        let mut t = json!({"id": self.id, "contextId": self.context_id, "status": self.status});
        if artifacts && !self.artifacts.is_empty() {
            t["artifacts"] = json!(self.artifacts);
        }
        let keep = history
            .unwrap_or(self.history.len())
            .min(self.history.len());
        if keep > 0 {
            t["history"] = json!(self.history[self.history.len() - keep..]);
        }
        t
    }

    /// Terminal or interrupted: streams end, blocking sends return.
    pub(crate) fn settled(&self) -> bool {
        self.state.is_terminal() || self.state.is_interrupted()
    }

    /// Whether it is holding in its current state.
    pub(crate) fn holding(&self) -> bool {
        !self.plan.is_empty() && self.holds.first() == Some(&self.state)
    }

    /// Releases a hold in `state` (an expected operation arrived, or the
    /// hold timed out), then runs on.
    pub(crate) fn release(&mut self, state: TaskState) -> Vec<Value> {
        if self.holds.first() == Some(&state) && self.state == state {
            self.holds.remove(0);
        }
        self.run()
    }

    /// Applies planned events until a hold or the end; the events emitted.
    pub(crate) fn run(&mut self) -> Vec<Value> {
        let mut emitted = Vec::new();
        while !self.holding() {
            let Some(next) = self.plan.pop_front() else {
                break;
            };
            emitted.push(self.apply(next));
        }
        emitted
    }

    /// Moves to `state` now, dropping what was planned (a cancel).
    pub(crate) fn finish_in(&mut self, state: TaskState) -> Value {
        self.plan.clear();
        self.holds.clear();
        self.apply(Planned::Status(state, Vec::new()))
    }

    /// Continues the task with more planned events (a follow-up message).
    pub(crate) fn resume(&mut self, message: &Value, more: VecDeque<Planned>) -> Vec<Value> {
        let mut user = message.clone();
        user["taskId"] = json!(self.id);
        user["contextId"] = json!(self.context_id);
        self.bytes += json_len(&user);
        self.history.push(user);
        self.follow_ups += 1;
        self.plan.extend(more);
        self.run()
    }

    fn apply(&mut self, event: Planned) -> Value {
        let (id, context) = (self.id.clone(), self.context_id.clone());
        match event {
            Planned::Status(state, parts) => {
                let now = chrono::Utc::now();
                let mut status = json!({"state": state.as_str(), "timestamp": stamp(now)});
                if !parts.is_empty() {
                    let message = json!({"messageId": new_id(), "contextId": context,
                        "taskId": id, "role": "ROLE_AGENT", "parts": parts});
                    self.history.push(message.clone());
                    status["message"] = message;
                }
                self.state = state;
                self.status = status.clone();
                self.changed = now;
                let event = json!({"statusUpdate": {"taskId": id, "contextId": context,
                    "status": status}});
                self.log.push(event.clone());
                event
            }
            Planned::Artifact(mut artifact) => {
                artifact["artifactId"] = json!(new_id());
                self.artifacts.push(artifact.clone());
                let event = json!({"artifactUpdate": {"taskId": id, "contextId": context,
                    "artifact": artifact, "lastChunk": true}});
                self.log.push(event.clone());
                event
            }
        }
    }
}

/// The events of `steps` ending in `terminal` (when given and not already
/// last): SUBMITTED steps are left out (every task starts there).
pub(crate) fn plan(
    steps: &[TaskStep],
    terminal: Option<TaskState>,
    base_url: &str,
) -> VecDeque<Planned> {
    let mut plan = VecDeque::new();
    let mut last = None;
    for step in steps {
        match step {
            TaskStep::Status(s) if s.state == TaskState::Submitted && plan.is_empty() => {}
            TaskStep::Status(s) => {
                plan.push_back(Planned::Status(s.state, parts(&s.message_parts, base_url)));
                last = Some(s.state);
            }
            TaskStep::Artifact(a) => {
                let mut artifact = json!({"parts": parts(&a.parts, base_url)});
                if let Some(name) = &a.name {
                    artifact["name"] = json!(name);
                }
                plan.push_back(Planned::Artifact(artifact));
            }
            TaskStep::Message(_) => {}
        }
    }
    if let Some(t) = terminal.filter(|t| last != Some(*t)) {
        plan.push_back(Planned::Status(t, Vec::new()));
    }
    plan
}

/// The plan of an interaction's send, and the states it holds in.
pub(crate) fn plan_of(
    i: &A2aTaskInteraction,
    base_url: &str,
) -> (VecDeque<Planned>, Vec<TaskState>) {
    let t = &i.task;
    let has_end = t.terminal_state.is_some()
        || t
            .steps
            .iter()
            .any(|s| matches!(s, TaskStep::Status(s) if s.state.is_terminal() || s.state.is_interrupted()));
    let terminal = t
        .terminal_state
        .or((!has_end).then_some(TaskState::Completed));
    let plan = plan(&t.steps, terminal, base_url);
    let mut wanted: Vec<TaskState> = Vec::new();
    if let Some(c) = t.cancel.as_ref().filter(|c| c.error.is_none()) {
        wanted.push(c.at.unwrap_or(TaskState::Submitted));
    }
    for f in &t.follow_ups {
        if let Some(s) = f.after.filter(|s| !s.is_terminal() && !s.is_interrupted()) {
            wanted.push(s);
        }
    }
    // in plan order: SUBMITTED, then the planned statuses
    let mut order = vec![TaskState::Submitted];
    order.extend(plan.iter().filter_map(|p| match p {
        Planned::Status(s, _) => Some(*s),
        Planned::Artifact(_) => None,
    }));
    let mut holds: Vec<TaskState> = order.into_iter().filter(|s| wanted.contains(s)).collect();
    holds.dedup();
    (plan, holds)
}

/// The parts of expected `parts`: their examples with the consumer-side
/// generators applied (`MockServerURL` is the mock's).
pub(crate) fn parts(parts: &[PartExpectation], base_url: &str) -> Vec<Value> {
    let ctx = GeneratorContext {
        mock_server_url: Some(base_url.to_owned()),
        mode: GeneratorMode::Consumer,
        ..GeneratorContext::default()
    };
    parts
        .iter()
        .map(|p| {
            let mut part = serde_json::to_value(&p.content).unwrap_or_default();
            if let Some(m) = &p.media_type {
                part["mediaType"] = json!(m);
            }
            if let Some(f) = &p.filename {
                part["filename"] = json!(f);
            }
            apply_to_json(&mut part, &p.rules.generators, &ctx, &mut rand::rng());
            part
        })
        .collect()
}

pub(crate) fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn stamp(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

#[cfg(test)]
mod tests {
    use accord_dsl::model::accord::{ArtifactExpectation, PartContent, StatusStep};

    use super::*;

    fn status(state: TaskState) -> TaskStep {
        TaskStep::Status(StatusStep {
            state,
            message_parts: Vec::new(),
            optional: false,
        })
    }

    #[test]
    fn a_task_walks_its_plan_and_holds_where_the_contract_needs_it() {
        let artifact = TaskStep::Artifact(ArtifactExpectation {
            name: Some("plan".into()),
            parts: vec![PartExpectation {
                content: PartContent::Data(json!({"id": 1})),
                media_type: Some("application/json".into()),
                filename: None,
                schema: None,
                rules: Default::default(),
            }],
        });
        let steps = [
            status(TaskState::Submitted),
            status(TaskState::Working),
            artifact,
        ];
        let plan = plan(&steps, Some(TaskState::Completed), "http://m");
        assert_eq!(plan.len(), 3, "SUBMITTED is where every task starts");
        let message = json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "go"}]});
        let mut t = MockTask::new(0, &message, None, plan, vec![TaskState::Working]);
        assert_eq!(t.created["status"]["state"], "TASK_STATE_SUBMITTED");
        let events = t.run();
        assert_eq!(events.len(), 1);
        assert!(t.holding() && t.state == TaskState::Working);
        let events = t.release(TaskState::Working);
        assert_eq!(events.len(), 2);
        assert_eq!(t.state, TaskState::Completed);
        let snap = t.snapshot(Some(0), true);
        assert_eq!(snap["artifacts"][0]["parts"][0]["data"]["id"], 1);
        assert!(snap.get("history").is_none());
        assert_eq!(t.history[0]["taskId"], json!(t.id));
    }
}
