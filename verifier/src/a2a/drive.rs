//! Following a task once sent: reading its stream event by event (or
//! polling `GetTask`), acting at the states the contract names (the
//! cancel, follow-ups with `after`), and its end — the stream must close,
//! `GetTask` must agree, then the follow-ups on the finished task, the
//! cancel's aftermath, push and the judgement.

use std::time::{Duration, Instant};

use accord_dsl::model::accord::{A2aOperation, TaskState};
use serde_json::{Map, json};

use super::flow::{CLOSE_GRACE, Run, Source};
use super::refusal::not_served;
use super::stream::{EventStream, Next};
use super::wire::Outcome;
use crate::finding::{Finding, Layer, codes};

impl Run<'_> {
    /// Reads events until the task ended (or the stream broke).
    pub(super) async fn drive(&mut self, mut source: Source) {
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
                            self.record.take_stream_event(&v, at, "stream");
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
                            if stream.events == 0 && self.record.task_id.is_none() {
                                self.eventless(&stream);
                                Source::Done
                            } else if self.finished() {
                                Source::Done
                            } else {
                                self.closed_early();
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

    /// The send's stream closed before the task ended: A2A 1.0 has no
    /// `final` flag, the close is the end a client reads. The task is
    /// followed by polls from here. A stream may close at an interrupted
    /// state; around a cancel it is not judged (how an agent ends a stream
    /// it was told to stop varies).
    fn closed_early(&mut self) {
        let state = self.record.last_state();
        let cancels = self.task.cancel.is_some()
            || self
                .task
                .follow_ups
                .iter()
                .any(|f| f.operation == A2aOperation::CancelTask);
        if state.is_some_and(|s| s.is_interrupted() || s.is_terminal()) || cancels {
            return;
        }
        let what = format!(
            "the SendStreamingMessage stream closed while the task was {}: a task's stream closes when the task ended",
            state.map_or("not yet in a state".to_owned(), |s| s.to_string())
        );
        self.broken_stream(what);
    }

    /// The send's stream misbehaved (`what`): the capability the card
    /// declares is broken, or, undeclared, the answer is not A2A.
    fn broken_stream(&mut self, what: String) {
        let f = if self.declares("streaming") {
            let detail = format!("{what}, though the card declares streaming");
            Finding::new(
                Layer::Protocol,
                codes::DECLARED_CAPABILITY_BROKEN,
                "stream",
                detail,
            )
        } else {
            Finding::new(Layer::Protocol, codes::MALFORMED_RESPONSE, "stream", what)
        };
        self.fail(f);
    }

    /// The send's stream closed without a single event: nothing was
    /// created to follow. One finding, on the capability the card declares.
    fn eventless(&mut self, stream: &EventStream) {
        self.gave_up = true;
        let what = format!(
            "the SendStreamingMessage stream answered HTTP {} and closed without a single event: no task was created",
            stream.status
        );
        self.broken_stream(what);
    }

    fn stream_broke(&mut self, next: Next, timeout: Duration) {
        // how the task would have gone on is not known: its end is not judged
        self.gave_up = !self.finished();
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
            Next::Deadline(limit) => {
                super::stream::deadline(limit, "stream", self.record.last_state())
            }
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
                self.gave_up = true;
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
            // while the task is in this state: before a cancel changes it
            self.probes_at(state).await;
            self.probe_streaming().await;
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
}
