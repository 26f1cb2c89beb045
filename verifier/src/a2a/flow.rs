//! One `A2A/Task` replay: its state (`Run`), and the send
//! (`SendStreamingMessage` read event by event, or `SendMessage` then
//! `GetTask` polls) with the judgement of its first answer; what follows
//! the task is in `drive`.
//!
//! A blocking send with a cancel, or a follow-up or probe `after` a state,
//! is sent with `returnImmediately: true`, so the task can be acted on
//! while it runs.

use std::time::{Duration, Instant};

use accord_dsl::model::InteractionMeta;
use accord_dsl::model::accord::{A2aErrorReason, A2aOperation, A2aTask, SendRequest, TaskState};
use serde_json::{Map, Value, json};

use super::events::Record;
use super::refusal::{Served, judge_error, not_served, refused};
use super::stream::{EventStream, Opened};
use super::wire::{Answer, Client, Interface, Outcome};
use crate::driver::{Exchange, Generation, Sent};
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::observe::Counters;

/// After a terminal (or interrupted) state, how long a stream may take to
/// close before it is held open.
pub const CLOSE_GRACE: Duration = Duration::from_millis(1500);

/// What an interaction created, for its probes.
#[derive(Debug, Clone)]
pub struct Created {
    pub task_id: String,
    pub interface: Interface,
}

/// Where the next events come from.
pub(super) enum Source {
    Stream(Box<EventStream>),
    Poll,
    Done,
}

/// The cancel as it went.
#[derive(Debug, Default)]
pub(super) struct Cancelled {
    pub done: bool,
    /// Since the send, when the cancel was acknowledged (served).
    pub acked_at: Option<Duration>,
    pub acked: Option<Instant>,
    /// The counters right after the acknowledgement.
    pub counters: Option<Counters>,
    /// The state the acknowledgement reported.
    pub answered: Option<TaskState>,
    /// The task never reached the cancel's state.
    pub ineffective: bool,
    /// A CancelTask follow-up was acknowledged (no `cancel` scenario): the
    /// state it expects, for `cancellationEffectWithinMs`.
    pub by_follow_up: Option<TaskState>,
}

/// One replay in progress.
pub(super) struct Run<'a> {
    /// The send's client (its `a2aVersion`, its principal).
    pub client: Client<'a>,
    /// Every later request: `A2A-Version: 1.0`, the interaction's principal.
    pub base: Client<'a>,
    pub exchange: &'a Exchange<'a>,
    pub meta: &'a InteractionMeta,
    pub task: &'a A2aTask,
    pub card: &'a Value,
    pub started: Instant,
    pub record: Record,
    pub out: Sent,
    /// Answers to watch for leaked credentials: (body, an error, where).
    pub bodies: Vec<(Vec<u8>, bool, String)>,
    pub cancel: Cancelled,
    pub followed: Vec<bool>,
    /// The last push config id a follow-up created.
    pub push_config: Option<String>,
    /// An operational failure (the observation endpoint) that ends the run.
    pub fatal: Option<VerifyError>,
    /// The webhook receiver of the contract's `push`.
    pub receiver: Option<super::push::Receiver>,
    /// The registration that must fail was made.
    pub push_tried: bool,
    /// When a follow-up's `DeleteTaskPushNotificationConfig` was acknowledged.
    pub push_deleted: Option<std::time::Instant>,
    /// Which of `auth.probes` ran while the task ran (those with `after`).
    pub probed: Vec<bool>,
    /// The send was refused where it had to be served (already a finding).
    pub send_refused: bool,
    /// Following the task stopped before it ended (its stream broke or ran
    /// out of time; polling ran out of time): already a finding, so the
    /// states and steps it never reached are not reported as well.
    pub gave_up: bool,
    /// Where the once-per-interface probe of undeclared streaming is kept
    /// (`streaming`); `None`: not probed.
    pub streaming_probed: Option<&'a super::streaming::Probed>,
}

