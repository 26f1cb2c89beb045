//! The spec document's A2A parts: the message sent, expected steps and
//! parts, errors, cancel, push and follow-ups.

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;

use super::ast::WithinSpec;
use super::ast_values::{CounterSpec, StateName};
use super::template::Template;
use crate::model::accord::{A2aErrorReason, A2aOperation, Credential};

/// `returns: task | message`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResponseName {
    Task,
    Message,
}

/// `send:` — the message and its configuration.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendSpec {
    /// The skill addressed (same as the interaction's `skill`).
    pub skill: Option<String>,
    #[serde(default)]
    pub stream: bool,
    pub text: Option<Template>,
    pub data: Option<Template>,
    pub media_type: Option<String>,
    #[serde(default)]
    pub parts: Vec<PartSpec>,
    pub message_id: Option<String>,
    pub context_id: Option<String>,
    /// An existing task to continue (the replay sets it for follow-ups).
    pub task_id: Option<String>,
    #[serde(default)]
    pub reference_task_ids: Vec<String>,
    #[serde(default)]
    pub extensions: Vec<String>,
    pub metadata: Option<Template>,
    #[serde(default)]
    pub accepted_output_modes: Vec<String>,
    pub history_length: Option<u32>,
    #[serde(default)]
    pub return_immediately: bool,
    /// The `A2A-Version` header instead of the pinned `1.0` (`""`: none).
    pub a2a_version: Option<String>,
}

/// A part: one of `text`, `data`, `url`, `raw`, with its media type, and
/// (expected parts only) a JSON Schema.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartSpec {
    pub text: Option<Template>,
    pub data: Option<Template>,
    pub url: Option<Template>,
    pub raw: Option<Template>,
    pub media_type: Option<String>,
    pub filename: Option<String>,
    pub schema: Option<SchemaSpec>,
}

/// A JSON Schema: inline (an object) or a file reference (a string).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Value")]
pub enum SchemaSpec {
    Inline(Value),
    File(String),
}

/// One expected event: `state`, `artifact` or `reply`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepSpec {
    pub state: Option<StateName>,
    #[serde(default)]
    pub optional: bool,
    pub message: Option<PartSpec>,
    pub artifact: Option<ArtifactSpec>,
    pub reply: Option<PartSpec>,
}

/// An expected artifact: one part written inline, or `parts:`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtifactSpec {
    pub name: Option<String>,
    #[serde(default)]
    pub parts: Vec<PartSpec>,
    pub text: Option<Template>,
    pub data: Option<Template>,
    pub url: Option<Template>,
    pub media_type: Option<String>,
    pub schema: Option<SchemaSpec>,
}

/// An expected error.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorSpec {
    pub code: Option<i64>,
    pub reason: Option<A2aErrorReason>,
    pub http_status: Option<u16>,
    pub message: Option<String>,
    pub retryable: Option<bool>,
    /// MCP: what the consumer reads in the error's `data`.
    pub data: Option<serde_json::Value>,
}

/// `cancel:` scenario.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelSpec {
    pub at: Option<StateName>,
    pub expect: Option<StateName>,
    pub error: Option<ErrorSpec>,
    pub observe_ms: Option<u64>,
}

/// `push:` scenario.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushSpec {
    pub token: Option<String>,
    pub scheme: Option<String>,
    #[serde(default)]
    pub expect: Vec<StateName>,
    pub error: Option<ErrorSpec>,
}

/// A follow-up operation on the created task.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FollowUpSpec {
    pub op: A2aOperation,
    pub after: Option<StateName>,
    #[serde(rename = "as")]
    pub principal: Option<String>,
    pub credential: Option<Credential>,
    pub send: Option<SendSpec>,
    #[serde(default)]
    pub params: serde_json::Map<String, Value>,
    pub expect: Option<FollowUpExpectSpec>,
    pub error: Option<ErrorSpec>,
    /// The counters this operation moves (`{}`: none), judged around it.
    pub side_effects: Option<IndexMap<String, CounterSpec>>,
    /// Its time limits: `acknowledge_ms`, `completion_ms`.
    pub within: Option<WithinSpec>,
}

/// The expected answer of a follow-up.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FollowUpExpectSpec {
    pub state: Option<StateName>,
    #[serde(default)]
    pub events: Vec<StepSpec>,
    pub contains_task: Option<bool>,
    pub new_task: Option<bool>,
}
