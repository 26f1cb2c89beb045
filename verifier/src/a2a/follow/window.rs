//! A follow-up's own `sideEffects` and `temporal`: the counters read right
//! before its request and right after its answer (a stream: its end),
//! judged as the engine judges an interaction's; and its time from the
//! request to its first answer or event and to its end.
//!
//! | expected | seen | finding |
//! | --- | --- | --- |
//! | `sideEffects.<counter>` | another change | SIDE_EFFECT_DECLARATION_MISMATCH (behavior) at `followUps[i].sideEffects.<counter>` |
//! | `sideEffects` (`{}`: nothing moves) | an undeclared counter moved | UNEXPECTED_SIDE_EFFECT (behavior) at `followUps[i].sideEffects.<counter>` |
//! | `temporal.acknowledgeWithinMs` | the first answer or event later | ACK_DEADLINE_MISSED (temporal) at `followUps[i].temporal.acknowledgeWithinMs` |
//! | `temporal.completionWithinMs` | the answer, or the stream's last event, later | COMPLETION_LATE (temporal) at `followUps[i].temporal.completionWithinMs` |
//! | another limit (a hand-written contract) | — | EXPECTATION_UNCHECKED (temporal) at `followUps[i].temporal.<name>` |
//!
//! The interaction's own `sideEffects` still cover everything it sent,
//! follow-ups included: the two judgements have different paths, and a
//! fault may show in both (the follow-up's says which operation did it).

use std::time::{Duration, Instant};

use accord_dsl::model::accord::{A2aOperation, FollowUp};
use serde_json::json;

use super::super::events::Record;
use super::super::flow::Run;
use super::super::wire::Answer;
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::observe::{Counters, judge_side_effects};

/// When a follow-up's request left, and the counters before it.
pub(super) struct Window {
    sent_at: Instant,
    before: Option<Counters>,
}

impl Run<'_> {
    /// Opens follow-up `i`'s window just before its request: the counters
    /// when it declares `sideEffects`. `None`: the run cannot go on (the
    /// observation failed, `fatal` says why).
    pub(super) async fn open_window(&mut self, f: &FollowUp) -> Option<Window> {
        let before = match &f.side_effects {
            None => None,
            // preflight refuses such a run without an observation URL
            Some(_) if self.exchange.observe_url.is_none() => {
                self.fatal = Some(VerifyError::ObservationRequired {
                    interaction: self.meta.description.clone(),
                });
                return None;
            }
            Some(_) => match self.exchange.observe().await {
                Ok(counters) => counters,
                Err(e) => {
                    self.fatal = Some(e);
                    return None;
                }
            },
        };
        Some(Window {
            sent_at: Instant::now(),
            before,
        })
    }

    /// Closes the window of follow-up `i` once `answer` (and, for a
    /// stream, its events in `own`) came: its counters and its times.
    pub(super) async fn close_window(
        &mut self,
        i: usize,
        window: Window,
        answer: &Answer,
        own: &Record,
    ) {
        let f = &self.task.follow_ups[i];
        let path = format!("followUps[{i}]");
        let (ack, done) = times(f.operation, &window, answer, own, self.started);
        if let (Some(declared), Some(before)) = (&f.side_effects, &window.before) {
            let after = match self.exchange.observe().await {
                Ok(c) => c.unwrap_or_default(),
                Err(e) => {
                    self.fatal = Some(e);
                    return;
                }
            };
            let whose = format!("{} ({path})", self.meta.description);
            match judge_side_effects(&whose, Some(declared), before, &after) {
                Ok(found) => self
                    .out
                    .findings
                    .extend(found.into_iter().map(|mut finding| {
                        finding.path = format!("{path}.sideEffects.{}", finding.path);
                        finding.detail = finding
                            .detail
                            .replace("the interaction declares", "the follow-up declares")
                            .into();
                        finding
                    })),
                Err(e) => {
                    self.fatal = Some(e);
                    return;
                }
            }
        }
        if let Some(limits) = &f.temporal {
            let found = judge_times(&path, limits, ack, done);
            self.out.findings.extend(found);
        }
    }
}

