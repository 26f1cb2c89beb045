//! Sends: a message matched against the interactions' requests starts a
//! task (or answers a direct message); a message for an existing task, or
//! one in its context, is a follow-up's.

use std::collections::VecDeque;

use accord_dsl::matching::{Mismatch, match_json};
use accord_dsl::model::accord::{
    A2aOperation, FollowUp, ResponseKind, SendRequest, TaskState, TaskStep,
};
use serde_json::{Value, json};

use super::tasks::stored_config;
use super::{Call, Reply, SendMatch};
use crate::a2a::error::A2aError;
use crate::a2a::store::{self, Part, Stream};
use crate::a2a::task::{self, MockTask, Planned};
use crate::report::MockMismatch;

impl Call<'_> {
    pub(super) async fn send(&self, params: &Value, streaming: bool) -> Result<Reply, A2aError> {
        let Some(message) = params.get("message").filter(|m| m.is_object()) else {
            return self.unexpected(
                "no 'message' object".into(),
                A2aError::invalid_params("'message' is required"),
            );
        };
        if message["parts"].as_array().is_none_or(Vec::is_empty) {
            let why = "'message.parts' must be a non-empty list".to_owned();
            return self.unexpected(why.clone(), A2aError::invalid_params(why));
        }
        if let Some(id) = message["taskId"].as_str().filter(|s| !s.is_empty()) {
            return self.continue_task(id, params, streaming).await;
        }
        let slot = match self.find_send(params, None) {
            SendMatch::Matched(slot) => slot,
            SendMatch::Mismatched(slot, mismatches) => {
                let (index, i) = &self.surface.interactions[slot];
                let m = MockMismatch::RequestMismatch {
                    interaction: *index,
                    description: i.meta.description.clone(),
                    method: self.op.as_str().into(),
                    path: self.path.into(),
                    mismatches,
                };
                let line = m.line();
                self.progress(&format!("refused ({line})"));
                self.shared.unexpected(m);
                return Err(A2aError::invalid_params(format!(
                    "no interaction of the contract expects this message: {line}"
                )));
            }
            SendMatch::Nothing => {
                if let Some(reply) = self.new_task_in_context(params, streaming).await {
                    return reply;
                }
                let why = "no A2A/Task interaction of the contract expects a message".to_owned();
                return self.unexpected(why.clone(), A2aError::invalid_params(why));
            }
        };
        self.credential(slot)?;
        let i = self.interaction(slot);
        if let Some(error) = &i.task.error {
            self.exercise(slot, "refused as the contract expects");
            return Err(A2aError::Expected(error.clone()));
        }
        self.exercise(slot, "answered");
        if i.task.response == ResponseKind::Message {
            let parts = i.task.steps.iter().find_map(|s| match s {
                TaskStep::Message(m) => Some(task::parts(&m.parts, self.shared.base_url())),
                _ => None,
            });
            let reply = json!({"message": {"messageId": task::new_id(),
                "contextId": message["contextId"].as_str().map_or_else(task::new_id, str::to_owned),
                "role": "ROLE_AGENT", "parts": parts.unwrap_or_default()}});
            return Ok(if streaming {
                Reply::Stream(Stream {
                    first: vec![reply],
                    follow: None,
                    what: (self.op.as_str().into(), self.path.into()),
                })
            } else {
                Reply::Json(reply)
            });
        }
        let (plan, holds) = task::plan_of(i, self.shared.base_url());
        let mut t = MockTask::new(slot, message, self.token.clone(), plan, holds);
        if let Some(config) = params["configuration"]
            .get("taskPushNotificationConfig")
            .filter(|c| c.is_object())
        {
            if let Some(error) = i.task.push.as_ref().and_then(|p| p.error.clone()) {
                return Err(A2aError::Expected(error));
            }
            t.push.push(stored_config(config, &t.id));
        }
        self.start(t, params, streaming).await
    }

    /// Stores and runs a new task, and answers as the send asks.
    async fn start(
        &self,
        mut t: MockTask,
        params: &Value,
        streaming: bool,
    ) -> Result<Reply, A2aError> {
        let id = t.id.clone();
        let created = t.created.clone();
        let events = t.run();
        self.surface.store.insert(t);
        self.surface.store.changed(&id, events);
        if streaming {
            return Ok(Reply::Stream(Stream {
                first: vec![store::wrapped_task(created)],
                follow: Some((id, 0)),
                what: (self.op.as_str().into(), self.path.into()),
            }));
        }
        let config = &params["configuration"];
        if config["returnImmediately"] == json!(true) {
            return Ok(Reply::Json(store::wrapped_task(created)));
        }
        self.surface.store.settled(&id).await;
        let history = config["historyLength"].as_u64().map(|n| n as usize);
        let snapshot = self
            .surface
            .store
            .tasks()
            .get(&id)
            .map(|t| t.snapshot(history, true));
        Ok(Reply::Json(store::wrapped_task(
            snapshot.unwrap_or(created),
        )))
    }

    /// The follow-up of interaction `slot` that sends this message: one
    /// that starts a new task in the context (`expect.newTask`) or one that
    /// continues the task.
    fn message_follow_up(
        &self,
        slot: usize,
        params: &Value,
        new_task: bool,
    ) -> Option<(usize, &FollowUp)> {
        self.interaction(slot)
            .task
            .follow_ups
            .iter()
            .enumerate()
            .find(|(_, f)| {
                matches!(
                    f.operation,
                    A2aOperation::SendMessage | A2aOperation::SendStreamingMessage
                ) && (f.expect.as_ref().and_then(|e| e.new_task) == Some(true)) == new_task
                    && f.request
                        .as_ref()
                        .is_none_or(|r| request_mismatches(r, params).is_empty())
            })
    }

    /// A message without `taskId` in the context of an existing task that a
    /// follow-up with `expect.newTask` sends.
    async fn new_task_in_context(
        &self,
        params: &Value,
        streaming: bool,
    ) -> Option<Result<Reply, A2aError>> {
        let context = params["message"]["contextId"].as_str()?;
        let (slot, k, follow) = {
            let tasks = self.surface.store.tasks();
            let owner = tasks
                .values()
                .find(|t| t.context_id == context && t.owner == self.token)?;
            let slot = owner.slot;
            let (k, f) = self.message_follow_up(slot, params, true)?;
            (slot, k, f.clone())
        };
        self.surface.store.exercised(slot, Part::FollowUp(k));
        self.progress(&format!(
            "new task in context {context} (follow-up of {})",
            self.interaction(slot).meta.description
        ));
        if let Some(error) = follow.error {
            return Some(Err(A2aError::Expected(error)));
        }
        let plan = outcome_plan(&follow, self.shared.base_url());
        let t = MockTask::new(
            slot,
            &params["message"],
            self.token.clone(),
            plan,
            Vec::new(),
        );
        Some(self.start(t, params, streaming).await)
    }

    /// A message for an existing task (`taskId`): a follow-up's.
    async fn continue_task(
        &self,
        id: &str,
        params: &Value,
        streaming: bool,
    ) -> Result<Reply, A2aError> {
        let (slot, state) = self.task_of(&json!({"id": id}))?;
        let found = self.message_follow_up(slot, params, false);
        let Some((k, follow)) = found else {
            let why = format!(
                "a message for task {id} ({}), which no follow-up of the contract sends",
                self.interaction(slot).meta.description
            );
            return self.unexpected(why.clone(), A2aError::invalid_params(why));
        };
        self.surface.store.exercised(slot, Part::FollowUp(k));
        if let Some(error) = &follow.error {
            self.progress("refused as the contract expects");
            return Err(A2aError::Expected(error.clone()));
        }
        if state.is_terminal() {
            return Err(A2aError::unsupported(format!(
                "task {id} is in a terminal state ({state})"
            )));
        }
        self.progress(&format!("continued task {id}"));
        let more = outcome_plan(follow, self.shared.base_url());
        let (cursor, events) = {
            let mut tasks = self.surface.store.tasks();
            let t = tasks
                .get_mut(id)
                .ok_or_else(|| A2aError::task_not_found(id))?;
            if t.follow_ups >= task::MAX_FOLLOW_UPS {
                return Err(A2aError::unsupported(format!(
                    "task {id} took {} follow-up messages, the most the mock keeps",
                    task::MAX_FOLLOW_UPS
                )));
            }
            if t.bytes + task::json_len(&params["message"]) > task::MAX_TASK_BYTES {
                return Err(A2aError::unsupported(format!(
                    "task {id} keeps {} bytes of messages; this one would pass the {} bytes the mock keeps per task",
                    t.bytes,
                    task::MAX_TASK_BYTES
                )));
            }
            let cursor = t.log.len();
            (cursor, t.resume(&params["message"], more))
        };
        self.surface.store.grew(id);
        self.surface.store.changed(id, events);
        if streaming {
            let snapshot = self
                .surface
                .store
                .tasks()
                .get(id)
                .map(|t| t.snapshot(None, true));
            return Ok(Reply::Stream(Stream {
                first: vec![store::wrapped_task(snapshot.unwrap_or_default())],
                follow: Some((id.to_owned(), cursor)),
                what: (self.op.as_str().into(), self.path.into()),
            }));
        }
        self.surface.store.settled(id).await;
        let snapshot = self
            .surface
            .store
            .tasks()
            .get(id)
            .map(|t| t.snapshot(None, true));
        Ok(Reply::Json(store::wrapped_task(
            snapshot.unwrap_or_default(),
        )))
    }
}

