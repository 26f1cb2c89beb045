//! A task's observed events against the contract: pure, so every rule is
//! a unit test (the state machine's rules are in `machine`, the output
//! modes in `modes`).
//!
//! | what was seen | finding |
//! | --- | --- |
//! | a terminal task reporting a non-terminal state (also in `GetTask` after the end) | TERMINAL_STATE_REOPENED (protocol) |
//! | a terminal task reporting another terminal state; a started task back in SUBMITTED | ILLEGAL_TRANSITION (protocol) |
//! | a state that is no A2A v1.0 name (`completed`), an event of another task, an unknown event | MALFORMED_RESPONSE (protocol) |
//! | a status timestamp earlier than the one before | TIMESTAMP_REGRESSED (protocol) |
//! | the same frame twice (an artifact update, a timestamped status) | DUPLICATE_EVENT (protocol) |
//! | an expected status (not `optional`) or message never seen, in order | EXPECTED_EVENT_MISSING (behavior) |
//! | an expected artifact no artifact (of that `name`) answers | MISSING_REQUIRED_ARTIFACT (protocol) |
//! | an expected artifact whose parts differ | the part's findings (CONTENT_MODE_MISMATCH, OUTPUT_SCHEMA_VIOLATION, RESPONSE_MISMATCH) |
//! | another last state than `terminalState` | TERMINAL_STATE_MISMATCH (behavior) |
//! | a task where `response: message` expects a direct message, or the reverse | RESPONSE_MISMATCH (schema) at `response` |
//! | an artifact part whose media type the skill's (else the card's) output modes or the request's `acceptedOutputModes` do not list | CONTENT_MODE_MISMATCH (schema) |
//!
//! A blocking send shows only the states its answer and the polls catch:
//! an expected intermediate state that was never observable is a warning
//! (EXPECTATION_UNCHECKED), never a pass and never a failure.

use accord_dsl::model::accord::{
    ArtifactExpectation, MessageStep, ResponseKind, StatusStep, TaskState, TaskStep,
};
use serde_json::{Value, json};

use super::events::{Event, Observed, Record};
pub(super) use super::machine::{states, timestamps, transitions, well_formed};
pub(super) use super::modes::output_modes;
use super::parts::judge_parts;
use crate::finding::{Finding, Layer, codes};

/// What the sequence is judged against.
#[derive(Debug, Clone, Copy)]
pub struct Expected<'a> {
    pub steps: &'a [TaskStep],
    /// Where the steps are in the contract (`steps`, `followUps[0].expect.steps`).
    pub at: &'a str,
    pub terminal: Option<TaskState>,
    pub response: ResponseKind,
    /// Every state change could be seen (a stream); else only snapshots.
    pub observable: bool,
}

/// Findings and warnings.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Judged {
    pub findings: Vec<Finding>,
    pub warnings: Vec<Finding>,
    /// The artifact events the steps answered, by event index, with the
    /// step's path (`steps[1].artifact`): a later finding on one of those
    /// artifacts names it by that path.
    pub answered: Vec<(usize, String)>,
}

/// The whole judgement of one task's record.
pub fn judge(expected: &Expected<'_>, record: &Record) -> Judged {
    let mut out = Judged::default();
    out.findings.extend(well_formed(record));
    out.findings.extend(transitions(&record.events));
    out.findings.extend(timestamps(&record.events));
    steps(expected, record, &mut out);
    response_kind(expected, record, &mut out.findings);
    if let Some(want) = expected.terminal.filter(|_| expected.response.is_task()) {
        let last = record.final_state();
        if last != Some(want) {
            let got = last.map_or("no state".to_owned(), |s| s.to_string());
            let detail = format!("the task ended in {got}, the contract expects {want}");
            out.findings.push(
                Finding::new(
                    Layer::Behavior,
                    codes::TERMINAL_STATE_MISMATCH,
                    "terminalState",
                    detail,
                )
                .values(Some(json!(want.as_str())), Some(json!(got))),
            );
        }
    }
    out
}

/// Expected steps in order; other events may come between.
fn steps(expected: &Expected<'_>, record: &Record, out: &mut Judged) {
    let mut pos = 0;
    for (i, step) in expected.steps.iter().enumerate() {
        let at = format!("{}[{i}]", expected.at);
        pos = match step {
            TaskStep::Status(s) => status_step(expected, s, record, pos, &at, out),
            TaskStep::Artifact(a) => artifact_step(a, &record.events, pos, &at, out),
            TaskStep::Message(m) => message_step(m, &record.events, pos, &at, out),
        };
    }
}

