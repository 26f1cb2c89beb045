//! One `A2A/Task` replay: the send (`SendStreamingMessage` read event by
//! event, or `SendMessage` then `GetTask` polls), the actions the contract
//! ties to states as they are reached (the cancel, follow-ups with
//! `after`), the end (the stream must close at a terminal state, `GetTask`
//! must agree with it), the follow-ups on the finished task, and then the
//! judgement of everything seen.
//!
//! A blocking send with a cancel or a follow-up `after` a state is sent
//! with `returnImmediately: true`, so the task can be acted on while it
//! runs.

use std::time::{Duration, Instant};

use accord_dsl::generators::{GeneratorContext, GeneratorMode, apply_to_json};
use accord_dsl::model::InteractionMeta;
use accord_dsl::model::accord::{A2aErrorReason, A2aOperation, A2aTask, SendRequest, TaskState};
use serde_json::{Map, Value, json};

use super::events::Record;
use super::refusal::{Served, judge_error, not_served, refused};
use super::stream::{EventStream, Next, Opened};
use super::wire::{Answer, Client, Interface, Outcome};
use crate::driver::{Exchange, Sent};
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
    /// The send was refused where it had to be served (already a finding).
    pub send_refused: bool,
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
            send_refused: false,
        }
    }

    fn fail(&mut self, f: Finding) {
        self.out.findings.push(f);
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
        let acts_while_running =
            self.task.cancel.is_some() || self.task.follow_ups.iter().any(|f| f.after.is_some());
        let immediately = !self.task.streaming && acts_while_running;
        let mut params = send_params(
            &self.task.request,
            self.exchange.state_values,
            &Continue::default(),
            immediately,
        );
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
        if negative && answer.served() {
            self.out.served_unexpectedly = true;
            return None;
        }
        if let Some(expected) = &self.task.error {
            let old_version = self
                .task
                .a2a_version
                .as_deref()
                .is_some_and(|v| !v.starts_with("1."));
            let undeclared = self.task.streaming
                && !self.declares("streaming")
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
                .extend(judge_error(expected, &answer, "error", served));
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

    /// Reads events until the task ended (or the stream broke).
    async fn drive(&mut self, mut source: Source) {
        let timeout = self.exchange.transport.limits().request_timeout;
        let mut ended: Option<Instant> = None;
        loop {
            source = match source {
                Source::Done => return,
                Source::Poll => {
                    self.poll().await;
                    return;
                }
                Source::Stream(mut stream) => {
                    let wait = super::stream::wait_for(ended, timeout);
                    match stream.next(wait).await {
                        Next::Event(v) => {
                            let at = self.started.elapsed();
                            self.record.take_response(&v, at, "stream");
                            if let Some(next) = self.react().await {
                                self.keep_stream(&stream);
                                next
                            } else {
                                if self.finished() && ended.is_none() {
                                    ended = Some(Instant::now());
                                }
                                Source::Stream(stream)
                            }
                        }
                        Next::Closed => {
                            self.keep_stream(&stream);
                            if self.finished() {
                                Source::Done
                            } else {
                                Source::Poll
                            }
                        }
                        Next::Idle if ended.is_some() => {
                            self.keep_stream(&stream);
                            self.held_open();
                            Source::Done
                        }
                        other => {
                            self.keep_stream(&stream);
                            self.stream_broke(other, timeout);
                            Source::Done
                        }
                    }
                }
            };
        }
    }

    fn keep_stream(&mut self, stream: &EventStream) {
        self.bodies
            .push((stream.raw.clone(), false, "stream".into()));
    }

    /// A stream still open after the task ended.
    fn held_open(&mut self) {
        let Some(state) = self.record.last_state().filter(|s| s.is_terminal()) else {
            return; // an interrupted task's stream may stay open
        };
        let detail = format!(
            "the stream stayed open more than {} ms after {state}",
            CLOSE_GRACE.as_millis()
        );
        self.fail(Finding::new(
            Layer::Protocol,
            codes::STREAM_NOT_CLOSED_AT_TERMINAL,
            "stream",
            detail,
        ));
    }

    fn stream_broke(&mut self, next: Next, timeout: Duration) {
        let f = match next {
            Next::Error(e) => Finding::new(
                Layer::Schema,
                codes::RESPONSE_MISMATCH,
                "stream",
                format!(
                    "the stream ended with an error: {} {}",
                    e.reason.unwrap_or_default(),
                    e.message
                ),
            ),
            Next::Malformed(why) => {
                Finding::new(Layer::Protocol, codes::MALFORMED_RESPONSE, "stream", why)
            }
            Next::Cut(cut) => cut.finding("stream"),
            _ => Finding::new(
                Layer::Temporal,
                codes::RESPONSE_TIMEOUT,
                "stream",
                format!("no event within {} ms", timeout.as_millis()),
            ),
        };
        self.fail(f);
    }

    /// A state the contract acts at that the task never reached: missing,
    /// or — on a polled send that saw the task end — unobservable between
    /// two polls (a warning).
    pub fn never_reached(&mut self, state: TaskState, path: String, what: &str) {
        let polled_past = !self.task.streaming && self.finished();
        let (layer, code, detail, list) = if polled_past {
            let detail = format!(
                "{what}: {state} was not observed between two polls of the blocking send; send it streaming to act at every state"
            );
            (
                Layer::Protocol,
                codes::EXPECTATION_UNCHECKED,
                detail,
                &mut self.out.warnings,
            )
        } else {
            let detail = format!("{what}: the task never reached {state}");
            (
                Layer::Behavior,
                codes::EXPECTED_EVENT_MISSING,
                detail,
                &mut self.out.findings,
            )
        };
        list.push(Finding::new(layer, code, path, detail));
    }

    /// The task ended: terminal, or interrupted with nothing left to do there.
    pub fn finished(&self) -> bool {
        if self.record.terminal_at().is_some() {
            // once terminal, always: a state after it is a reopening to judge, not to wait out
            return true;
        }
        match self.record.last_state() {
            Some(s) if s.is_terminal() => true,
            Some(s) if s.is_interrupted() => !self.pending_at(s),
            _ => false,
        }
    }

    fn pending_at(&self, state: TaskState) -> bool {
        let cancel = self
            .task
            .cancel
            .as_ref()
            .is_some_and(|c| !self.cancel.done && c.at == Some(state));
        cancel
            || self
                .task
                .follow_ups
                .iter()
                .zip(&self.followed)
                .any(|(f, done)| !done && f.after == Some(state))
    }

    /// Polls `GetTask` (backing off) until the task ended or the time is up.
    pub async fn poll(&mut self) {
        let Some(id) = self.record.task_id.clone() else {
            return;
        };
        let timeout = self.exchange.transport.limits().request_timeout;
        let deadline = Instant::now() + timeout;
        let mut pause = Duration::from_millis(20);
        while !self.finished() {
            if Instant::now() >= deadline {
                let state = self
                    .record
                    .last_state()
                    .map_or("no state".into(), |s| s.to_string());
                let detail = format!(
                    "the task was still {state} after {} ms",
                    timeout.as_millis()
                );
                self.fail(Finding::new(
                    Layer::Temporal,
                    codes::RESPONSE_TIMEOUT,
                    "task",
                    detail,
                ));
                return;
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 3 / 2).min(Duration::from_millis(500));
            if !self.get_task(&id, "GetTask").await {
                return;
            }
            // a continuation that ran is polled on as the same task
            self.react().await;
        }
    }

    /// One `GetTask` into the record; false when it could not be read.
    pub async fn get_task(&mut self, id: &str, source: &str) -> bool {
        let mut params = Map::new();
        params.insert("id".into(), json!(id));
        match self.base.call(A2aOperation::GetTask, params).await {
            Ok(answer) => {
                self.watch(&answer, source);
                match &answer.outcome {
                    Outcome::Result(task) => {
                        let at = self.started.elapsed();
                        self.record.take_task(task, at, source);
                        true
                    }
                    _ => {
                        let f = not_served(&answer, source);
                        self.out.findings.extend(f);
                        false
                    }
                }
            }
            Err(cut) => {
                self.fail(cut.finding(source));
                false
            }
        }
    }

    /// Runs what the contract ties to the states reached so far (the
    /// cancel, follow-ups with `after`); a continuation of the task (a
    /// message answering INPUT_REQUIRED) returns where its events come from.
    pub async fn react(&mut self) -> Option<Source> {
        let mut next = None;
        loop {
            let Some(state) = self.record.last_state() else {
                return next;
            };
            if !self.push_tried && self.task.push.as_ref().is_some_and(|p| p.error.is_some()) {
                self.refused_push().await;
            }
            let cancel_now = self
                .task
                .cancel
                .as_ref()
                .is_some_and(|c| !self.cancel.done && c.at.is_none_or(|at| at == state));
            if cancel_now {
                self.cancel_task().await;
                continue;
            }
            let Some(i) = (0..self.followed.len())
                .find(|i| !self.followed[*i] && self.task.follow_ups[*i].after == Some(state))
            else {
                return next;
            };
            self.followed[i] = true;
            if self.follow_up(i).await {
                next = Some(if self.finished() {
                    Source::Done
                } else {
                    Source::Poll
                });
            }
        }
    }

    /// After the events: the end state agreed by `GetTask`, the follow-ups
    /// on the finished task, the cancel's aftermath, then the judgement.
    async fn end(&mut self) {
        if let Some(id) = self.record.task_id.clone()
            && self.record.last_state().is_some_and(TaskState::is_terminal)
        {
            self.get_task(&id, "GetTask after the end").await;
        }
        for i in 0..self.followed.len() {
            if self.followed[i] {
                continue;
            }
            self.followed[i] = true;
            if let Some(state) = self.task.follow_ups[i].after {
                let path = format!("followUps[{i}].after");
                self.never_reached(state, path, "the follow-up was not run");
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
        self.cancel_aftermath().await;
        self.judge_push().await;
        self.judge();
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
    let mut root = serde_json::to_value(request).unwrap_or_else(|_| json!({}));
    if let Some(o) = root.as_object_mut() {
        o.remove("matchingRules");
        o.remove("generators");
    }
    let ctx = GeneratorContext {
        provider_state_values: state_values.clone(),
        mode: GeneratorMode::Provider,
        ..GeneratorContext::default()
    };
    apply_to_json(&mut root, &request.rules.generators, &ctx, &mut rand::rng());
    let message = &mut root["message"];
    if message.get("messageId").is_none() {
        message["messageId"] = json!(format!("accord-{:032x}", rand::random::<u128>()));
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
