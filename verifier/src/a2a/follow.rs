//! `followUps[]`: operations on the created task, as the interaction's
//! principal or another (`auth`), each with `expect` or `error`.
//!
//! | expected | answered | finding |
//! | --- | --- | --- |
//! | `error`, sent as another principal (or with no, an invalid or an expired credential) | served | CROSS_TENANT_ACCESS (or UNAUTHENTICATED_ACCESS, EXPIRED_CREDENTIAL_ACCEPTED), authorization |
//! | `error`, a message to the terminal task | served | TERMINAL_TASK_ACCEPTED_MESSAGE (protocol) |
//! | `error` of the capability the card does not declare | served | UNDECLARED_CAPABILITY_ACCEPTED (protocol) |
//! | `error` | another error, or served | ERROR_CODE_MISMATCH (protocol) |
//! | success of an operation whose capability the card declares | refused as unsupported | DECLARED_CAPABILITY_BROKEN (protocol) |
//! | success | refused | RESPONSE_MISMATCH (schema) |
//! | `expect.state`, `containsTask`, `newTask` | another answer | RESPONSE_MISMATCH (schema) |
//! | (a message, which carries the task's context) | a task of another context | MALFORMED_RESPONSE (protocol) |
//! | `expect.steps` | the events of its answer or stream | as for the interaction's steps |
//!
//! A message that continues the task (`SendMessage` with its `taskId`,
//! e.g. the input an INPUT_REQUIRED task asked for) adds its events to the
//! task's own, so `terminalState` is judged on how the task really ended.
//!
//! A follow-up's own `sideEffects` and `temporal` are judged around its
//! request (`window`).

mod window;

use accord_dsl::model::accord::{A2aOperation, Auth, Credential, FollowUp, ResponseKind};
use serde_json::{Map, Value, json};

use super::capability::leaks;
use super::events::Record;
use super::flow::{Continue, Run, send_params};
use super::refusal::not_served;
use super::sequence::{Expected, judge};
use super::stream::{Opened, collect};
use super::wire::{Answer, Client, Outcome};
use crate::driver::Authorization;
use crate::finding::{Finding, Layer, codes};

