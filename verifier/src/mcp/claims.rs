//! A listed tool's annotations, checked on every served call to it (with an
//! observation URL for the counters): the hints against what the call did
//! (`hints.rs`), and `idempotentHint: true` by sending the same call again.
//!
//! | the second, identical call | finding (behavior) |
//! | --- | --- |
//! | moved a counter | IDEMPOTENCY_VIOLATION at the counter |
//! | was answered otherwise (refused, or another value of a field the expected `structuredContent` names, times aside: `*_at`, `updatedAt`, `…time…`, `…date…`) | IDEMPOTENCY_VIOLATION at the result |
//!
//! A second call that moved a counter is not also judged on its answer
//! (new work has new values). A read-only tool is idempotent by its nature: the read-only check covers
//! it without a second call.

use accord_dsl::model::accord::McpToolCall;
use serde_json::{Map, Value};

use super::driver::McpDriver;
use super::hints::judge_hints;
use super::resend::Answer;
use super::wire::{Endpoint, Era};
use crate::driver::Exchange;
use crate::finding::{Finding, Layer, codes};
use crate::observe::Counters;

/// Whether the tool claims idempotency that takes a second call to check.
pub fn claims_idempotency(tool: &Value) -> bool {
    let hint = |name: &str| tool["annotations"].get(name).and_then(Value::as_bool);
    hint("idempotentHint") == Some(true) && hint("readOnlyHint") != Some(true)
}

/// What the first call was, for the claims' checks.
pub(super) struct FirstCall<'a> {
    pub call: &'a McpToolCall,
    pub params: Map<String, Value>,
    /// What a caller tells of its answer.
    pub answer: Answer,
    /// The counters before it, when observed.
    pub before: Option<Counters>,
    pub negative: bool,
}

impl McpDriver {
    /// The findings of `tool`'s claims about the call just made, and the
    /// counters read after the last request made (the engine's
    /// after-observation, when read).
    pub(super) async fn check_claims(
        &self,
        tool: &Value,
        first: FirstCall<'_>,
        endpoint: &Endpoint<'_>,
        era: Era,
        exchange: &Exchange<'_>,
    ) -> (Vec<Finding>, Option<Counters>) {
        let mut out = Vec::new();
        let mid = match &first.before {
            Some(_) => exchange.observe().await.ok().flatten(),
            None => None,
        };
        if let (Some(b), Some(m)) = (&first.before, &mid) {
            out.extend(judge_hints(tool, b, m));
        }
        let answer = first.answer;
        if !claims_idempotency(tool) || first.negative || !matches!(answer, Answer::Served(_)) {
            return (out, mid);
        }
        let again = self
            .call_answer(endpoint, era, first.params, exchange, "result", &mut out)
            .await;
        let after = match &mid {
            Some(_) => exchange.observe().await.ok().flatten(),
            None => None,
        };
        let name = tool["name"].as_str().unwrap_or("the tool");
        let moved = match (&mid, &after) {
            (Some(m), Some(a)) => moved_again(name, m, a),
            _ => Vec::new(),
        };
        // one fault, one finding: a second call that did the work again
        // may well answer with the new work's values
        if moved.is_empty() {
            out.extend(answered_again(name, first.call, &answer, &again));
        }
        out.extend(moved);
        (out, after)
    }
}

/// Counters the second call moved.
fn moved_again(tool: &str, mid: &Counters, after: &Counters) -> Vec<Finding> {
    let names: std::collections::BTreeSet<&String> = mid.keys().chain(after.keys()).collect();
    names
        .into_iter()
        .filter_map(|counter| {
            let delta = after.get(counter).copied().unwrap_or(0)
                - mid.get(counter).copied().unwrap_or(0);
            (delta != 0).then(|| {
                let detail = format!(
                    "`{tool}` declares idempotentHint: true, but the same call again changed counter '{counter}' by {delta}"
                );
                Finding::new(Layer::Behavior, codes::IDEMPOTENCY_VIOLATION, counter, detail)
                    .values(Some(Value::from(0)), Some(Value::from(delta)))
            })
        })
        .collect()
}