impl<'a> Run<'a> {
    pub fn new(
        client: Client<'a>,
        base: Client<'a>,
        exchange: &'a Exchange<'a>,
        meta: &'a InteractionMeta,
        task: &'a A2aTask,
        card: &'a Value,
    ) -> Self {
        Run {
            client,
            base,
            exchange,
            meta,
            task,
            card,
            started: Instant::now(),
            record: Record::default(),
            out: Sent::default(),
            bodies: Vec::new(),
            cancel: Cancelled::default(),
            followed: vec![false; task.follow_ups.len()],
            push_config: None,
            fatal: None,
            receiver: None,
            push_tried: false,
            push_deleted: None,
            probed: vec![
                false;
                meta.expectations
                    .auth
                    .as_ref()
                    .map_or(0, |a| a.probes.len())
            ],
            send_refused: false,
            gave_up: false,
            streaming_probed: None,
        }
    }

    pub(super) fn fail(&mut self, f: Finding) {
        self.out.findings.push(f);
    }

    /// `answer` against an expected error, and its status against the
    /// chosen A2A status mapping.
    pub fn judge_error(
        &self,
        expected: &accord_dsl::model::accord::ErrorExpectation,
        answer: &Answer,
        path: &str,
        served: Served,
    ) -> Vec<Finding> {
        let mut found = judge_error(expected, answer, path, served);
        let mapping = self.exchange.a2a_status_mapping;
        found.extend(super::refusal::status_mapping(answer, mapping, path));
        found
    }

    /// Keeps an answer's body for the canaries.
    pub fn watch(&mut self, answer: &Answer, path: &str) {
        self.bodies
            .push((answer.body.clone(), refused(answer), path.to_owned()));
    }

    /// Whether the send must be refused: `negative`, an approval not granted.
    fn refusal_expected(&self) -> bool {
        self.meta.expectations.refusal_expected()
    }

    /// Sends, follows the task to its end and judges it.
    pub async fn go(&mut self) -> Result<Sent, VerifyError> {
        let probes_while_running = self
            .meta
            .expectations
            .auth
            .as_ref()
            .is_some_and(|a| a.probes.iter().any(|p| p.after.is_some()));
        let acts_while_running = self.task.cancel.is_some()
            || self.task.follow_ups.iter().any(|f| f.after.is_some())
            || probes_while_running;
        let immediately = !self.task.streaming && acts_while_running;
        // a repeat draws the same generated values (the same seed) or keeps
        // only its key, and is a new message (a new messageId)
        let mut params = send_params_with(
            &self.task.request,
            self.exchange.state_values,
            &Continue::default(),
            immediately,
            &self.exchange.generation,
        );
        if self.exchange.generation.views {
            self.out.request = Some(Value::Object(params.clone()));
        }
        self.register_push(&mut params).await;
        let source = if self.task.streaming {
            self.send_streaming(params).await
        } else {
            self.send_blocking(params).await
        };
        if let Some(source) = source {
            self.react().await;
            self.drive(source).await;
            self.end().await;
            if self.exchange.generation.views {
                self.out.answer = Some(self.record.answer_view());
            }
        } else {
            self.canaries();
        }
        match self.fatal.take() {
            Some(e) => Err(e),
            None => Ok(std::mem::take(&mut self.out)),
        }
    }

    async fn send_streaming(&mut self, params: Map<String, Value>) -> Option<Source> {
        match self
            .client
            .open_stream(A2aOperation::SendStreamingMessage, params)
            .await
        {
            Err(cut) => {
                self.fail(cut.finding("response"));
                None
            }
            Ok(Opened::Answer(answer)) => {
                self.out.ack = Some(answer.ack);
                self.out.total = Some(answer.total);
                self.sent(answer, "SendStreamingMessage")
            }
            Ok(Opened::Events(mut stream)) => {
                self.out.ack = Some(stream.ack);
                if self.task.error.is_some() || self.refusal_expected() {
                    let timeout = self.exchange.transport.limits().request_timeout;
                    let answer = super::stream::first_answer(&mut stream, timeout).await;
                    return self.sent(answer, "SendStreamingMessage");
                }
                Some(Source::Stream(Box::new(stream)))
            }
        }
    }

