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

/// How one reported state follows the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transition {
    /// The same state reported again: WORKING progress updates, the
    /// optional final `task` snapshot of a stream (A2A §11.7), GetTask on
    /// a finished task, an at-least-once push redelivery.
    Repeat,
    /// A legal move forward.
    Forward,
    /// A terminal task reported another state (`TERMINAL_STATE_REOPENED`).
    FromTerminal,
    /// A working task went back to SUBMITTED (`ILLEGAL_TRANSITION`).
    BackToSubmitted,
}

impl TaskState {
    /// The state by its ProtoJSON wire name only (`TASK_STATE_WORKING`).
    /// Unlike [`str::parse`], which also takes the short and A2A 0.3
    /// spellings a person writes, this refuses `working` or
    /// `input-required`: an agent that sends them does not speak A2A v1.0.
    pub fn from_wire(s: &str) -> Option<TaskState> {
        TaskState::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// How a report of `next` follows a report of this state: a terminal
    /// task never changes again, and a working task never returns to
    /// SUBMITTED. An interrupted task (INPUT_REQUIRED, AUTH_REQUIRED) may:
    /// the answer the client sent is a new turn, which an agent may
    /// acknowledge as submitted before it works on it (A2A does not forbid
    /// it, and an a2a-sdk executor that calls `submit()` on every turn does).
    pub fn transition_to(self, next: TaskState) -> Transition {
        if next == self {
            Transition::Repeat
        } else if self.is_terminal() {
            Transition::FromTerminal
        } else if next == TaskState::Submitted && !self.is_interrupted() {
            Transition::BackToSubmitted
        } else {
            Transition::Forward
        }
    }

    /// Whether a task in this state may next report `next` (a repeat of
    /// the same state included).
    pub fn may_move_to(self, next: TaskState) -> bool {
        matches!(
            self.transition_to(next),
            Transition::Repeat | Transition::Forward
        )
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
        assert_eq!(
            TaskState::Canceled.transition_to(TaskState::Completed),
            Transition::FromTerminal
        );
    }

    #[test]
    fn a_terminal_state_reported_again_is_a_repeat_not_a_reopening() {
        // The optional final `task` snapshot after the terminal statusUpdate.
        assert_eq!(
            TaskState::Completed.transition_to(TaskState::Completed),
            Transition::Repeat
        );
        assert!(TaskState::Canceled.may_move_to(TaskState::Canceled));
        assert_eq!(
            TaskState::Working.transition_to(TaskState::Submitted),
            Transition::BackToSubmitted
        );
    }

    #[test]
    fn wire_parsing_takes_only_protojson_names() {
        assert_eq!(
            TaskState::from_wire("TASK_STATE_INPUT_REQUIRED"),
            Some(TaskState::InputRequired)
        );
        assert_eq!(TaskState::from_wire("input-required"), None);
        assert_eq!(TaskState::from_wire("completed"), None);
        assert_eq!(TaskState::from_wire("TASK_STATE_UNSPECIFIED"), None);
    }

    #[test]
    fn active_and_interrupted_tasks_move_on_but_never_back_to_submitted() {
        assert!(TaskState::Submitted.may_move_to(TaskState::Working));
        assert!(TaskState::Working.may_move_to(TaskState::Working));
        assert!(TaskState::InputRequired.may_move_to(TaskState::Working));
        assert!(TaskState::Working.may_move_to(TaskState::Canceled));
        assert!(!TaskState::Working.may_move_to(TaskState::Submitted));
        // a new turn after an interruption may be acknowledged first
        assert!(TaskState::InputRequired.may_move_to(TaskState::Submitted));
        assert!(TaskState::AuthRequired.may_move_to(TaskState::Submitted));
    }
}