/// The events a follow-up's `expect` adds to its task.
fn outcome_plan(f: &FollowUp, base_url: &str) -> VecDeque<Planned> {
    match &f.expect {
        Some(e) => {
            let terminal = e
                .state
                .or_else(|| (e.steps.is_empty()).then_some(TaskState::Completed));
            task::plan(&e.steps, terminal, base_url)
        }
        None => task::plan(&[], Some(TaskState::Completed), base_url),
    }
}

/// How a sent request differs from the expected one: the expected
/// message, configuration and metadata under the request's rules; the ids
/// a client generates (`messageId`, `taskId`, `contextId`) and what it
/// adds are not judged.
pub(super) fn request_mismatches(expected: &SendRequest, actual: &Value) -> Vec<Mismatch> {
    let counted;
    let actual = match super::delegation::counts_as_doubles(actual) {
        Some(a) => {
            counted = a;
            &counted
        }
        None => actual,
    };
    let mut want = json!({"message": serde_json::to_value(&expected.message).unwrap_or_default()});
    if let Some(m) = want["message"].as_object_mut() {
        for key in ["messageId", "taskId", "contextId"] {
            m.remove(key);
        }
    }
    if let Some(c) = &expected.configuration {
        want["configuration"] = serde_json::to_value(c).unwrap_or_default();
    }
    if let Some(m) = &expected.metadata {
        want["metadata"] = json!(m);
    }
    let rules = expected
        .rules
        .matching_rules
        .category("body")
        .cloned()
        .unwrap_or_default();
    let mut found = match_json(&want, actual, &rules, true);
    found.extend(super::delegation::extras(expected, actual, &found));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_a_client_generates_and_fields_it_adds_are_not_judged() {
        let expected: SendRequest = serde_json::from_value(json!({
            "message": {"role": "ROLE_USER", "messageId": "m-1", "parts": [{"text": "plan a review"}]}}))
            .expect("a request");
        let sent = json!({"message": {"role": "ROLE_USER", "messageId": "uuid", "parts": [{"text": "plan a review"}],
            "metadata": {}}, "configuration": {}});
        assert!(request_mismatches(&expected, &sent).is_empty());
        let other =
            json!({"message": {"role": "ROLE_USER", "parts": [{"text": "something else"}]}});
        assert_eq!(request_mismatches(&expected, &other).len(), 1);
    }
}
