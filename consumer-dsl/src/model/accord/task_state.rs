//! A2A v1.0 task states and the transitions between them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A2A v1.0 task states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaskState {
    /// Accepted, not started.
    #[serde(rename = "TASK_STATE_SUBMITTED")]
    Submitted,
    /// In progress.
    #[serde(rename = "TASK_STATE_WORKING")]
    Working,
    /// Waiting for input from the client (interrupted).
    #[serde(rename = "TASK_STATE_INPUT_REQUIRED")]
    InputRequired,
    /// Waiting for authorization (interrupted).
    #[serde(rename = "TASK_STATE_AUTH_REQUIRED")]
    AuthRequired,
    /// Finished successfully (terminal).
    #[serde(rename = "TASK_STATE_COMPLETED")]
    Completed,
    /// Finished with an error (terminal).
    #[serde(rename = "TASK_STATE_FAILED")]
    Failed,
    /// Canceled (terminal).
    #[serde(rename = "TASK_STATE_CANCELED")]
    Canceled,
    /// Refused by the agent (terminal).
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
pub struct UnknownTaskState(
    /// The string as written.
    pub String,
);

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

impl TaskState {
    /// Whether a task in this state may next report `next`: nothing follows
    /// a terminal state, and no task returns to SUBMITTED. A repeated state
    /// (WORKING progress updates) is allowed.
    pub fn may_move_to(self, next: TaskState) -> bool {
        !self.is_terminal() && (next != TaskState::Submitted || self == TaskState::Submitted)
    }
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
    fn completed_task_cannot_return_to_working() {
        assert!(!TaskState::Completed.may_move_to(TaskState::Working));
        assert!(!TaskState::Canceled.may_move_to(TaskState::Canceled));
    }

    #[test]
    fn active_and_interrupted_tasks_move_on_but_never_back_to_submitted() {
        assert!(TaskState::Submitted.may_move_to(TaskState::Working));
        assert!(TaskState::Working.may_move_to(TaskState::Working));
        assert!(TaskState::InputRequired.may_move_to(TaskState::Working));
        assert!(TaskState::Working.may_move_to(TaskState::Canceled));
        assert!(!TaskState::Working.may_move_to(TaskState::Submitted));
    }
}