    async fn send_blocking(&mut self, params: Map<String, Value>) -> Option<Source> {
        match self.client.call(A2aOperation::SendMessage, params).await {
            Err(cut) => {
                self.fail(cut.finding("response"));
                None
            }
            Ok(answer) => {
                self.out.ack = Some(answer.ack);
                self.out.total = Some(answer.total);
                self.sent(answer, "SendMessage")
            }
        }
    }

    /// Judges the send's answer: an expected refusal, or the first events.
    fn sent(&mut self, answer: Answer, source: &str) -> Option<Source> {
        self.watch(&answer, "response");
        let negative = self.refusal_expected();
        if answer.served() && (negative || self.task.error.is_some()) {
            // what the counters did is the served request's work
            self.out.counters_explained = true;
        }
        let old_version = self
            .task
            .a2a_version
            .as_deref()
            .is_some_and(|v| !v.starts_with("1."));
        if negative && answer.served() {
            self.served_negative(old_version);
            return None;
        }
        let streamed_undeclared = self.task.streaming && !self.declares("streaming");
        if let Some(expected) = &self.task.error {
            let undeclared = streamed_undeclared
                && expected
                    .reason
                    .is_none_or(|r| r == A2aErrorReason::UnsupportedOperation);
            let served = match (old_version, undeclared) {
                (true, _) => Served {
                    layer: Layer::Protocol,
                    code: codes::VERSION_NOT_REJECTED,
                },
                (_, true) => Served {
                    layer: Layer::Protocol,
                    code: codes::UNDECLARED_CAPABILITY_ACCEPTED,
                },
                _ => Served::MISMATCH,
            };
            self.out
                .findings
                .extend(self.judge_error(expected, &answer, "error", served));
            return None;
        }
        if negative {
            // refused, as expected
            return None;
        }
        if let Some(f) = not_served(&answer, "response") {
            let broken = self.broken_send(&answer);
            self.fail(broken.unwrap_or(f));
            // nothing was done: counters that did not move, probes with no
            // task, follow up from this one fault
            self.out.counters_explained = true;
            self.send_refused = true;
            return None;
        }
        if let Outcome::Result(result) = &answer.outcome {
            let at = self.started.elapsed();
            self.record.take_response(result, at, source);
        }
        Some(if self.record.task_id.is_some() {
            Source::Poll
        } else {
            Source::Done
        })
    }
}

/// What a send continues: the task and its context.
#[derive(Debug, Default)]
pub struct Continue<'a> {
    pub task_id: Option<&'a str>,
    pub context_id: Option<&'a str>,
}

/// The `SendMessageRequest` params: generators applied (rooted at the
/// request), a `messageId` when the contract gives none, the task and
/// context a follow-up continues.
pub fn send_params(
    request: &SendRequest,
    state_values: &Map<String, Value>,
    continues: &Continue<'_>,
    immediately: bool,
) -> Map<String, Value> {
    let fresh = Generation {
        seed: rand::random(),
        pin: None,
        views: false,
    };
    send_params_with(request, state_values, continues, immediately, &fresh)
}

/// [`send_params`] from this send's seed, a repeat's idempotency key kept
/// (a new `messageId` all the same: a protocol id is never repeated).
pub fn send_params_with(
    request: &SendRequest,
    state_values: &Map<String, Value>,
    continues: &Continue<'_>,
    immediately: bool,
    generation: &Generation<'_>,
) -> Map<String, Value> {
    let mut root = serde_json::to_value(request).unwrap_or_else(|_| json!({}));
    if let Some(o) = root.as_object_mut() {
        o.remove("matchingRules");
        o.remove("generators");
    }
    generation.generate_json(&mut root, &request.rules.generators, state_values);
    generation.pin_into(&mut root);
    let message = &mut root["message"];
    if message.get("messageId").is_none() {
        message["messageId"] = json!(fresh_message_id());
    }
    if let Some(t) = continues.task_id {
        message["taskId"] = json!(t);
    }
    if let Some(c) = continues.context_id {
        message["contextId"] = json!(c);
    }
    if immediately {
        root["configuration"]["returnImmediately"] = json!(true);
    }
    match root {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A `messageId` for a message the contract gives none.
fn fresh_message_id() -> String {
    format!("accord-{:032x}", rand::random::<u128>())
}
