//! `A2A/Task` interactions: the message sent, the expected task events as
//! a timeline (states in order, artifacts, agent messages), the terminal
//! state, what happens to the task after: cancel, push, follow-ups, and
//! what the agent may do downstream (the delegation record).

use accord_dsl::model::accord::{
    A2aTask, A2aTaskInteraction, Delegation, PartExpectation, TaskState, TaskStep,
};
use serde::Serialize;
use serde_json::Value;

use super::fields::{BodyView, Field, RuleRow, rule_rows};
use super::http::generated;
use super::redact;

/// One expected event of the sequence.
#[derive(Debug, Clone)]
pub struct StepView {
    /// `state`, `artifact` or `message`.
    pub kind: &'static str,
    /// The state's wire name, the artifact's name, or "agent message".
    pub label: String,
    pub terminal: bool,
    pub optional: bool,
    /// Expected parts (content, media type, schema, matchers), redacted.
    pub parts: Option<BodyView>,
}

/// An operation on the created task.
#[derive(Debug, Clone)]
pub struct FollowUpView {
    pub operation: String,
    /// The state the task must reach first, or "after the sequence".
    pub after: String,
    /// Expected outcome or error, principal, params, request, limits.
    pub fields: Vec<Field>,
}

/// The A2A part of an interaction.
#[derive(Debug, Clone)]
pub struct A2aView {
    pub skill: String,
    pub streaming: bool,
    /// `task` or `message`.
    pub answer: String,
    pub settings: Vec<Field>,
    pub request: BodyView,
    pub request_rules: Vec<RuleRow>,
    pub steps: Vec<StepView>,
    pub terminal_state: Option<String>,
    pub error: Vec<Field>,
    pub cancel: Vec<Field>,
    pub push: Vec<Field>,
    pub follow_ups: Vec<FollowUpView>,
    /// The delegation record: what the agent may do downstream.
    pub delegation: Vec<Field>,
}

impl From<&A2aTaskInteraction> for A2aView {
    fn from(i: &A2aTaskInteraction) -> Self {
        let t = &i.task;
        let mut request = serde_json::to_value(&t.request).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut request {
            map.remove("matchingRules");
            map.remove("generators");
        }
        let mut request_rules = rule_rows(&t.request.rules.matching_rules);
        request_rules.extend(generated(&t.request.rules.generators.to_v4_json()));
        A2aView {
            skill: redact::redact_text(t.skill.as_deref().unwrap_or_default()),
            streaming: t.streaming,
            answer: if t.response.is_task() {
                "a task"
            } else {
                "a direct message"
            }
            .into(),
            settings: settings(t),
            request: BodyView::json(&request),
            request_rules,
            steps: t.steps.iter().map(step).collect(),
            terminal_state: t.terminal_state.map(|s| s.as_str().to_owned()),
            error: object_fields(&t.error),
            cancel: object_fields(&t.cancel),
            push: object_fields(&t.push),
            follow_ups: t.follow_ups.iter().map(follow_up).collect(),
            delegation: t.delegation.as_ref().map(delegation).unwrap_or_default(),
        }
    }
}

/// The send's settings beyond skill and streaming.
fn settings(t: &A2aTask) -> Vec<Field> {
    let mut out = Vec::new();
    if let Some(v) = &t.a2a_version {
        let shown = if v.is_empty() {
            "(none sent: read as 0.3)"
        } else {
            v
        };
        out.push(Field::text("A2A-Version header", shown));
    }
    out.extend(
        t.extra
            .iter()
            .filter(|(k, _)| k.as_str() != "_id")
            .map(|(k, v)| Field::json(k, v)),
    );
    out
}

/// Each constraint of the delegation record under a readable name; an
/// attribute this broker does not know is shown under its own name.
fn delegation(d: &Delegation) -> Vec<Field> {
    const NAMES: [(&str, &str); 10] = [
        ("mode", "Mode"),
        ("allowedTools", "Only these tools may be called"),
        ("forbiddenTools", "Tools that must not be called"),
        ("forbiddenAgents", "Agents that must not be delegated to"),
        ("budget", "Budget (tool calls, cost units, cost per call)"),
        ("maxDepth", "Re-delegation depth at most"),
        ("maxFanOut", "Tasks delegated to other agents at most"),
        (
            "deadlineMs",
            "No downstream call later than (ms after the send)",
        ),
        ("traceContext", "Trace context"),
        ("credential", "The consumer's credential"),
    ];
    let Value::Object(map) = d.to_metadata() else {
        return Vec::new();
    };
    if map.is_empty() {
        return vec![Field::text("(as written)", "{}")];
    }
    map.iter()
        .map(|(k, v)| {
            // redacted as found under its own key; the two rules are
            // words, not secrets (`credential: notForwarded`)
            let mut f = match v {
                Value::String(word) if k == "credential" || k == "traceContext" => {
                    Field::text(k, word.as_str())
                }
                _ => Field::json(k, v),
            };
            if let Some((_, name)) = NAMES.iter().find(|(key, _)| key == k) {
                f.name = (*name).to_owned();
            }
            f
        })
        .collect()
}

fn step(s: &TaskStep) -> StepView {
    match s {
        TaskStep::Status(st) => StepView {
            kind: "state",
            label: st.state.as_str().to_owned(),
            terminal: st.state.is_terminal(),
            optional: st.optional,
            parts: parts(&st.message_parts),
        },
        TaskStep::Artifact(a) => StepView {
            kind: "artifact",
            label: a
                .name
                .as_deref()
                .map_or_else(|| "(unnamed)".into(), redact::redact_text),
            terminal: false,
            optional: false,
            parts: parts(&a.parts),
        },
        TaskStep::Message(m) => StepView {
            kind: "message",
            label: "agent message".into(),
            terminal: false,
            optional: false,
            parts: parts(&m.parts),
        },
    }
}

fn parts(list: &[PartExpectation]) -> Option<BodyView> {
    if list.is_empty() {
        return None;
    }
    serde_json::to_value(list).ok().map(|v| BodyView::json(&v))
}

/// Each attribute of a serialisable object as a field (none for `None`).
pub fn object_fields<T: Serialize>(value: &Option<T>) -> Vec<Field> {
    let Some(value) = value else {
        return Vec::new();
    };
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) if map.is_empty() => vec![Field::text("(as written)", "{}")],
        Ok(Value::Object(map)) => map.iter().map(|(k, v)| Field::json(k, v)).collect(),
        Ok(other) => vec![Field::json("value", &other)],
        Err(_) => Vec::new(),
    }
}

fn follow_up(f: &accord_dsl::model::accord::FollowUp) -> FollowUpView {
    let mut fields = Vec::new();
    if let Ok(Value::Object(map)) = serde_json::to_value(f) {
        for (k, v) in map {
            if k != "operation" && k != "after" {
                fields.push(Field::json(k, &v));
            }
        }
    }
    FollowUpView {
        operation: f.operation.as_str().to_owned(),
        after: f
            .after
            .map(TaskState::as_str)
            .unwrap_or("after the sequence")
            .to_owned(),
        fields,
    }
}
