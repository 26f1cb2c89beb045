//! What happens to an A2A task after it was created: cancel and push
//! scenarios, and follow-up operations with their expected outcomes.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::a2a::{SendRequest, TaskState, TaskStep};
use super::errors::{A2aErrorReason, ErrorExpectation};
use super::expectations::{Auth, SideEffects, Temporal};

/// The A2A v1.0 operations (JSON-RPC method names, which are also the
/// gRPC rpc names).
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
    /// `CreateTaskPushNotificationConfig`.
    CreateTaskPushNotificationConfig,
    /// `GetTaskPushNotificationConfig`.
    GetTaskPushNotificationConfig,
    /// `ListTaskPushNotificationConfigs` (plural).
    ListTaskPushNotificationConfigs,
    /// `DeleteTaskPushNotificationConfig`.
    DeleteTaskPushNotificationConfig,
    /// `GetExtendedAgentCard`.
    GetExtendedAgentCard,
}

impl A2aOperation {
    /// Every operation.
    pub const ALL: [A2aOperation; 11] = [
        A2aOperation::SendMessage,
        A2aOperation::SendStreamingMessage,
        A2aOperation::GetTask,
        A2aOperation::CancelTask,
        A2aOperation::SubscribeToTask,
        A2aOperation::ListTasks,
        A2aOperation::CreateTaskPushNotificationConfig,
        A2aOperation::GetTaskPushNotificationConfig,
        A2aOperation::ListTaskPushNotificationConfigs,
        A2aOperation::DeleteTaskPushNotificationConfig,
        A2aOperation::GetExtendedAgentCard,
    ];

    /// The JSON-RPC method name.
    pub fn as_str(self) -> &'static str {
        use A2aOperation::*;
        match self {
            SendMessage => "SendMessage",
            SendStreamingMessage => "SendStreamingMessage",
            GetTask => "GetTask",
            CancelTask => "CancelTask",
            SubscribeToTask => "SubscribeToTask",
            ListTasks => "ListTasks",
            CreateTaskPushNotificationConfig => "CreateTaskPushNotificationConfig",
            GetTaskPushNotificationConfig => "GetTaskPushNotificationConfig",
            ListTaskPushNotificationConfigs => "ListTaskPushNotificationConfigs",
            DeleteTaskPushNotificationConfig => "DeleteTaskPushNotificationConfig",
            GetExtendedAgentCard => "GetExtendedAgentCard",
        }
    }

    /// The request params a contract may set (camelCase, as A2A v1.0 names
    /// them). The replay fills the task's `id` / `taskId` and, for sends,
    /// the `message`; `tenant` comes from the interface.
    pub fn params(self) -> &'static [&'static str] {
        use A2aOperation::*;
        match self {
            SendMessage | SendStreamingMessage | SubscribeToTask | GetExtendedAgentCard => &[],
            GetTask => &["historyLength"],
            CancelTask => &["metadata"],
            ListTasks => &[
                "contextId",
                "status",
                "pageSize",
                "pageToken",
                "historyLength",
                "statusTimestampAfter",
                "includeArtifacts",
            ],
            CreateTaskPushNotificationConfig => &["id", "url", "token", "authentication"],
            GetTaskPushNotificationConfig | DeleteTaskPushNotificationConfig => &["id"],
            ListTaskPushNotificationConfigs => &["pageSize", "pageToken"],
        }
    }

    /// The Agent Card capability the operation needs (`streaming`,
    /// `pushNotifications`, `extendedAgentCard`) and the error A2A v1.0
    /// (§3.3.4) requires when the card does not declare it.
    pub fn required_capability(self) -> Option<(&'static str, A2aErrorReason)> {
        use A2aOperation::*;
        match self {
            SendStreamingMessage | SubscribeToTask => {
                Some(("streaming", A2aErrorReason::UnsupportedOperation))
            }
            CreateTaskPushNotificationConfig
            | GetTaskPushNotificationConfig
            | ListTaskPushNotificationConfigs
            | DeleteTaskPushNotificationConfig => Some((
                "pushNotifications",
                A2aErrorReason::PushNotificationNotSupported,
            )),
            GetExtendedAgentCard => {
                Some(("extendedAgentCard", A2aErrorReason::UnsupportedOperation))
            }
            _ => None,
        }
    }

    /// The error A2A v1.0 requires when this operation addresses a task in
    /// a terminal state: messages and subscriptions are refused
    /// (`UnsupportedOperationError`), a cancel is `TaskNotCancelableError`.
    pub fn refused_on_terminal_task(self) -> Option<A2aErrorReason> {
        use A2aOperation::*;
        match self {
            SendMessage | SendStreamingMessage | SubscribeToTask => {
                Some(A2aErrorReason::UnsupportedOperation)
            }
            CancelTask => Some(A2aErrorReason::TaskNotCancelable),
            _ => None,
        }
    }
}

