//! One interaction as the contract page shows it: what every interaction
//! carries (description, key, provider states, Accord's expectations:
//! side effects, temporal limits, principal and probes, refusal, repeats)
//! and the part of its own type.

use accord_dsl::model::accord::{
    Auth, CounterChange, Expectations, McpToolExpectation, Probe, Temporal,
};
use accord_dsl::model::{Interaction, InteractionMeta};
use serde_json::Value;

use super::a2a::A2aView;
use super::fields::{Field, StateView, states};
use super::http::{HttpView, MessageView};
use super::mcp::McpView;
use super::redact;
use crate::web::spans::{Span, spans};

/// An interaction on the contract page.
#[derive(Debug, Clone)]
pub struct InteractionView {
    /// The fragment that links to it (`i-` and its `_id`).
    pub anchor: String,
    pub kind: &'static str,
    /// The description, its code spans apart.
    pub title: Vec<Span>,
    pub key: Option<String>,
    pub pending: bool,
    pub comments: Option<String>,
    pub states: Vec<StateView>,
    pub http: Option<HttpView>,
    pub a2a: Option<A2aView>,
    pub mcp: Option<McpView>,
    pub message: Option<MessageView>,
    pub side_effects: Vec<Field>,
    pub temporal: Vec<Field>,
    pub principal: Vec<Field>,
    pub probes: Vec<Field>,
    pub other: Vec<Field>,
    /// The interaction as stored (secrets hidden), pretty-printed.
    pub raw: String,
}

impl InteractionView {
    /// `interaction`, stored as `raw`, in a contract whose tools are `tools`.
    pub fn new(interaction: &Interaction, raw: &Value, tools: &[McpToolExpectation]) -> Self {
        let meta = interaction.meta();
        let e = &meta.expectations;
        let mut view = InteractionView {
            anchor: anchor(raw),
            kind: interaction.type_name(),
            title: spans(&redact::redact_text(&meta.description)),
            key: meta.key.as_deref().map(redact::redact_text),
            pending: meta.pending,
            comments: meta.comments.as_ref().map(redact::compact),
            states: states(&meta.provider_states),
            http: None,
            a2a: None,
            mcp: None,
            message: None,
            side_effects: side_effects(e),
            temporal: e.temporal.as_ref().map(temporal_fields).unwrap_or_default(),
            principal: e.auth.as_ref().map(principal).unwrap_or_default(),
            probes: e
                .auth
                .as_ref()
                .map(|a| probes(a, interaction))
                .unwrap_or_default(),
            other: other(e, meta),
            raw: redact::pretty(raw),
        };
        match interaction {
            Interaction::Http(i) => view.http = Some(i.into()),
            Interaction::A2aTask(i) => view.a2a = Some(i.into()),
            Interaction::McpToolCall(i) => view.mcp = Some(McpView::of(i, tools)),
            Interaction::AsyncMessage(i) => view.message = Some(i.into()),
            Interaction::SyncMessage(i) => view.message = Some(i.into()),
        }
        view
    }

    /// An interaction this broker could not read: shown as stored.
    pub fn unread(raw: &Value) -> Self {
        let text = |k: &str| raw.get(k).and_then(Value::as_str).map(redact::redact_text);
        let description = text("description").unwrap_or_default();
        InteractionView {
            anchor: anchor(raw),
            kind: "unreadable",
            title: spans(&description),
            key: text("key"),
            pending: false,
            comments: None,
            states: Vec::new(),
            http: None,
            a2a: None,
            mcp: None,
            message: None,
            side_effects: Vec::new(),
            temporal: Vec::new(),
            principal: Vec::new(),
            probes: Vec::new(),
            other: Vec::new(),
            raw: redact::pretty(raw),
        }
    }
}

