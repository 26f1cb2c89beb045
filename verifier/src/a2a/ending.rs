//! The end of a replay: the end state agreed by `GetTask`, the follow-ups
//! on the finished task (those that address a task never created are not
//! sent, said once), the probes never reached, the cancel's aftermath,
//! push, then the judgement.

use accord_dsl::model::accord::{A2aOperation, TaskState};

use super::flow::Run;
use crate::finding::{Finding, Layer, codes};

impl Run<'_> {
    /// After the events: the end state agreed by `GetTask`, the follow-ups
    /// on the finished task, the cancel's aftermath, then the judgement. A
    /// task that was never created because following it failed (an
    /// eventless or broken stream: already the finding) is judged no further.
    pub(super) async fn end(&mut self) {
        if self.record.task_id.is_none() && self.gave_up {
            let left: Vec<usize> = (0..self.followed.len())
                .filter(|i| !self.followed[*i])
                .collect();
            self.not_followed(&left, "the send created no task (reported above)");
            // nothing was done: counters that did not move, probes with no
            // task, follow from this one fault
            self.out.counters_explained = true;
            self.send_refused = true;
            self.canaries();
            return;
        }
        if let Some(id) = self.record.task_id.clone()
            && self.record.last_state().is_some_and(TaskState::is_terminal)
        {
            self.get_task(&id, "GetTask after the end").await;
        }
        let mut taskless = Vec::new();
        for i in 0..self.followed.len() {
            if self.followed[i] {
                continue;
            }
            self.followed[i] = true;
            if let Some(state) = self.task.follow_ups[i].after {
                if self.gave_up {
                    continue; // the cut-off is the finding
                }
                let path = format!("followUps[{i}].after");
                self.never_reached(state, path, "the follow-up was not run");
                continue;
            }
            if self.needs_task(i) {
                taskless.push(i);
                continue;
            }
            let op = self.task.follow_ups[i].operation;
            if self.record.reported_after_end() && op.refused_on_terminal_task().is_some() {
                let detail = format!(
                    "not sent: {} relies on the task staying terminal, and it did not (reported above)",
                    op.as_str()
                );
                let path = format!("followUps[{i}]");
                let f = Finding::new(Layer::Protocol, codes::EXPECTATION_UNCHECKED, path, detail);
                self.out.warnings.push(f);
                continue;
            }
            self.follow_up(i).await;
        }
        self.unreached_probes();
        self.cancel_aftermath().await;
        self.judge_push().await;
        self.judge();
        self.not_followed(&taskless, "the send created no task");
    }

    /// A follow-up that addresses the created task (by its id, or a
    /// message continuing it) where none was created, and the contract
    /// names none: sent, it would go out without an id, or start a task of
    /// its own.
    fn needs_task(&self, i: usize) -> bool {
        use A2aOperation::*;
        if self.record.task_id.is_some() {
            return false;
        }
        let f = &self.task.follow_ups[i];
        match f.operation {
            SendMessage | SendStreamingMessage => {
                let fresh = f.expect.as_ref().and_then(|e| e.new_task) == Some(true);
                !fresh && self.record.context_id.is_none()
            }
            GetTask | CancelTask | SubscribeToTask => !f.params.contains_key("id"),
            CreateTaskPushNotificationConfig
            | GetTaskPushNotificationConfig
            | ListTaskPushNotificationConfigs
            | DeleteTaskPushNotificationConfig => !f.params.contains_key("taskId"),
            _ => false,
        }
    }

    /// Follow-ups not sent, said once: a warning where a finding already
    /// explains why, else a finding (a contract never passes on what was
    /// not checked).
    fn not_followed(&mut self, left: &[usize], why: &str) {
        let Some(first) = left.first() else {
            return;
        };
        let names: Vec<String> = left
            .iter()
            .map(|i| {
                let op = self.task.follow_ups[*i].operation.as_str();
                format!("followUps[{i}] ({op})")
            })
            .collect();
        let detail = format!("not sent: {why}: {}", names.join(", "));
        let path = if left.len() == 1 {
            format!("followUps[{first}]")
        } else {
            "followUps".to_owned()
        };
        let f = Finding::new(Layer::Protocol, codes::EXPECTATION_UNCHECKED, path, detail);
        if self.out.findings.is_empty() {
            self.out.findings.push(f);
        } else {
            self.out.warnings.push(f);
        }
    }
}