fn status_step(
    expected: &Expected<'_>,
    step: &StatusStep,
    record: &Record,
    pos: usize,
    at: &str,
    out: &mut Judged,
) -> usize {
    let events = &record.events;
    let same_state =
        |o: &Observed| matches!(o.event, Event::Status { state, .. } if state == Some(step.state));
    let mut best: Option<(usize, Vec<Finding>)> = None;
    for (k, o) in events
        .iter()
        .enumerate()
        .skip(pos)
        .filter(|(_, o)| same_state(o))
    {
        let found = message_parts(&step.message_parts, &o.event, at);
        if found.is_empty() {
            return k + 1;
        }
        if best.as_ref().is_none_or(|(_, b)| found.len() < b.len()) {
            best = Some((k, found));
        }
    }
    if let Some((k, found)) = best {
        out.findings.extend(found);
        out.answered.push((k, format!("{at}.artifact")));
        return k + 1;
    }
    if step.optional {
        return pos;
    }
    let seen: Vec<&str> = states(events).map(|(_, _, w)| w).collect();
    let unobservable = !expected.observable && !step.state.is_terminal();
    let detail = if unobservable {
        format!(
            "{} was not observable: a blocking send shows only the states its answer and the polls catch (saw {}); send it streaming to check every state",
            step.state,
            seen.join(", ")
        )
    } else {
        format!(
            "{} was never reported after the steps before it (saw {})",
            step.state,
            seen.join(", ")
        )
    };
    let (code, layer, list) = if unobservable {
        (
            codes::EXPECTATION_UNCHECKED,
            Layer::Protocol,
            &mut out.warnings,
        )
    } else {
        (
            codes::EXPECTED_EVENT_MISSING,
            Layer::Behavior,
            &mut out.findings,
        )
    };
    list.push(
        Finding::new(layer, code, format!("{at}.status"), detail)
            .values(Some(json!(step.state.as_str())), Some(json!(seen))),
    );
    pos
}

fn message_parts(
    expected: &[accord_dsl::model::accord::PartExpectation],
    event: &Event,
    at: &str,
) -> Vec<Finding> {
    if expected.is_empty() {
        return Vec::new();
    }
    let parts = match event {
        Event::Status { message, .. } => parts_of(message.as_ref()),
        _ => Vec::new(),
    };
    judge_parts(expected, &parts, &format!("{at}.status.messageParts"))
}

fn parts_of(message: Option<&Value>) -> Vec<Value> {
    message
        .and_then(|m| m.get("parts"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn artifact_step(
    step: &ArtifactExpectation,
    events: &[Observed],
    pos: usize,
    at: &str,
    out: &mut Judged,
) -> usize {
    let named = |name: &Option<String>| step.name.is_none() || *name == step.name;
    let candidates: Vec<(usize, &Vec<Value>)> = events
        .iter()
        .enumerate()
        .filter_map(|(k, o)| match &o.event {
            Event::Artifact { name, parts, .. } if named(name) => Some((k, parts)),
            _ => None,
        })
        .collect();
    let parts_at = format!("{at}.artifact.parts");
    let mut best: Option<(usize, Vec<Finding>)> = None;
    for (k, parts) in candidates.iter().filter(|(k, _)| *k >= pos) {
        let found = judge_parts(&step.parts, parts, &parts_at);
        if found.is_empty() {
            out.answered.push((*k, format!("{at}.artifact")));
            return k + 1;
        }
        if best.as_ref().is_none_or(|(_, b)| found.len() < b.len()) {
            best = Some((*k, found));
        }
    }
    if let Some((k, found)) = best {
        out.findings.extend(found);
        out.answered.push((k, format!("{at}.artifact")));
        return k + 1;
    }
    let names: Vec<String> = events
        .iter()
        .filter_map(|o| match &o.event {
            Event::Artifact { name, id, .. } => Some(name.clone().unwrap_or_else(|| id.clone())),
            _ => None,
        })
        .collect();
    let wanted = step.name.as_deref().unwrap_or("an artifact");
    let detail = if candidates.is_empty() {
        format!("the task produced no artifact `{wanted}` (artifacts: {names:?})")
    } else {
        format!("`{wanted}` came before the steps it should follow")
    };
    let code = if candidates.is_empty() {
        codes::MISSING_REQUIRED_ARTIFACT
    } else {
        codes::EXPECTED_EVENT_MISSING
    };
    let layer = if candidates.is_empty() {
        Layer::Protocol
    } else {
        Layer::Behavior
    };
    out.findings
        .push(Finding::new(layer, code, format!("{at}.artifact"), detail));
    pos
}

fn message_step(
    step: &MessageStep,
    events: &[Observed],
    pos: usize,
    at: &str,
    out: &mut Judged,
) -> usize {
    let mut best: Option<(usize, Vec<Finding>)> = None;
    for (k, o) in events.iter().enumerate().skip(pos) {
        let Event::Message(m) = &o.event else {
            continue;
        };
        let found = judge_parts(
            &step.parts,
            &parts_of(Some(m)),
            &format!("{at}.message.parts"),
        );
        if found.is_empty() {
            return k + 1;
        }
        if best.as_ref().is_none_or(|(_, b)| found.len() < b.len()) {
            best = Some((k, found));
        }
    }
    match best {
        Some((k, found)) => {
            out.findings.extend(found);
            k + 1
        }
        None => {
            let detail = "no direct message from the agent came";
            out.findings.push(Finding::new(
                Layer::Behavior,
                codes::EXPECTED_EVENT_MISSING,
                format!("{at}.message"),
                detail,
            ));
            pos
        }
    }
}

fn response_kind(expected: &Expected<'_>, record: &Record, out: &mut Vec<Finding>) {
    let got_message = record
        .events
        .iter()
        .any(|o| matches!(o.event, Event::Message(_)));
    let got_task = record.task_id.is_some();
    let wrong = match expected.response {
        ResponseKind::Message => {
            got_task.then_some("expected a direct message, the agent created a task")
        }
        ResponseKind::Task => (got_message && !got_task)
            .then_some("expected a task, the agent answered with a direct message"),
    };
    if let Some(detail) = wrong {
        out.push(Finding::new(
            Layer::Schema,
            codes::RESPONSE_MISMATCH,
            "response",
            detail,
        ));
    }
}

#[cfg(test)]
#[path = "sequence_tests.rs"]
mod tests;
