//! `A2A/Task` interactions: the message sent and the expected task-event
//! sequence (A2A v1.0, ProtoJSON names).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::a2a_flow::{CancelScenario, FollowUp, PushScenario};
use super::delegation::Delegation;
use super::errors::ErrorExpectation;
use super::rules_serde::BodyRules;
pub use super::task_state::{TaskState, Transition, UnknownTaskState};
use crate::model::InteractionMeta;

/// An `A2A/Task` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct A2aTaskInteraction {
    /// The attributes every interaction has.
    pub meta: InteractionMeta,
    /// The A2A-specific part.
    pub task: A2aTask,
}

/// The A2A-specific part of an `A2A/Task` interaction.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A2aTask {
    /// The skill the consumer addresses (checked against the Agent Card).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// The `SendMessage` / `SendStreamingMessage` request.
    pub request: SendRequest,
    /// `SendStreamingMessage` (SSE) instead of `SendMessage`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub streaming: bool,
    /// The `A2A-Version` header the send carries instead of the pinned
    /// `1.0`; `""` sends none, which A2A v1.0 servers read as `0.3`. Any
    /// other major version must be refused with `VERSION_NOT_SUPPORTED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a2a_version: Option<String>,
    /// Whether the agent answers with a task or a direct message.
    #[serde(default, skip_serializing_if = "ResponseKind::is_task")]
    pub response: ResponseKind,
    /// Expected events, in order (other legal events may come between).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<TaskStep>,
    /// The state the task must end in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal_state: Option<TaskState>,
    /// The send itself must fail with this error (no task is created).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorExpectation>,
    /// Cancel the task at a point of the sequence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<CancelScenario>,
    /// Push-notification delivery for this task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push: Option<PushScenario>,
    /// Operations on the created task after (or during) the sequence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub follow_ups: Vec<FollowUp>,
    /// What the agent may do downstream on the consumer's behalf.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delegation: Option<Delegation>,
    /// Attributes this version does not know, kept for the round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The role of a message's sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Role {
    /// Sent by the client.
    #[default]
    #[serde(rename = "ROLE_USER")]
    User,
    /// Sent by the agent.
    #[serde(rename = "ROLE_AGENT")]
    Agent,
}

/// The content of an A2A part (the `oneof`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PartContent {
    /// A text part.
    Text(String),
    /// A structured JSON part.
    Data(Value),
    /// A file by URL.
    Url(String),
    /// Base64 bytes.
    Raw(String),
}

/// An A2A part as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Part {
    /// The content (`text`, `data`, `url` or `raw`).
    #[serde(flatten)]
    pub content: PartContent,
    /// The part's `mediaType`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    /// The part's `filename`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    /// The part's `metadata`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// An A2A message as the consumer sends it (`messageId` is generated at
/// replay time unless given).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A2aMessage {
    /// Always `ROLE_USER` for a sent message.
    #[serde(default)]
    pub role: Role,
    /// The parts (at least one).
    pub parts: Vec<Part>,
    /// `messageId`; generated at replay time when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// `contextId`: continue a conversation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_id: Option<String>,
    /// `taskId`: continue an existing task (set by the replay for follow-ups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// `referenceTaskIds`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_task_ids: Vec<String>,
    /// Extension URIs the message uses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
    /// The message's `metadata`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// `SendMessageConfiguration`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendConfiguration {
    /// Media types the client accepts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accepted_output_modes: Vec<String>,
    /// How much history the answer carries (`0`: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_length: Option<u32>,
    /// Return right after the task is created instead of waiting.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub return_immediately: bool,
}

/// The `SendMessageRequest` params; rules and generators are rooted at this
/// object (`$.message.parts[0].data.request_id`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendRequest {
    /// The message.
    pub message: A2aMessage,
    /// `configuration`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<SendConfiguration>,
    /// The request's `metadata`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Matching rules and generators (V4, category `body`), rooted at
    /// this object.
    #[serde(flatten)]
    pub rules: BodyRules,
}

/// Whether the agent answers `SendMessage` with a task or a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ResponseKind {
    /// A task (the default).
    #[default]
    Task,
    /// A direct message.
    Message,
}

impl ResponseKind {
    /// True for [`ResponseKind::Task`].
    pub fn is_task(&self) -> bool {
        matches!(self, ResponseKind::Task)
    }
}

/// An expected part: content example, media type, JSON Schema and matchers
/// rooted at the part object (`$.data.plan_id`, `$.text`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartExpectation {
    /// The content (`text`, `data`, `url` or `raw`).
    #[serde(flatten)]
    pub content: PartContent,
    /// The part's `mediaType`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    /// The part's `filename`, when the consumer relies on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    /// A JSON Schema (2020-12) the `data` must satisfy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Value>,
    /// Matching rules and generators (V4, category `body`), rooted at
    /// this object.
    #[serde(flatten)]
    pub rules: BodyRules,
}

/// An expected artifact (whole, after appended chunks are joined).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactExpectation {
    /// The artifact's `name`, when the consumer relies on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Each expected part must be matched by a distinct actual part.
    pub parts: Vec<PartExpectation>,
}

/// An expected status update.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusStep {
    /// The state reported.
    pub state: TaskState,
    /// Expected parts of the status message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub message_parts: Vec<PartExpectation>,
    /// The state may be skipped (e.g. SUBMITTED on a fast agent).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
}

/// An expected direct agent message (with `response: message`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageStep {
    /// The expected parts.
    pub parts: Vec<PartExpectation>,
}

/// One expected event of the sequence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TaskStep {
    /// A status update (`statusUpdate`, or the task's status).
    Status(StatusStep),
    /// An artifact (`artifactUpdate` chunks joined, or the task's artifacts).
    Artifact(ArtifactExpectation),
    /// A direct message from the agent.
    Message(MessageStep),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_flatten_their_content_like_protojson() {
        let p = Part {
            content: PartContent::Data(serde_json::json!({"a": 1})),
            media_type: Some("application/json".into()),
            filename: None,
            metadata: None,
        };
        let v = serde_json::to_value(&p).expect("serialisable");
        assert_eq!(
            v,
            serde_json::json!({"data": {"a": 1}, "mediaType": "application/json"})
        );
        assert_eq!(serde_json::from_value::<Part>(v).expect("readable"), p);
    }
}
