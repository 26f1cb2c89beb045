//! The replay's side of the contract's `push` (see `push.rs` for the
//! receiver and the judgements): the receiver registered with the send, a
//! registration that must fail made once the task exists, and the
//! deliveries judged at the end.

use std::time::Duration;

use accord_dsl::model::accord::TaskState;
use serde_json::{Value, json};

use super::push::{Receiver, after_delete, judge};
use crate::finding::{Finding, Layer, codes};

impl super::flow::Run<'_> {
    /// Starts the receiver and registers it with the send's params, unless
    /// the registration must fail (then it is made once the task exists).
    pub async fn register_push(&mut self, params: &mut serde_json::Map<String, Value>) {
        let Some(push) = self.task.push.as_ref().filter(|p| p.error.is_none()) else {
            return;
        };
        match Receiver::start().await {
            Ok(receiver) => {
                let config = receiver.config(push);
                let configuration = params.entry("configuration").or_insert_with(|| json!({}));
                configuration["taskPushNotificationConfig"] = config;
                // a follow-up that gets or deletes a config means this one
                self.push_config = Some(receiver.id.clone());
                self.receiver = Some(receiver);
            }
            Err(e) => {
                let detail =
                    format!("the verifier's webhook receiver could not listen on loopback: {e}");
                let f = Finding::new(
                    Layer::Protocol,
                    codes::EXPECTATION_UNCHECKED,
                    "push",
                    detail,
                );
                self.out.findings.push(f);
            }
        }
    }

    /// A registration that must fail, once the task exists.
    pub async fn refused_push(&mut self) {
        let Some(push) = self.task.push.as_ref() else {
            return;
        };
        let (Some(expected), Some(id)) = (&push.error, self.record.task_id.clone()) else {
            return;
        };
        self.push_tried = true;
        let mut params = serde_json::Map::new();
        params.insert("taskId".into(), json!(id));
        params.insert(
            "url".into(),
            json!("http://127.0.0.1:9/accord-unused-webhook"),
        );
        if let Some(t) = &push.token {
            params.insert("token".into(), json!(t));
        }
        let op = accord_dsl::model::accord::A2aOperation::CreateTaskPushNotificationConfig;
        let answer = match self.base.call(op, params).await {
            Ok(a) => a,
            Err(cut) => {
                self.out.findings.push(cut.finding("push"));
                return;
            }
        };
        self.watch(&answer, "push");
        let served = if self.declares("pushNotifications") {
            super::refusal::Served::MISMATCH
        } else {
            super::refusal::Served {
                layer: Layer::Protocol,
                code: codes::UNDECLARED_CAPABILITY_ACCEPTED,
            }
        };
        let found = self.judge_error(expected, &answer, "push.error", served);
        self.out.findings.extend(found);
    }

    /// At the end: what the receiver got against the scenario.
    pub async fn judge_push(&mut self) {
        let (Some(push), Some(receiver)) = (self.task.push.as_ref(), self.receiver.take()) else {
            return;
        };
        let limit = self
            .exchange
            .transport
            .limits()
            .request_timeout
            .min(Duration::from_secs(3));
        let mut got = receiver.settle(push, limit).await;
        if self.push_deleted.is_some() {
            got = receiver.linger(limit).await;
        }
        self.out.findings.extend(judge(
            push,
            &receiver.secret,
            &got,
            self.record.task_id.as_deref(),
        ));
        if let Some(deleted) = self.push_deleted {
            // the states first seen after the delete (and what was in flight)
            let since = deleted.saturating_duration_since(self.started) + super::push::IN_FLIGHT;
            let late: Vec<TaskState> = TaskState::ALL
                .into_iter()
                .filter(|s| self.record.first_seen(*s).is_some_and(|at| at > since))
                .collect();
            self.out.findings.extend(after_delete(&got, &late));
        }
    }
}