/// The second answer against the first: the same kind, and the same value
/// of every field the expected `structuredContent` names. Pure.
fn answered_again(
    tool: &str,
    call: &McpToolCall,
    first: &Answer,
    again: &Answer,
) -> Option<Finding> {
    let differs = match (first, again) {
        (Answer::Served(a), Answer::Served(b)) => {
            let named = call
                .result
                .as_ref()
                .and_then(|r| r.structured_content.as_ref())
                .and_then(Value::as_object);
            // a time may move between two calls of an idempotent tool
            let timely = |k: &str| {
                let k = k.to_ascii_lowercase();
                k.ends_with("_at")
                    || k.ends_with("edat")
                    || ["time", "date", "elapsed", "duration"]
                        .iter()
                        .any(|w| k.contains(w))
            };
            named
                .into_iter()
                .flatten()
                .filter(|(k, _)| !timely(k))
                .find_map(|(k, _)| {
                    (a.get(k) != b.get(k)).then(|| {
                        (
                            format!("$.structuredContent.{k}"),
                            a.get(k).cloned(),
                            b.get(k).cloned(),
                        )
                    })
                })
        }
        _ => Some((
            "$".to_owned(),
            Some(Value::String(first.seen(&[]))),
            Some(Value::String(again.seen(&[]))),
        )),
    };
    differs.map(|(path, expected, actual)| {
        let detail = format!(
            "`{tool}` declares idempotentHint: true, but the same call again was answered otherwise at {path}"
        );
        Finding::new(Layer::Behavior, codes::IDEMPOTENCY_VIOLATION, path, detail)
            .values(expected, actual)
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn counters(v: Value) -> Counters {
        serde_json::from_value(v).unwrap_or_default()
    }

    fn call() -> McpToolCall {
        serde_json::from_value(json!({"tool": "t",
            "result": {"structuredContent": {"plan_id": "plan-1", "updatedAt": 0}}}))
        .unwrap_or_default()
    }

    #[test]
    fn only_a_writing_tool_that_claims_idempotency_is_called_twice() {
        let t = |a: Value| claims_idempotency(&json!({"annotations": a}));
        assert!(t(json!({"idempotentHint": true})));
        assert!(!t(json!({"idempotentHint": true, "readOnlyHint": true})));
        assert!(!t(json!({"idempotentHint": false})));
        assert!(!t(json!({})));
    }

    #[test]
    fn a_second_call_that_moves_a_counter_is_a_violation_at_that_counter() {
        let found = moved_again(
            "t",
            &counters(json!({"records": 1, "mails": 0})),
            &counters(json!({"records": 2, "mails": 0})),
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].reason_code, "IDEMPOTENCY_VIOLATION");
        assert_eq!(found[0].path, "records");
        assert!(
            moved_again(
                "t",
                &counters(json!({"records": 1})),
                &counters(json!({"records": 1}))
            )
            .is_empty()
        );
    }

    #[test]
    fn a_second_answer_must_keep_the_fields_the_consumer_names() {
        let served = |v: Value| Answer::Served(v);
        let first = served(json!({"plan_id": "plan-1", "at": "12:00", "updatedAt": 1}));
        let same_id = served(json!({"plan_id": "plan-1", "at": "12:01", "updatedAt": 2}));
        let new_id = served(json!({"plan_id": "plan-2", "at": "12:00", "updatedAt": 1}));
        assert_eq!(answered_again("t", &call(), &first, &same_id), None);
        let f = answered_again("t", &call(), &first, &new_id).map(|f| f.path);
        assert_eq!(f.as_deref(), Some("$.structuredContent.plan_id"));
        let refused = Answer::ToolError("already exists".into());
        let f = answered_again("t", &call(), &first, &refused).map(|f| f.path);
        assert_eq!(f.as_deref(), Some("$"));
    }
}