impl Run<'_> {
    /// Runs follow-up `i`; true when it continued the task.
    pub async fn follow_up(&mut self, i: usize) -> bool {
        let f = &self.task.follow_ups[i];
        let path = format!("followUps[{i}]");
        let token;
        let client = match f.auth.as_ref() {
            None => self.base,
            Some(auth) => match self.credential_of(auth) {
                Ok(t) => {
                    token = t;
                    self.base.with_authorization(match &token {
                        Some(t) => Authorization::Bearer(t),
                        None => Authorization::Without,
                    })
                }
                Err(detail) => {
                    let p = format!("{path}.auth");
                    let f = Finding::new(
                        Layer::Authorization,
                        codes::EXPECTATION_UNCHECKED,
                        p,
                        detail,
                    );
                    self.out.findings.push(f);
                    return false;
                }
            },
        };
        let terminal = self.record.last_state().is_some_and(|s| s.is_terminal());
        let continues =
            is_send(f.operation) && f.expect.as_ref().and_then(|e| e.new_task) != Some(true);
        let params = self.follow_params(f, continues);
        let named_context = params
            .get("message")
            .and_then(|m| m.get("contextId"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Some(window) = self.open_window(f).await else {
            return false;
        };
        let mut own = Record::default();
        let Some(answer) = self
            .exchange_follow(
                &client,
                (f.operation, f.error.is_some()),
                params,
                &mut own,
                &path,
            )
            .await
        else {
            return false;
        };
        self.close_window(i, window, &answer, &own).await;
        if self.fatal.is_some() {
            return false;
        }
        // a message naming a context is answered in that context (a
        // message that had to be refused is judged as such)
        if let (Some(named), Some(got)) = (&named_context, &own.context_id)
            && named != got
            && answer.served()
            && f.error.is_none()
        {
            let detail = format!("the message named context {named}; its task is in context {got}");
            self.out.findings.push(Finding::new(
                Layer::Protocol,
                codes::MALFORMED_RESPONSE,
                path.clone(),
                detail,
            ));
            return false;
        }
        if let Some(expected) = &f.error {
            let served = self.served_code(f, expected, terminal && continues);
            let mut found = self.judge_error(expected, &answer, &format!("{path}.error"), served);
            // a refusal that reads as the one of an id nobody has tells
            // nothing: its code is the mismatch, not a leak
            let task = self.record.task_id.clone().unwrap_or_default();
            if served.code == codes::CROSS_TENANT_ACCESS
                && leaks(expected, &found)
                && !super::probe::refused_as_unknown(&client, f.operation, &answer, &task).await
            {
                let detail = "another principal is refused otherwise than for a task that does not exist: the refusal tells the task exists";
                found = vec![Finding::new(
                    Layer::Authorization,
                    codes::EXISTENCE_LEAK,
                    format!("{path}.error"),
                    detail,
                )];
            }
            self.out.findings.extend(found);
            return false;
        }
        if let Some(refused) = not_served(&answer, &path) {
            self.out.findings.push(
                self.broken_capability(f.operation, &answer, &path)
                    .unwrap_or(refused),
            );
            return false;
        }
        if f.operation == A2aOperation::CreateTaskPushNotificationConfig
            && let Outcome::Result(cfg) = &answer.outcome
        {
            self.push_config = cfg.get("id").and_then(Value::as_str).map(str::to_owned);
        }
        if f.operation == A2aOperation::DeleteTaskPushNotificationConfig
            && self.push_deleted.is_none()
        {
            // from now on the receiver must hear nothing more
            self.push_deleted = Some(std::time::Instant::now());
        }
        self.expect(f, &answer, &own, &path);
        if f.operation == A2aOperation::CancelTask
            && self.task.cancel.is_none()
            && self.cancel.acked_at.is_none()
            && let Outcome::Result(task) = &answer.outcome
        {
            // the cancel `cancellationEffectWithinMs` measures
            self.cancel.done = true;
            self.cancel.acked_at = Some(self.started.elapsed());
            self.cancel.acked = Some(std::time::Instant::now());
            self.cancel.answered = task["status"]["state"]
                .as_str()
                .and_then(accord_dsl::model::accord::TaskState::from_wire);
            let want = f.expect.as_ref().and_then(|e| e.state);
            self.cancel.by_follow_up =
                Some(want.unwrap_or(accord_dsl::model::accord::TaskState::Canceled));
        }
        if continues {
            self.record.events.extend(own.events);
            self.record.duplicates.extend(own.duplicates);
            self.record.malformed.extend(own.malformed);
            self.record.after_end.extend(own.after_end);
            self.record.lost.extend(own.lost);
        }
        continues
    }

    /// The token a follow-up's `auth` presents (`None`: no credential).
    fn credential_of(&self, auth: &Auth) -> Result<Option<String>, String> {
        let values = self.exchange.state_values;
        let state = |k: &str| values.get(k).and_then(Value::as_str).map(str::to_owned);
        Ok(match auth.credential {
            Credential::None => None,
            Credential::Invalid => Some("accord-invalid-credential".into()),
            Credential::Expired => match state("expiredToken") {
                Some(t) => Some(t),
                None => {
                    return Err("no state issued an expired credential (`expiredToken`)".into());
                }
            },
            Credential::Valid => {
                let Some(p) = &auth.principal else {
                    return Ok(match self.exchange.authorization {
                        Authorization::Bearer(t) => Some(t.to_owned()),
                        _ => None,
                    });
                };
                let issued = values
                    .get("tokens")
                    .and_then(|t| t.get(p))
                    .and_then(Value::as_str);
                let configured = self.exchange.principals.get(p).map(|t| t.expose());
                match issued.or(configured) {
                    Some(t) => Some(t.to_owned()),
                    None => {
                        return Err(format!(
                            "no token for principal `{p}`: neither a state reply's `tokens` nor --principal names it"
                        ));
                    }
                }
            }
        })
    }

    fn follow_params(&self, f: &FollowUp, continues: bool) -> Map<String, Value> {
        use A2aOperation::*;
        let task = self.record.task_id.as_deref();
        if is_send(f.operation) {
            let request = f.request.clone().unwrap_or_default();
            let at = Continue {
                task_id: task.filter(|_| continues),
                context_id: self.record.context_id.as_deref(),
            };
            let mut params = send_params(&request, self.exchange.state_values, &at, false);
            params.extend(f.params.clone());
            return params;
        }
        let mut params = f.params.clone();
        let mut set = |k: &str, v: Option<&str>| {
            if let Some(v) = v {
                params.entry(k.to_owned()).or_insert_with(|| json!(v));
            }
        };
        match f.operation {
            GetTask | CancelTask | SubscribeToTask => set("id", task),
            CreateTaskPushNotificationConfig => {
                set("taskId", task);
                set("url", Some(UNUSED_WEBHOOK));
            }
            GetTaskPushNotificationConfig | DeleteTaskPushNotificationConfig => {
                set("taskId", task);
                set("id", self.push_config.as_deref());
            }
            ListTaskPushNotificationConfigs => set("taskId", task),
            _ => {}
        }
        params
    }

    /// Sends the follow-up; a streaming one is read to its end into `own`.
    async fn exchange_follow(
        &mut self,
        client: &Client<'_>,
        (op, refusal): (A2aOperation, bool),
        params: Map<String, Value>,
        own: &mut Record,
        path: &str,
    ) -> Option<Answer> {
        let timeout = self.exchange.transport.limits().request_timeout;
        let streaming = matches!(
            op,
            A2aOperation::SendStreamingMessage | A2aOperation::SubscribeToTask
        );
        let opened = if streaming {
            client.open_stream(op, params).await
        } else {
            client.call(op, params).await.map(Opened::Answer)
        };
        let answer = match opened {
            Err(cut) => {
                self.out.findings.push(cut.finding(path));
                return None;
            }
            Ok(Opened::Answer(answer)) => answer,
            Ok(Opened::Events(mut stream)) if refusal => {
                let answer = super::stream::first_answer(&mut stream, timeout).await;
                self.bodies
                    .push((stream.raw.clone(), false, path.to_owned()));
                return Some(answer);
            }
            Ok(Opened::Events(stream)) => {
                let (status, ack) = (stream.status, stream.ack);
                let (found, raw) = collect(stream, own, path, timeout, self.started).await;
                self.out.findings.extend(found);
                self.bodies.push((raw, false, path.to_owned()));
                return Some(Answer {
                    status,
                    headers: Vec::new(),
                    outcome: Outcome::Result(json!({"stream": true})),
                    ack,
                    total: ack,
                    body: Vec::new(),
                });
            }
        };
        self.watch(&answer, path);
        if let Outcome::Result(result) = &answer.outcome {
            let at = self.started.elapsed();
            match op {
                A2aOperation::GetTask | A2aOperation::CancelTask => own.take_task(result, at, path),
                A2aOperation::SendMessage => own.take_response(result, at, path),
                _ => {}
            }
        }
        Some(answer)
    }

    /// A served follow-up against its `expect`.
    fn expect(&mut self, f: &FollowUp, answer: &Answer, own: &Record, path: &str) {
        let Some(expect) = &f.expect else { return };
        let mut mismatch = |what: &str, want: Value, got: Value| {
            let detail = format!("expected {what} {want}, got {got}");
            self.out.findings.push(
                Finding::new(
                    Layer::Schema,
                    codes::RESPONSE_MISMATCH,
                    format!("{path}.expect.{what}"),
                    detail,
                )
                .values(Some(want), Some(got)),
            );
        };
        // a GetTask that disagrees with how the task ended is already a
        // transition finding of the task's own events
        let disagreed = f.operation == A2aOperation::GetTask && self.record.reported_after_end();
        if let Some(want) = expect.state.filter(|_| !disagreed) {
            let got = own.last_state().map_or(Value::Null, |s| json!(s.as_str()));
            if got != json!(want.as_str()) {
                mismatch("state", json!(want.as_str()), got);
            }
        }
        if let Some(want) = expect.contains_task {
            let id = self.record.task_id.as_deref();
            let listed = match &answer.outcome {
                Outcome::Result(r) => r["tasks"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|t| t["id"].as_str() == id),
                _ => false,
            };
            if listed != want {
                mismatch("containsTask", json!(want), json!(listed));
            }
        }
        if let Some(want) = expect.new_task {
            let fresh = own.task_id.is_some() && own.task_id != self.record.task_id;
            if fresh != want {
                mismatch("newTask", json!(want), json!(fresh));
            }
        }
        if !expect.steps.is_empty() {
            let at = format!("{path}.expect.steps");
            let expected = Expected {
                steps: &expect.steps,
                at: &at,
                terminal: None,
                response: ResponseKind::Task,
                observable: matches!(
                    f.operation,
                    A2aOperation::SendStreamingMessage | A2aOperation::SubscribeToTask
                ),
            };
            let judged = judge(&expected, own);
            self.out.findings.extend(judged.findings);
            self.out.warnings.extend(judged.warnings);
        }
    }
}

/// Where a push config the contract registers without a URL points: a
/// loopback port nothing listens on (the discard port).
const UNUSED_WEBHOOK: &str = "http://127.0.0.1:9/accord-unused-webhook";

fn is_send(op: A2aOperation) -> bool {
    matches!(
        op,
        A2aOperation::SendMessage | A2aOperation::SendStreamingMessage
    )
}
