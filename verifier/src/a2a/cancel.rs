//! The contract's `cancel`: `CancelTask` once the task reached `at`, then
//! what must follow.
//!
//! | expected | seen | finding |
//! | --- | --- | --- |
//! | the cancel fails with `error` | another error, or served | ERROR_CODE_MISMATCH (protocol) |
//! | `expectState` (default CANCELED) | never reached after the acknowledgement | CANCEL_NOT_EFFECTIVE (behavior) |
//! | `expectState` within `cancellationEffectWithinMs` | reached later | CANCEL_EFFECT_LATE (temporal) |
//! | `noNewSideEffectAfterCancelAck` | a counter grew between the acknowledgement and `observeMs` (default 1,000 ms) later | SIDE_EFFECT_AFTER_CANCEL (temporal) |
//! | (with an observation window) | a counter fell after the acknowledgement: an effect committed before the cancel was undone | CANCELED_HIDES_COMMITTED_EFFECT (behavior) |
//! | a cancel `at` a state | the task never reached it | EXPECTED_EVENT_MISSING (behavior) |
//!
//! With `observeMs` (or the no-new-side-effect flag) the engine's
//! after-reading of the counters is the one taken at the end of the window,
//! so the interaction's `sideEffects` see what the cancelled work did.

use std::time::{Duration, Instant};

use accord_dsl::model::accord::{A2aOperation, TaskState};
use serde_json::{Map, Value, json};

use super::events::Event;
use super::flow::Run;
use super::refusal::{Served, not_served};
use super::wire::Outcome;
use crate::finding::{Finding, Layer, codes};

/// The observation window when only `noNewSideEffectAfterCancelAck` is set.
const DEFAULT_WINDOW: Duration = Duration::from_millis(1000);