/// From the request: to the first answer or event, and to the end (a
/// stream's last event: a stream held open after it is judged as such).
fn times(
    op: A2aOperation,
    window: &Window,
    answer: &Answer,
    own: &Record,
    started: Instant,
) -> (Duration, Duration) {
    let streamed = matches!(
        op,
        A2aOperation::SendStreamingMessage | A2aOperation::SubscribeToTask
    ) && !own.events.is_empty();
    if !streamed {
        return (answer.ack, answer.total);
    }
    // events are timed since the replay's send; the window opened later
    let offset = window.sent_at.saturating_duration_since(started);
    let since_request = |at: Duration| at.saturating_sub(offset);
    let first = own
        .events
        .first()
        .map_or(answer.ack, |e| since_request(e.at));
    let last = own
        .events
        .last()
        .map_or(window.sent_at.elapsed(), |e| since_request(e.at));
    (first.max(answer.ack), last)
}

/// A follow-up's limits against its times: the two a single operation
/// has, and the others (written by hand into a contract) unchecked.
fn judge_times(
    path: &str,
    limits: &accord_dsl::model::accord::Temporal,
    ack: Duration,
    done: Duration,
) -> Vec<Finding> {
    let mut found: Vec<Finding> = FollowUp::limits_beyond_one_operation(limits)
        .into_iter()
        .map(|name| {
            Finding::new(
                Layer::Temporal,
                codes::EXPECTATION_UNCHECKED,
                format!("{path}.temporal.{name}"),
                format!(
                    "`{name}` is not measured for one follow-up: it takes {}",
                    FollowUp::TEMPORAL_LIMITS.join(" and ")
                ),
            )
        })
        .collect();
    let judged = [
        (
            limits.acknowledge_within_ms,
            ack,
            codes::ACK_DEADLINE_MISSED,
            "acknowledgeWithinMs",
        ),
        (
            limits.completion_within_ms,
            done,
            codes::COMPLETION_LATE,
            "completionWithinMs",
        ),
    ];
    for (limit, took, code, name) in judged {
        let Some(limit) = limit else { continue };
        let ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
        if ms > limit {
            let detail = format!("the follow-up took {ms} ms, its {name} is {limit} ms");
            found.push(
                Finding::new(
                    Layer::Temporal,
                    code,
                    format!("{path}.temporal.{name}"),
                    detail,
                )
                .values(Some(json!(limit)), Some(json!(ms))),
            );
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use accord_dsl::model::accord::Temporal;

    fn limits(ack: Option<u64>, done: Option<u64>) -> Temporal {
        Temporal {
            acknowledge_within_ms: ack,
            completion_within_ms: done,
            ..Temporal::default()
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_late_first_answer_and_a_late_end_are_each_their_own_code_at_the_follow_up() {
        let found = judge_times(
            "followUps[2]",
            &limits(Some(100), Some(300)),
            ms(150),
            ms(400),
        );
        let got: Vec<_> = found
            .iter()
            .map(|f| (f.reason_code, f.path.as_str(), f.layer))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "ACK_DEADLINE_MISSED",
                    "followUps[2].temporal.acknowledgeWithinMs",
                    Layer::Temporal
                ),
                (
                    "COMPLETION_LATE",
                    "followUps[2].temporal.completionWithinMs",
                    Layer::Temporal
                )
            ]
        );
        assert_eq!(found[1].actual.as_deref(), Some(&json!(400)));
    }

    #[test]
    fn limits_met_to_the_millisecond_pass() {
        assert!(
            judge_times(
                "followUps[0]",
                &limits(Some(100), Some(300)),
                ms(100),
                ms(300)
            )
            .is_empty()
        );
        assert!(judge_times("followUps[0]", &limits(None, None), ms(9_000), ms(9_000)).is_empty());
    }

    #[test]
    fn a_progress_limit_on_a_follow_up_is_reported_unchecked_not_passed() {
        let t = Temporal {
            first_progress_within_ms: Some(10),
            ..Temporal::default()
        };
        let found = judge_times("followUps[1]", &t, ms(1), ms(1));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].reason_code, "EXPECTATION_UNCHECKED");
        assert_eq!(found[0].path, "followUps[1].temporal.firstProgressWithinMs");
    }
}
