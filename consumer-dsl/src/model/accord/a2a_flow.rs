//! What happens to an A2A task after it was created: cancel and push
//! scenarios, and follow-up operations with their expected outcomes.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::a2a::{SendRequest, TaskState, TaskStep};
use super::errors::ErrorExpectation;
use super::expectations::Auth;

/// The A2A v1.0 operations a consumer performs on a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum A2aOperation {
    /// `SendMessage`.
    SendMessage,
    /// `SendStreamingMessage`.
    SendStreamingMessage,
    /// `GetTask`.
    GetTask,
    /// `CancelTask`.
    CancelTask,
    /// `SubscribeToTask`.
    SubscribeToTask,
    /// `ListTasks`.
    ListTasks,
}

impl A2aOperation {
    /// Every operation.
    pub const ALL: [A2aOperation; 6] = [
        A2aOperation::SendMessage,
        A2aOperation::SendStreamingMessage,
        A2aOperation::GetTask,
        A2aOperation::CancelTask,
        A2aOperation::SubscribeToTask,
        A2aOperation::ListTasks,
    ];

    /// The JSON-RPC method name.
    pub fn as_str(self) -> &'static str {
        match self {
            A2aOperation::SendMessage => "SendMessage",
            A2aOperation::SendStreamingMessage => "SendStreamingMessage",
            A2aOperation::GetTask => "GetTask",
            A2aOperation::CancelTask => "CancelTask",
            A2aOperation::SubscribeToTask => "SubscribeToTask",
            A2aOperation::ListTasks => "ListTasks",
        }
    }
}

/// Cancel the task at a point of its sequence.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelScenario {
    /// Cancel once the task reached this state; `None`: right after the
    /// task was created (first response / first stream event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<TaskState>,
    /// The state the task must be in after the cancel (usually CANCELED).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_state: Option<TaskState>,
    /// The cancel must fail with this error instead (e.g. TASK_NOT_CANCELABLE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorExpectation>,
    /// How long after the cancel acknowledgement the side-effect counters
    /// are read again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observe_ms: Option<u64>,
}

/// Push-notification delivery: the verifier registers its own receiver.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushScenario {
    /// The token the agent must echo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Authentication scheme the agent must use on the webhook (`Bearer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
    /// States that must be delivered, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect_states: Vec<TaskState>,
    /// Registering the config must fail with this error instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorExpectation>,
}

/// An operation on the task the interaction created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FollowUp {
    /// The operation.
    pub operation: A2aOperation,
    /// Run once the task reached this state; `None`: after the main
    /// sequence ended (terminal or interrupted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<TaskState>,
    /// Sent as another principal or credential than the interaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<Auth>,
    /// For SendMessage / SendStreamingMessage: the message (its `taskId` is
    /// set to the created task at replay time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<SendRequest>,
    /// Extra request params (`historyLength`, ListTasks filters, …).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub params: Map<String, Value>,
    /// The expected outcome when the operation succeeds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<FollowUpOutcome>,
    /// The operation must fail with this error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorExpectation>,
}

/// The expected answer to a follow-up.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FollowUpOutcome {
    /// The task's state in the answer (or after the operation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<TaskState>,
    /// Expected events (SubscribeToTask, SendStreamingMessage) or artifacts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<TaskStep>,
    /// ListTasks: whether the created task is in the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contains_task: Option<bool>,
    /// SendMessage: a new task is created (in the same context) rather than
    /// the old one continued.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_task: Option<bool>,
}
