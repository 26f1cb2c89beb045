//! A follow-up's own `sideEffects` and `temporal` against the reference
//! agent: the counters read around each follow-up and its times, judged at
//! `followUps[i]…`, while the interaction's `sideEffects` still cover every
//! send of the interaction, follow-ups included.

use std::time::Duration;

use accord_fixtures::a2a::A2aAgent;
use accord_verifier::config::A2aBinding;
use accord_verifier::error::VerifyError;
use accord_verifier::{ContractSource, VerificationReport, VerifyConfig, verify_blocking};
use serde_json::{Value, json};

use crate::a2a_task::{alice, describe, doc_of, plan_request, run_on, sourced, users};

/// Every finding as (layer, code, path).
fn found(report: &VerificationReport) -> Vec<(&'static str, &'static str, String)> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .map(|f| (f.layer.as_str(), f.reason_code, f.path.clone()))
        .collect()
}

/// A plan as alice (one record), then `follow_ups`; the interaction's
/// `sideEffects` give `records` for the whole interaction.
fn planned(records: i64, follow_ups: Value) -> Value {
    json!({"type": "A2A/Task", "description": "plan, then follow up",
        "providerStates": users(), "auth": alice(), "sideEffects": {"records": records},
        "request": plan_request(json!({})), "terminalState": "TASK_STATE_COMPLETED",
        "followUps": follow_ups})
}

/// A follow-up message that starts another plan: one more record once its
/// `work_ms` are done.
fn another_plan(work_ms: u64, streaming: bool, extra: Value) -> Value {
    let op = if streaming {
        "SendStreamingMessage"
    } else {
        "SendMessage"
    };
    let mut f = json!({"operation": op,
        "request": {"message": {"role": "ROLE_USER", "parts": [{"data":
            {"request_id": "r-follow", "items": [{"title": "more"}], "work_ms": work_ms}}]}},
        "expect": {"newTask": true, "state": "TASK_STATE_COMPLETED"}});
    for (k, v) in extra.as_object().into_iter().flatten() {
        f[k] = v.clone();
    }
    f
}

/// GetTask as bob: refused as for an unknown task.
fn bobs_get(extra: Value) -> Value {
    let mut f = json!({"operation": "GetTask", "auth": {"principal": "bob", "tenant": "tenant-b"},
        "error": {"reason": "TASK_NOT_FOUND"}});
    for (k, v) in extra.as_object().into_iter().flatten() {
        f[k] = v.clone();
    }
    f
}

fn run(interaction: Value) -> VerificationReport {
    let agent = A2aAgent::start().expect("the agent starts");
    run_on(
        &agent,
        A2aBinding::JsonRpc,
        sourced(&doc_of(json!([interaction]))),
    )
}

#[test]
fn follow_ups_that_move_what_they_declare_in_time_pass_on_both_bindings() {
    let follow_ups = json!([
        another_plan(0, false, json!({"sideEffects": {"records": 1},
            "temporal": {"acknowledgeWithinMs": 3000, "completionWithinMs": 3000}})),
        bobs_get(json!({"sideEffects": {}, "temporal": {"acknowledgeWithinMs": 3000}})),
        {"operation": "GetTask", "expect": {"state": "TASK_STATE_COMPLETED"},
         "sideEffects": {"records": 0, "outbound_writes": {"max": 0}}},
    ]);
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let agent = A2aAgent::start().expect("the agent starts");
        let doc = doc_of(json!([planned(2, follow_ups.clone())]));
        let report = run_on(&agent, binding, sourced(&doc));
        assert!(
            found(&report).is_empty(),
            "{binding:?}:\n{}",
            describe(&report)
        );
        assert_eq!(
            agent.with_state(|s| s.records),
            2,
            "the follow-up made a plan"
        );
    }
}

