//! The task state machine over what was seen, pure: a terminal task never
//! changes, no task goes back to SUBMITTED, every state is an A2A v1.0
//! name, status timestamps never go backwards, no frame comes twice.

use accord_dsl::model::accord::{TaskState, Transition};
use serde_json::json;

use super::events::{Event, Observed, Record};
use crate::finding::{Finding, Layer, codes};

/// Duplicates, what could not be read, and changes after the end.
pub fn well_formed(record: &Record) -> Vec<Finding> {
    let mut out: Vec<Finding> = record
        .duplicates
        .iter()
        .map(|(source, what)| {
            let detail = format!("the same {what} event came twice ({source})");
            Finding::new(Layer::Protocol, codes::DUPLICATE_EVENT, source, detail)
        })
        .collect();
    out.extend(record.malformed.iter().map(|(source, why)| {
        Finding::new(Layer::Protocol, codes::MALFORMED_RESPONSE, source, why)
    }));
    out.extend(record.lost.iter().map(|(source, ids)| {
        let detail = format!(
            "{source} shows the ended task without the artifacts it made: {}",
            ids.join(", ")
        );
        Finding::new(
            Layer::Protocol,
            codes::MISSING_REQUIRED_ARTIFACT,
            source,
            detail,
        )
    }));
    // a terminal task never changes: the first change on each source
    let mut sources: Vec<&str> = Vec::new();
    for (source, what) in &record.after_end {
        if !sources.contains(&source.as_str()) {
            sources.push(source);
            out.push(Finding::new(
                Layer::Protocol,
                codes::TERMINAL_STATE_REOPENED,
                source,
                format!("{what} ({source})"),
            ));
        }
    }
    out
}

pub fn states(events: &[Observed]) -> impl Iterator<Item = (&Observed, Option<TaskState>, &str)> {
    events.iter().filter_map(|o| match &o.event {
        Event::Status { state, wire, .. } => Some((o, *state, wire.as_str())),
        _ => None,
    })
}

/// The state machine: a terminal task never changes, no task goes back to
/// SUBMITTED, every state is an A2A v1.0 name.
pub fn transitions(events: &[Observed]) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut last: Option<TaskState> = None;
    for (o, state, wire) in states(events) {
        let Some(state) = state else {
            let detail = format!("`{wire}` is not an A2A v1.0 task state (TASK_STATE_…)");
            out.push(
                Finding::new(
                    Layer::Protocol,
                    codes::MALFORMED_RESPONSE,
                    &o.source,
                    detail,
                )
                .values(None, Some(json!(wire))),
            );
            continue;
        };
        if let Some(prev) = last {
            let code = match prev.transition_to(state) {
                Transition::FromTerminal if !state.is_terminal() => {
                    Some(codes::TERMINAL_STATE_REOPENED)
                }
                Transition::FromTerminal | Transition::BackToSubmitted => {
                    Some(codes::ILLEGAL_TRANSITION)
                }
                _ => None,
            };
            if let Some(code) = code {
                let detail = format!("{prev} was followed by {state} ({})", o.source);
                out.push(
                    Finding::new(Layer::Protocol, code, &o.source, detail)
                        .values(Some(json!(prev.as_str())), Some(json!(state.as_str()))),
                );
            }
        }
        last = Some(state);
    }
    out
}

/// Status timestamps never go backwards.
pub fn timestamps(events: &[Observed]) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut last: Option<(chrono::DateTime<chrono::FixedOffset>, &str)> = None;
    for o in events {
        let Event::Status {
            timestamp: Some(t), ..
        } = &o.event
        else {
            continue;
        };
        let Ok(at) = chrono::DateTime::parse_from_rfc3339(t) else {
            let detail = format!("status timestamp `{t}` is not ISO-8601");
            out.push(Finding::new(
                Layer::Protocol,
                codes::MALFORMED_RESPONSE,
                &o.source,
                detail,
            ));
            continue;
        };
        if let Some((before, was)) = last
            && at < before
        {
            let detail = format!("status timestamp {t} is earlier than the one before, {was}");
            out.push(
                Finding::new(
                    Layer::Protocol,
                    codes::TIMESTAMP_REGRESSED,
                    &o.source,
                    detail,
                )
                .values(Some(json!(was)), Some(json!(t))),
            );
        }
        last = Some((at, t));
    }
    out
}