impl Run<'_> {
    /// Sends `CancelTask` for the task.
    pub async fn cancel_task(&mut self) {
        self.cancel.done = true;
        let Some(scenario) = self.task.cancel.as_ref() else {
            return;
        };
        let Some(id) = self.record.task_id.clone() else {
            return;
        };
        let mut params = Map::new();
        params.insert("id".into(), json!(id));
        let answer = match self.base.call(A2aOperation::CancelTask, params).await {
            Ok(a) => a,
            Err(cut) => {
                self.out.findings.push(cut.finding("cancel"));
                return;
            }
        };
        self.watch(&answer, "cancel");
        if let Some(expected) = &scenario.error {
            let found = self.judge_error(expected, &answer, "cancel.error", Served::MISMATCH);
            self.out.findings.extend(found);
            return;
        }
        let Outcome::Result(task) = &answer.outcome else {
            self.out.findings.extend(not_served(&answer, "cancel"));
            return;
        };
        // the answer is not an event of the sequence: the stream may still
        // deliver older events after it
        self.cancel.acked_at = Some(self.started.elapsed());
        self.cancel.acked = Some(Instant::now());
        crate::trace::note_cancel_acked();
        self.cancel.answered = task["status"]["state"]
            .as_str()
            .and_then(TaskState::from_wire);
        if self.window().is_some() {
            match self.exchange.observe().await {
                Ok(counters) => self.cancel.counters = counters,
                Err(e) => self.fatal = Some(e),
            }
        }
    }

    /// The interaction's temporal limits.
    fn temporal(&self) -> Option<&accord_dsl::model::accord::Temporal> {
        self.meta.expectations.temporal.as_ref()
    }

    /// How long after the acknowledgement the counters are read again.
    fn window(&self) -> Option<Duration> {
        self.exchange.observe_url?;
        let scenario = self.task.cancel.as_ref()?;
        let flag = self
            .temporal()
            .is_some_and(|t| t.no_new_side_effect_after_cancel_ack);
        match scenario.observe_ms {
            Some(ms) => Some(Duration::from_millis(ms)),
            None if flag => Some(DEFAULT_WINDOW),
            None => None,
        }
    }

    /// When `want` was first reported after the cancel: at or after
    /// `since`, or, reported just before it on a stream read a moment
    /// later, as the state the task is in (at the acknowledgement).
    fn effect_at(&self, want: TaskState, since: Duration) -> Option<Duration> {
        let after = self.record.events.iter().find_map(|o| match o.event {
            Event::Status { state, .. } if state == Some(want) && o.at >= since => Some(o.at),
            _ => None,
        });
        after.or_else(|| (self.record.last_state() == Some(want)).then_some(since))
    }

    /// After the sequence: the cancel's effect, its time and the counters
    /// through the observation window.
    pub async fn cancel_aftermath(&mut self) {
        let Some(scenario) = self.task.cancel.as_ref() else {
            // a CancelTask follow-up is the cancel the time limit is about
            if let (Some(want), Some(acked_at)) = (self.cancel.by_follow_up, self.cancel.acked_at) {
                self.effect(want, acked_at).await;
            }
            return;
        };
        if !self.cancel.done {
            match scenario.at {
                Some(at) => self.never_reached(at, "cancel.at".into(), "the cancel was not sent"),
                None => {
                    let detail = "the cancel was not sent: no task was created";
                    let f = Finding::new(
                        Layer::Behavior,
                        codes::EXPECTED_EVENT_MISSING,
                        "cancel",
                        detail,
                    );
                    self.out.findings.push(f);
                }
            }
            return;
        }
        let (Some(acked_at), Some(acked)) = (self.cancel.acked_at, self.cancel.acked) else {
            return;
        };
        let want = scenario.expect_state.unwrap_or(TaskState::Canceled);
        self.effect(want, acked_at).await;
        let Some(window) = self.window() else { return };
        tokio::time::sleep(window.saturating_sub(acked.elapsed())).await;
        let after = match self.exchange.observe().await {
            Ok(c) => c.unwrap_or_default(),
            Err(e) => {
                self.fatal = Some(e);
                return;
            }
        };
        if let Some(before) = self.cancel.counters.take() {
            self.counters_after_cancel(&before, &after, window);
        }
        self.out.after = Some(after);
    }

    async fn effect(&mut self, want: TaskState, acked_at: Duration) {
        let limit = self
            .temporal()
            .and_then(|t| t.cancellation_effect_within_ms);
        let timeout = self.exchange.transport.limits().request_timeout;
        let deadline = Instant::now() + timeout;
        let mut effect = if self.cancel.answered == Some(want) {
            Some(acked_at)
        } else {
            self.effect_at(want, acked_at)
        };
        while effect.is_none() && Instant::now() < deadline {
            let Some(id) = self.record.task_id.clone() else {
                break;
            };
            let ended = self.record.last_state().is_some_and(TaskState::is_terminal);
            if ended && self.record.last_state() != Some(want) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            if !self.get_task(&id, "GetTask after the cancel").await {
                break;
            }
            effect = self.effect_at(want, acked_at);
        }
        let Some(at) = effect else {
            self.cancel.ineffective = true;
            let got = self
                .record
                .last_state()
                .map_or("no state".into(), |s| s.to_string());
            let detail = format!("after the acknowledged cancel the task was {got}, not {want}");
            self.out.findings.push(
                Finding::new(
                    Layer::Behavior,
                    codes::CANCEL_NOT_EFFECTIVE,
                    "cancel.expectState",
                    detail,
                )
                .values(Some(json!(want.as_str())), Some(json!(got))),
            );
            return;
        };
        // acknowledged as cancelled, then finished otherwise anyway
        if let Some(end) = self
            .record
            .last_state()
            .filter(|s| s.is_terminal() && *s != want)
        {
            self.cancel.ineffective = true;
            let detail =
                format!("the cancel was acknowledged, but the task then ended {end}, not {want}");
            self.out.findings.push(
                Finding::new(
                    Layer::Behavior,
                    codes::CANCEL_NOT_EFFECTIVE,
                    "cancel.expectState",
                    detail,
                )
                .values(Some(json!(want.as_str())), Some(json!(end.as_str()))),
            );
            return;
        }
        let took = u64::try_from(at.saturating_sub(acked_at).as_millis()).unwrap_or(u64::MAX);
        if let Some(limit) = limit.filter(|l| took > *l) {
            let detail = format!(
                "{want} came {took} ms after the cancel acknowledgement, the limit is {limit} ms"
            );
            self.out.findings.push(
                Finding::new(
                    Layer::Temporal,
                    codes::CANCEL_EFFECT_LATE,
                    "temporal.cancellationEffectWithinMs",
                    detail,
                )
                .values(Some(json!(limit)), Some(json!(took))),
            );
        }
    }

    fn counters_after_cancel(
        &mut self,
        before: &crate::observe::Counters,
        after: &crate::observe::Counters,
        window: Duration,
    ) {
        let forbid_growth = self
            .temporal()
            .is_some_and(|t| t.no_new_side_effect_after_cancel_ack);
        let names: std::collections::BTreeSet<&String> =
            before.keys().chain(after.keys()).collect();
        for name in names {
            let delta =
                after.get(name).copied().unwrap_or(0) - before.get(name).copied().unwrap_or(0);
            let ms = window.as_millis();
            if self.cancel.ineffective {
                // the work went on because the cancel did nothing: that is the fault
                self.out.counters_judged.push(name.clone());
                continue;
            }
            let (layer, code, detail) = match delta {
                d if d > 0 && forbid_growth => (
                    Layer::Temporal,
                    codes::SIDE_EFFECT_AFTER_CANCEL,
                    format!(
                        "counter '{name}' grew by {d} within {ms} ms after the cancel was acknowledged"
                    ),
                ),
                d if d < 0 => (
                    Layer::Behavior,
                    codes::CANCELED_HIDES_COMMITTED_EFFECT,
                    format!(
                        "counter '{name}' fell by {} after the cancel: an effect committed before it was undone",
                        -d
                    ),
                ),
                _ => continue,
            };
            // this finding judges the counter: the engine does not again
            self.out.counters_judged.push(name.clone());
            self.out.findings.push(
                Finding::new(layer, code, name.as_str(), detail)
                    .values(Some(Value::from(0)), Some(Value::from(delta))),
            );
        }
    }
}