#[test]
fn wrong_follow_up_counts_are_mismatches_at_the_follow_up_and_nothing_else() {
    // the new plan writes one record, declared none; GetTask writes
    // nothing, declared one; the interaction's total (2) is right
    let report = run(planned(
        2,
        json!([
            another_plan(0, false, json!({"sideEffects": {"records": 0}})),
            {"operation": "GetTask", "expect": {"state": "TASK_STATE_COMPLETED"},
             "sideEffects": {"records": 1}},
        ]),
    ));
    let behavior = |path: &str| {
        (
            "behavior",
            "SIDE_EFFECT_DECLARATION_MISMATCH",
            path.to_owned(),
        )
    };
    assert_eq!(
        found(&report),
        [
            behavior("followUps[0].sideEffects.records"),
            behavior("followUps[1].sideEffects.records"),
        ],
        "{}",
        describe(&report)
    );
    let values: Vec<_> = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .map(|f| (f.expected.as_deref().cloned(), f.actual.as_deref().cloned()))
        .collect();
    assert_eq!(
        values,
        [
            (Some(json!(0)), Some(json!(1))),
            (Some(json!(1)), Some(json!(0)))
        ]
    );
}

#[test]
fn a_follow_up_declaring_no_change_names_the_counter_it_moved() {
    let report = run(planned(
        2,
        json!([another_plan(0, false, json!({"sideEffects": {}}))]),
    ));
    assert_eq!(
        found(&report),
        [(
            "behavior",
            "UNEXPECTED_SIDE_EFFECT",
            "followUps[0].sideEffects.records".to_owned()
        )],
        "{}",
        describe(&report)
    );
}

#[test]
fn the_interactions_counters_still_cover_its_follow_ups_under_their_own_path() {
    // the follow-up's own count is right; the interaction's forgets it
    let report = run(planned(
        1,
        json!([another_plan(
            0,
            false,
            json!({"sideEffects": {"records": 1}})
        )]),
    ));
    assert_eq!(
        found(&report),
        [(
            "behavior",
            "SIDE_EFFECT_DECLARATION_MISMATCH",
            "records".to_owned()
        )],
        "{}",
        describe(&report)
    );
}

#[test]
fn a_follow_up_answering_after_its_acknowledge_limit_is_ack_deadline_missed_alone() {
    // a blocking send answers once its 400 ms of work are done
    let report = run(planned(
        2,
        json!([another_plan(
            400,
            false,
            json!({"temporal": {"acknowledgeWithinMs": 100}})
        )]),
    ));
    assert_eq!(
        found(&report),
        [(
            "temporal",
            "ACK_DEADLINE_MISSED",
            "followUps[0].temporal.acknowledgeWithinMs".to_owned()
        )],
        "{}",
        describe(&report)
    );
    let took = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .find_map(|f| f.actual.as_deref().and_then(Value::as_u64));
    assert!(took.is_some_and(|ms| ms >= 400), "{took:?}");
}

#[test]
fn a_stream_answering_at_once_but_ending_late_is_completion_late_alone() {
    let report = run(planned(
        2,
        json!([another_plan(
            400,
            true,
            json!({"temporal":
            {"acknowledgeWithinMs": 300, "completionWithinMs": 100}})
        )]),
    ));
    assert_eq!(
        found(&report),
        [(
            "temporal",
            "COMPLETION_LATE",
            "followUps[0].temporal.completionWithinMs".to_owned()
        )],
        "{}",
        describe(&report)
    );
}

#[test]
fn follow_up_counters_without_an_observation_url_refuse_the_run_up_front() {
    let agent = A2aAgent::start().expect("the agent starts");
    let mut interaction = planned(1, json!([bobs_get(json!({"sideEffects": {}}))]));
    interaction.as_object_mut().map(|o| o.remove("sideEffects"));
    let mut config = VerifyConfig::new(
        "planning-agent",
        agent.base_url(),
        ContractSource::Loaded(vec![sourced(&doc_of(json!([interaction])))]),
    );
    config.state_change_url = Some(agent.state_change_url());
    config.limits.request_timeout = Duration::from_secs(5);
    let refused = verify_blocking(&config);
    assert!(
        matches!(&refused, Err(VerifyError::ObservationRequired { interaction }) if interaction == "plan, then follow up"),
        "{refused:?}"
    );
    assert!(agent.with_state(|s| s.seen.is_empty()), "nothing was sent");
}
