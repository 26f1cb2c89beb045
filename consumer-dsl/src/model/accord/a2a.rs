//! `A2A/Task` interactions: the message sent and the expected task-event
//! sequence (A2A v1.0, ProtoJSON names).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::a2a_flow::{CancelScenario, FollowUp, PushScenario};
use super::errors::ErrorExpectation;
use super::rules_serde;
use crate::generators::Generators;
use crate::matching::MatchingRules;
use crate::model::InteractionMeta;

/// An `A2A/Task` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct A2aTaskInteraction {
    pub meta: InteractionMeta,
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
    /// Attributes this version does not know, kept for the round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A2A v1.0 task states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaskState {
    #[serde(rename = "TASK_STATE_SUBMITTED")]
    Submitted,
    #[serde(rename = "TASK_STATE_WORKING")]
    Working,
    #[serde(rename = "TASK_STATE_INPUT_REQUIRED")]
    InputRequired,
    #[serde(rename = "TASK_STATE_AUTH_REQUIRED")]
    AuthRequired,
    #[serde(rename = "TASK_STATE_COMPLETED")]
    Completed,
    #[serde(rename = "TASK_STATE_FAILED")]
    Failed,
    #[serde(rename = "TASK_STATE_CANCELED")]
    Canceled,
    #[serde(rename = "TASK_STATE_REJECTED")]
    Rejected,
}

impl TaskState {
    /// Every state, in lifecycle order.
    pub const ALL: [TaskState; 8] = [
        TaskState::Submitted,
        TaskState::Working,
        TaskState::InputRequired,
        TaskState::AuthRequired,
        TaskState::Completed,
        TaskState::Failed,
        TaskState::Canceled,
        TaskState::Rejected,
    ];

    /// The wire name (`TASK_STATE_WORKING`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskState::Submitted => "TASK_STATE_SUBMITTED",
            TaskState::Working => "TASK_STATE_WORKING",
            TaskState::InputRequired => "TASK_STATE_INPUT_REQUIRED",
            TaskState::AuthRequired => "TASK_STATE_AUTH_REQUIRED",
            TaskState::Completed => "TASK_STATE_COMPLETED",
            TaskState::Failed => "TASK_STATE_FAILED",
            TaskState::Canceled => "TASK_STATE_CANCELED",
            TaskState::Rejected => "TASK_STATE_REJECTED",
        }
    }

    /// Completed, failed, canceled or rejected: the task never changes again.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Failed | TaskState::Canceled | TaskState::Rejected
        )
    }

    /// Input or auth required: the task waits for the client.
    pub fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }
}

impl fmt::Display for TaskState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a string that names no task state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown task state '{0}' (expected one of SUBMITTED, WORKING, INPUT_REQUIRED, AUTH_REQUIRED, COMPLETED, FAILED, CANCELED, REJECTED, with or without the TASK_STATE_ prefix)"
)]
pub struct UnknownTaskState(pub String);

impl FromStr for TaskState {
    type Err = UnknownTaskState;

    /// Accepts `TASK_STATE_WORKING`, `WORKING`, `working`, `input-required`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let upper = s.trim().to_ascii_uppercase().replace('-', "_");
        let bare = upper.strip_prefix("TASK_STATE_").unwrap_or(&upper);
        TaskState::ALL
            .into_iter()
            .find(|st| st.as_str().strip_prefix("TASK_STATE_") == Some(bare))
            .ok_or_else(|| UnknownTaskState(s.to_string()))
    }
}

/// The role of a message's sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Role {
    #[default]
    #[serde(rename = "ROLE_USER")]
    User,
    #[serde(rename = "ROLE_AGENT")]
    Agent,
}

/// The content of an A2A part (the `oneof`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PartContent {
    Text(String),
    Data(Value),
    Url(String),
    /// Base64 bytes.
    Raw(String),
}

/// An A2A part as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Part {
    #[serde(flatten)]
    pub content: PartContent,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// An A2A message as the consumer sends it (`messageId` is generated at
/// replay time unless given).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A2aMessage {
    #[serde(default)]
    pub role: Role,
    pub parts: Vec<Part>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_task_ids: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// `SendMessageConfiguration`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendConfiguration {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accepted_output_modes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_length: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub return_immediately: bool,
}

/// The `SendMessageRequest` params; rules and generators are rooted at this
/// object (`$.message.parts[0].data.request_id`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendRequest {
    pub message: A2aMessage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<SendConfiguration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    #[serde(
        default,
        skip_serializing_if = "MatchingRules::is_empty",
        with = "rules_serde::rules"
    )]
    pub matching_rules: MatchingRules,
    #[serde(
        default,
        skip_serializing_if = "Generators::is_empty",
        with = "rules_serde::generators"
    )]
    pub generators: Generators,
}

/// Whether the agent answers `SendMessage` with a task or a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ResponseKind {
    #[default]
    Task,
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
    #[serde(flatten)]
    pub content: PartContent,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    /// A JSON Schema (2020-12) the `data` must satisfy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Value>,
    #[serde(
        default,
        skip_serializing_if = "MatchingRules::is_empty",
        with = "rules_serde::rules"
    )]
    pub matching_rules: MatchingRules,
    #[serde(
        default,
        skip_serializing_if = "Generators::is_empty",
        with = "rules_serde::generators"
    )]
    pub generators: Generators,
}

/// An expected artifact (whole, after appended chunks are joined).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactExpectation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Each expected part must be matched by a distinct actual part.
    pub parts: Vec<PartExpectation>,
}

/// An expected status update.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusStep {
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
    pub parts: Vec<PartExpectation>,
}

/// One expected event of the sequence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TaskStep {
    Status(StatusStep),
    Artifact(ArtifactExpectation),
    Message(MessageStep),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_states_parse_from_short_and_wire_names() {
        assert_eq!("working".parse(), Ok(TaskState::Working));
        assert_eq!("TASK_STATE_CANCELED".parse(), Ok(TaskState::Canceled));
        assert_eq!("input-required".parse(), Ok(TaskState::InputRequired));
        assert!("CANCELLED".parse::<TaskState>().is_err());
    }

    #[test]
    fn completed_is_terminal_and_working_is_not() {
        assert!(TaskState::Completed.is_terminal());
        assert!(!TaskState::Working.is_terminal());
        assert!(TaskState::AuthRequired.is_interrupted());
    }

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