/// Cancel the task at a point of its sequence.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
    /// For SendMessage / SendStreamingMessage: the message. The replay
    /// sets its `contextId` to the created task's context and its `taskId`
    /// to the created task, unless `expect.newTask` is true: then the
    /// message starts a new task in the same context (A2A v1.0 §3.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<SendRequest>,
    /// Extra request params, named as in A2A v1.0 (see
    /// [`A2aOperation::params`]): `historyLength`, ListTasks filters, …
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub params: Map<String, Value>,
    /// The expected outcome when the operation succeeds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<FollowUpOutcome>,
    /// The operation must fail with this error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorExpectation>,
    /// Expected change of the observed counters between right before this
    /// operation's request and right after its answer (a stream: its end).
    /// `{}` says no counter moves. The interaction's own `sideEffects`
    /// still cover the whole interaction, this operation included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_effects: Option<SideEffects>,
    /// Time limits of this operation, from its request: only
    /// [`FollowUp::TEMPORAL_LIMITS`] apply to one operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temporal: Option<Temporal>,
}

impl FollowUp {
    /// The temporal limits a single operation has: its first answer or
    /// event, and its end (a stream read to its end).
    pub const TEMPORAL_LIMITS: [&'static str; 2] = ["acknowledgeWithinMs", "completionWithinMs"];

    /// The limits of `temporal` that are set but mean nothing for a single
    /// operation (progress and cancellation belong to the interaction).
    pub fn limits_beyond_one_operation(temporal: &Temporal) -> Vec<&'static str> {
        temporal.task_limits_set()
    }
}

/// The expected answer to a follow-up.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
    /// SendMessage: the message is sent without `taskId` and a new task is
    /// created in the same context (true), or it continues the task (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_task: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_serialise_as_their_json_rpc_method_names() {
        for op in A2aOperation::ALL {
            assert_eq!(
                serde_json::to_value(op).expect("serialisable"),
                serde_json::Value::from(op.as_str())
            );
        }
        assert_eq!(
            A2aOperation::ListTaskPushNotificationConfigs.as_str(),
            "ListTaskPushNotificationConfigs"
        );
    }

    #[test]
    fn a_terminal_task_refuses_sends_subscriptions_and_cancels() {
        use A2aErrorReason::*;
        let refusals: Vec<_> = A2aOperation::ALL
            .into_iter()
            .map(|op| op.refused_on_terminal_task())
            .collect();
        assert_eq!(
            refusals,
            [
                Some(UnsupportedOperation),
                Some(UnsupportedOperation),
                None,
                Some(TaskNotCancelable),
                Some(UnsupportedOperation),
                None,
                None,
                None,
                None,
                None,
                None
            ]
        );
    }

    #[test]
    fn streaming_push_and_extended_card_operations_name_their_capability() {
        use A2aErrorReason::*;
        assert_eq!(
            A2aOperation::SubscribeToTask.required_capability(),
            Some(("streaming", UnsupportedOperation))
        );
        assert_eq!(
            A2aOperation::DeleteTaskPushNotificationConfig.required_capability(),
            Some(("pushNotifications", PushNotificationNotSupported))
        );
        assert_eq!(A2aOperation::GetTask.required_capability(), None);
    }

    #[test]
    fn a_follow_up_keeps_its_side_effects_and_time_limits_over_a_round_trip() {
        let v = serde_json::json!({"operation": "GetTask", "expect": {},
            "sideEffects": {"records": 0, "emails": {"max": 1}},
            "temporal": {"acknowledgeWithinMs": 200, "completionWithinMs": 500}});
        let f: FollowUp = serde_json::from_value(v.clone()).expect("a follow-up");
        let limits = f.temporal.as_ref().expect("temporal");
        assert_eq!(limits.acknowledge_within_ms, Some(200));
        assert_eq!(limits.completion_within_ms, Some(500));
        assert!(FollowUp::limits_beyond_one_operation(limits).is_empty());
        assert_eq!(
            f.side_effects.as_ref().map(|s| s["records"]),
            Some(super::super::CounterChange::Exact(0))
        );
        assert_eq!(serde_json::to_value(&f).expect("serialisable"), v);
        let none: FollowUp =
            serde_json::from_value(serde_json::json!({"operation": "GetTask", "sideEffects": {}}))
                .expect("a follow-up");
        assert_eq!(
            none.side_effects,
            Some(SideEffects::new()),
            "{{}}: nothing moves"
        );
        assert_eq!(
            serde_json::to_value(&none).expect("serialisable")["sideEffects"],
            serde_json::json!({})
        );
    }

    #[test]
    fn progress_and_cancel_limits_are_beyond_one_operation() {
        let t = Temporal {
            first_progress_within_ms: Some(1),
            no_new_side_effect_after_cancel_ack: true,
            acknowledge_within_ms: Some(1),
            ..Temporal::default()
        };
        assert_eq!(
            FollowUp::limits_beyond_one_operation(&t),
            ["firstProgressWithinMs", "noNewSideEffectAfterCancelAck"]
        );
    }

    #[test]
    fn list_tasks_takes_the_v1_filter_names() {
        let p = A2aOperation::ListTasks.params();
        for name in [
            "contextId",
            "status",
            "pageSize",
            "pageToken",
            "historyLength",
        ] {
            assert!(p.contains(&name), "{name}");
        }
        assert!(!p.contains(&"page_size"));
    }
}
