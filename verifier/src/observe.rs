//! Observations: the provider's fixture counters, read before and after an
//! interaction, and the judgement of its side-effect expectations.

use std::borrow::Cow;
use std::collections::BTreeMap;

use accord_dsl::model::accord::{CounterChange, SideEffects};
use serde_json::{Value, json};

use crate::error::{ObserveProblem, VerifyError};
use crate::finding::{Finding, Layer, codes};
use crate::transport::{Outgoing, Transport};

/// Named integer counters.
pub type Counters = BTreeMap<String, i64>;

/// Reads the counters from the observation endpoint `url` (`parsed`: the
/// same URL parsed once, else it is parsed here).
pub async fn observe(
    transport: &Transport,
    url: &str,
    parsed: Option<&reqwest::Url>,
) -> Result<Counters, VerifyError> {
    let fail = |reason| VerifyError::Observe {
        url: url.to_string(),
        reason,
    };
    let parsed = match parsed {
        Some(u) => Ok(Cow::Borrowed(u)),
        None => reqwest::Url::parse(url).map(Cow::Owned),
    };
    let request = Outgoing::new(reqwest::Method::GET, parsed.map_err(|_| url.to_string()));
    let received = transport
        .send_out(request)
        .await
        .map_err(|c| fail(ObserveProblem::Unreachable(format!("{c:?}"))))?;
    if !(200..300).contains(&received.status) {
        return Err(fail(ObserveProblem::Status(received.status)));
    }
    parse_counters(&received.body).map_err(fail)
}

/// Parses a flat JSON object of integers.
pub fn parse_counters(body: &[u8]) -> Result<Counters, ObserveProblem> {
    let shown = || String::from_utf8_lossy(&body[..body.len().min(80)]).into_owned();
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(body) else {
        return Err(ObserveProblem::NotCounters(shown()));
    };
    map.into_iter()
        .map(|(k, v)| match v.as_i64() {
            Some(n) => Ok((k, n)),
            None => Err(ObserveProblem::NotCounters(format!("'{k}': {v}"))),
        })
        .collect()
}

/// Judges the change between two observations against the declared side
/// effects. A declared counter with another change is
/// `SIDE_EFFECT_DECLARATION_MISMATCH`; any undeclared counter that moved is
/// `UNEXPECTED_SIDE_EFFECT`. A declared counter the provider does not
/// report is an operational error.
pub fn judge_side_effects(
    interaction: &str,
    declared: Option<&SideEffects>,
    before: &Counters,
    after: &Counters,
) -> Result<Vec<Finding>, VerifyError> {
    let mut findings = Vec::new();
    for (counter, change) in declared.into_iter().flatten() {
        let (Some(b), Some(a)) = (before.get(counter), after.get(counter)) else {
            return Err(VerifyError::MissingCounter {
                interaction: interaction.to_string(),
                counter: counter.clone(),
            });
        };
        let delta = a - b;
        if !change.accepts(delta) {
            let detail = format!(
                "counter '{counter}' changed by {delta}, expected {}",
                show(change)
            );
            findings.push(
                Finding::new(
                    Layer::Behavior,
                    codes::SIDE_EFFECT_DECLARATION_MISMATCH,
                    counter,
                    detail,
                )
                .values(
                    Some(serde_json::to_value(change).unwrap_or(Value::Null)),
                    Some(json!(delta)),
                ),
            );
        }
    }
    for (counter, a) in after {
        if declared.is_some_and(|d| d.contains_key(counter)) {
            continue;
        }
        let delta = a - before.get(counter).copied().unwrap_or(0);
        if delta != 0 {
            let detail = format!(
                "counter '{counter}' changed by {delta} but the interaction declares no change"
            );
            findings.push(
                Finding::new(
                    Layer::Behavior,
                    codes::UNEXPECTED_SIDE_EFFECT,
                    counter,
                    detail,
                )
                .values(Some(json!(0)), Some(json!(delta))),
            );
        }
    }
    Ok(findings)
}

fn show(change: &CounterChange) -> String {
    match change {
        CounterChange::Exact(d) => d.to_string(),
        CounterChange::Range { min, max } => {
            let bound = |b: &Option<i64>| b.map_or("…".to_string(), |n| n.to_string());
            format!("{}..={}", bound(min), bound(max))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counters(pairs: &[(&str, i64)]) -> Counters {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn declared_changes_that_hold_give_no_finding() {
        let declared: SideEffects =
            serde_json::from_value(json!({"records": 1, "outbound": {"max": 1}})).expect("valid");
        let before = counters(&[("records", 3), ("outbound", 0)]);
        let after = counters(&[("records", 4), ("outbound", 1)]);
        let found = judge_side_effects("i", Some(&declared), &before, &after).expect("judged");
        assert!(found.is_empty());
    }

    #[test]
    fn a_wrong_delta_and_an_undeclared_move_are_two_behavior_findings() {
        let declared: SideEffects = serde_json::from_value(json!({"records": 1})).expect("valid");
        let before = counters(&[("records", 3), ("emails", 0)]);
        let after = counters(&[("records", 5), ("emails", 1)]);
        let found = judge_side_effects("i", Some(&declared), &before, &after).expect("judged");
        let codes: Vec<_> = found
            .iter()
            .map(|f| (f.reason_code, f.path.as_str()))
            .collect();
        assert_eq!(
            codes,
            vec![
                ("SIDE_EFFECT_DECLARATION_MISMATCH", "records"),
                ("UNEXPECTED_SIDE_EFFECT", "emails")
            ]
        );
        assert!(found.iter().all(|f| f.layer == Layer::Behavior));
        assert_eq!(found[0].actual.as_deref(), Some(&json!(2)));
    }

    #[test]
    fn a_declared_counter_the_provider_does_not_report_is_an_error() {
        let declared: SideEffects = serde_json::from_value(json!({"approvals": 0})).expect("valid");
        let c = counters(&[("records", 0)]);
        let err = judge_side_effects("i", Some(&declared), &c, &c).expect_err("must fail");
        assert!(
            matches!(err, VerifyError::MissingCounter { counter, .. } if counter == "approvals")
        );
    }

    #[test]
    fn counters_must_be_a_flat_object_of_integers() {
        assert_eq!(
            parse_counters(br#"{"a": 1, "b": -2}"#),
            Ok(counters(&[("a", 1), ("b", -2)]))
        );
        assert!(parse_counters(br#"{"a": "1"}"#).is_err());
        assert!(parse_counters(b"[1]").is_err());
    }
}