/// `i-` and the interaction's `_id` (hex, safe in a URL fragment).
fn anchor(raw: &Value) -> String {
    let id: String = raw
        .get("_id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(40)
        .collect();
    format!("i-{id}")
}

/// `+1`, `0`, `-2`, `between 1 and 3`, `at least 1`.
pub fn change_text(c: &CounterChange) -> String {
    match *c {
        CounterChange::Exact(d) if d > 0 => format!("+{d}"),
        CounterChange::Exact(d) => d.to_string(),
        CounterChange::Range {
            min: Some(a),
            max: Some(b),
        } => format!("between {a} and {b}"),
        CounterChange::Range {
            min: Some(a),
            max: None,
        } => format!("at least {a}"),
        CounterChange::Range {
            min: None,
            max: Some(b),
        } => format!("at most {b}"),
        CounterChange::Range { .. } => "any change".into(),
    }
}

fn side_effects(e: &Expectations) -> Vec<Field> {
    e.side_effects
        .iter()
        .flatten()
        .map(|(counter, change)| Field::text(counter.clone(), change_text(change)))
        .collect()
}

/// Each temporal limit set, in words.
pub fn temporal_fields(t: &Temporal) -> Vec<Field> {
    let limits = [
        ("acknowledged within", t.acknowledge_within_ms),
        ("first progress within", t.first_progress_within_ms),
        ("completed within", t.completion_within_ms),
        (
            "cancellation takes effect within",
            t.cancellation_effect_within_ms,
        ),
    ];
    let mut out: Vec<Field> = limits
        .into_iter()
        .filter_map(|(name, ms)| ms.map(|ms| Field::text(name, format!("{ms} ms"))))
        .collect();
    if t.no_new_side_effect_after_cancel_ack {
        out.push(Field::text(
            "after the cancel is acknowledged",
            "no counter may move",
        ));
    }
    out
}

fn principal(a: &Auth) -> Vec<Field> {
    let mut out = Vec::new();
    if let Some(p) = &a.principal {
        out.push(Field::text("principal", p.clone()));
    }
    if let Some(t) = &a.tenant {
        out.push(Field::text("tenant", t.clone()));
    }
    let credential = serde_json::to_value(a.credential).unwrap_or(Value::Null);
    out.push(Field::text("credential", redact::compact(&credential)));
    out
}

/// What each probe does, in the words of the interaction's kind: an A2A
/// probe makes task operations, an MCP probe makes the same tool call.
fn probes(a: &Auth, interaction: &Interaction) -> Vec<Field> {
    a.probes
        .iter()
        .map(|p| {
            let who = match &p.tenant {
                Some(t) => format!("as {} (tenant {t})", p.principal),
                None => format!("as {}", p.principal),
            };
            Field::text(who, probe_text(p, interaction))
        })
        .collect()
}

fn probe_text(p: &Probe, interaction: &Interaction) -> String {
    let unknown = p
        .unknown
        .as_ref()
        .map(|u| redact::compact(&Value::Object(u.clone())));
    let mut what = match (interaction, &unknown) {
        (Interaction::A2aTask(_), _) => vec![format!(
            "operations {}",
            p.effective_operations()
                .iter()
                .map(|o| o.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )],
        (Interaction::McpToolCall(i), Some(u)) => vec![format!(
            "calls {} with the same arguments: must be answered as the call with {u} (an unknown id) is",
            redact::redact_text(&i.call.tool)
        )],
        (Interaction::McpToolCall(i), None) => vec![format!(
            "calls {} with the same arguments: must be refused",
            redact::redact_text(&i.call.tool)
        )],
        (_, _) => vec![format!(
            "the same request (probes of {} interactions are not replayed yet)",
            interaction.type_name()
        )],
    };
    if let (Interaction::A2aTask(_), Some(u)) = (interaction, &unknown) {
        what.push(format!("unknown-id call {u}"));
    }
    if let (Interaction::A2aTask(_), Some(s)) = (interaction, p.after) {
        what.push(format!("while the task is {}", s.as_str()));
    }
    what.join("; ")
}

fn other(e: &Expectations, meta: &InteractionMeta) -> Vec<Field> {
    let mut out = Vec::new();
    if e.negative.is_set() {
        let why = match e.negative.kind() {
            Some(k) => format!("must be refused ({})", k.as_str()),
            None => "must be refused".to_owned(),
        };
        out.push(Field::text("negative case", why));
    }
    if let Some(r) = &e.repeat {
        let mut repeat = serde_json::to_value(r).unwrap_or(Value::Null);
        if let Some(map) = repeat.as_object_mut() {
            // a path into the request (`$.body.requestId`), not a key
            map.remove("key");
        }
        out.push(Field::json("repeat", &repeat));
        if let Some(key) = &r.key {
            out.push(Field::text("repeat's idempotency key at", key.clone()));
        }
    }
    if let Some(r) = e.retryable {
        out.push(Field::text("retryable", r.to_string()));
    }
    if let Some(a) = &e.approval {
        let granted = if a.granted {
            "granted"
        } else {
            "not granted: must commit nothing"
        };
        let counter = a
            .counter
            .as_deref()
            .map(|c| format!(", counter {c}"))
            .unwrap_or_default();
        out.push(Field::text("approval", format!("{granted}{counter}")));
    }
    out.extend(
        meta.extra
            .iter()
            .filter(|(k, _)| k.as_str() != "_id")
            .map(|(k, v)| Field::json(k.clone(), v)),
    );
    out
}
