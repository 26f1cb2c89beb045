//! The judgement of a finished replay: the sequence against the steps, the
//! artifacts' media types against the modes the skill declares and the
//! request accepts, the progress limit, and the credentials the answers
//! must not carry.

use accord_dsl::model::accord::TaskState;
use serde_json::{Value, json};

use super::flow::Run;
use super::sequence::{Expected, judge, output_modes};
use crate::canary::Canaries;
use crate::finding::{Finding, Layer, codes};

impl Run<'_> {
    /// Judges everything seen (called once, at the end).
    pub fn judge(&mut self) {
        let expected = Expected {
            steps: &self.task.steps,
            at: "steps",
            terminal: self.task.terminal_state,
            response: self.task.response,
            observable: self.task.streaming,
        };
        let mut judged = judge(&expected, &self.record);
        if self.cancel.ineffective {
            // the cancel's own finding says why the task did not end as expected
            let wanted = self.task.cancel.as_ref().and_then(|c| c.expect_state);
            if self.task.terminal_state == wanted.or(Some(TaskState::Canceled)) {
                judged
                    .findings
                    .retain(|f| f.reason_code != codes::TERMINAL_STATE_MISMATCH);
            }
        }
        if self.gave_up {
            // one fault, one finding: the cut-off says why it did not end
            judged.findings.retain(|f| {
                f.reason_code != codes::TERMINAL_STATE_MISMATCH
                    && f.reason_code != codes::EXPECTED_EVENT_MISSING
            });
        }
        let answered = std::mem::take(&mut judged.answered);
        self.out.findings.extend(judged.findings);
        self.out.warnings.extend(judged.warnings);
        let mode_judged = self
            .out
            .findings
            .iter()
            .any(|f| f.reason_code == codes::CONTENT_MODE_MISMATCH);
        if !mode_judged {
            let allowed = self.allowed_modes();
            self.out
                .findings
                .extend(output_modes(&self.record, &allowed, &answered));
        }
        if let Some(at) = self.record.terminal_at() {
            self.out.total = Some(at);
        }
        self.progress();
        self.unmeasured();
        self.canaries();
    }

    /// The output modes an artifact part must be among: the skill's (else
    /// the card's defaults), and the request's `acceptedOutputModes`.
    fn allowed_modes(&self) -> Vec<(&'static str, Vec<String>)> {
        let strings = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        };
        let skill = self.task.skill.as_deref().and_then(|id| {
            self.card
                .get("skills")?
                .as_array()?
                .iter()
                .find(|s| s.get("id").and_then(Value::as_str) == Some(id))
        });
        let skill_modes = strings(skill.and_then(|s| s.get("outputModes")));
        let defaults = strings(self.card.get("defaultOutputModes"));
        let mut out = if !skill_modes.is_empty() {
            vec![("the skill's outputModes", skill_modes)]
        } else if self.task.skill.is_none() {
            // no skill named: any skill may have answered
            let mut any = defaults;
            for s in self.card["skills"].as_array().into_iter().flatten() {
                any.extend(strings(s.get("outputModes")));
            }
            vec![("the card's output modes", any)]
        } else {
            vec![("the card's defaultOutputModes", defaults)]
        };
        if let Some(c) = &self.task.request.configuration {
            out.push((
                "the request's acceptedOutputModes",
                c.accepted_output_modes.clone(),
            ));
        }
        out
    }

    /// `firstProgressWithinMs`: from the send to the first state past
    /// SUBMITTED (a fast agent may go straight to a terminal state).
    fn progress(&mut self) {
        let Some(limit) = self
            .meta
            .expectations
            .temporal
            .as_ref()
            .and_then(|t| t.first_progress_within_ms)
        else {
            return;
        };
        let moved = self.record.events.iter().find_map(|o| match o.event {
            super::events::Event::Status { state: Some(s), .. } if s != TaskState::Submitted => {
                Some(o.at)
            }
            _ => None,
        });
        let path = "temporal.firstProgressWithinMs";
        let late = moved.is_some_and(|at| at.as_millis() > u128::from(limit));
        if late && !self.task.streaming {
            // a blocking send's first state is its answer, or a poll: when
            // the task really moved is not observable
            let detail = "no progress was observable in time: a blocking send shows only its answer and the polls";
            let f = Finding::new(Layer::Temporal, codes::EXPECTATION_UNCHECKED, path, detail);
            self.out.warnings.push(f);
            return;
        }
        match moved {
            Some(at) if at.as_millis() > u128::from(limit) => {
                let ms = u64::try_from(at.as_millis()).unwrap_or(u64::MAX);
                let detail = format!("the task first moved after {ms} ms, the limit is {limit} ms");
                self.out.findings.push(
                    Finding::new(Layer::Temporal, codes::FIRST_PROGRESS_LATE, path, detail)
                        .values(Some(json!(limit)), Some(json!(ms))),
                );
            }
            Some(_) => {}
            None if self.task.streaming => {
                let detail = "the task never moved past TASK_STATE_SUBMITTED";
                self.out.findings.push(Finding::new(
                    Layer::Temporal,
                    codes::FIRST_PROGRESS_LATE,
                    path,
                    detail,
                ));
            }
            None => self.out.warnings.push(Finding::new(
                Layer::Temporal,
                codes::EXPECTATION_UNCHECKED,
                path,
                "no progress was observable: a blocking send shows no intermediate state",
            )),
        }
    }

    /// The cancellation limits this replay could not measure: no cancel
    /// was acknowledged (none in the contract, or one that must fail), or
    /// no counters to watch. Never passed unmeasured.
    fn unmeasured(&mut self) {
        let Some(t) = self.meta.expectations.temporal.as_ref() else {
            return;
        };
        let acked = self.cancel.acked_at.is_some();
        let watched = acked && self.exchange.observe_url.is_some();
        let limits = [
            (
                "cancellationEffectWithinMs",
                t.cancellation_effect_within_ms.is_some() && !acked,
            ),
            (
                "noNewSideEffectAfterCancelAck",
                t.no_new_side_effect_after_cancel_ack && !watched,
            ),
        ];
        for (name, unmeasured) in limits {
            if unmeasured {
                let detail = format!(
                    "`{name}` could not be measured: it needs an acknowledged cancel{}",
                    if name.starts_with("noNew") {
                        " and --observe-url"
                    } else {
                        ""
                    }
                );
                let path = format!("temporal.{name}");
                self.out.findings.push(Finding::new(
                    Layer::Temporal,
                    codes::EXPECTATION_UNCHECKED,
                    path,
                    detail,
                ));
            }
        }
    }

    /// No answer may carry a credential the verifier holds.
    pub fn canaries(&mut self) {
        let canaries = Canaries::of_exchange(self.exchange);
        for (body, error, path) in &self.bodies {
            self.out.findings.extend(canaries.judge(body, *error, path));
        }
    }
}
