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
                .extend(output_modes(&self.record, &allowed));
        }
        if let Some(at) = self.record.terminal_at() {
            self.out.total = Some(at);
        }
        self.progress();
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
        let mut out = if skill_modes.is_empty() {
            vec![(
                "the card's defaultOutputModes",
                strings(self.card.get("defaultOutputModes")),
            )]
        } else {
            vec![("the skill's outputModes", skill_modes)]
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

    /// No answer may carry a credential the verifier holds.
    pub fn canaries(&mut self) {
        let mut canaries = Canaries::of(
            self.exchange.principals,
            self.exchange.authorization,
            self.exchange.custom_headers,
        );
        let values = self.exchange.state_values;
        if let Some(tokens) = values.get("tokens").and_then(Value::as_object) {
            for (who, t) in tokens {
                if let Some(t) = t.as_str() {
                    canaries.add(format!("principal `{who}` (issued by a state)"), t);
                }
            }
        }
        for key in ["token", "expiredToken"] {
            if let Some(t) = values.get(key).and_then(Value::as_str) {
                canaries.add(format!("the state-issued `{key}`"), t);
            }
        }
        for (body, error, path) in &self.bodies {
            self.out.findings.extend(canaries.judge(body, *error, path));
        }
    }
}
