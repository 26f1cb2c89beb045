//! A follow-up's own `side_effects` and `within`: lowered in the
//! interaction's forms, written as `sideEffects` / `temporal`, read back
//! unchanged, built identically by the builder; limits beyond a single
//! operation and unknown keys refused with the file and path.

use super::*;
use crate::builder::{Common, ContractBuilder};
use crate::model::accord::{SideEffects, Temporal};

const FOLLOWED: &str = "  - a2a: x\n    as: alice\n    send: { text: hi }\n    side_effects: { records: 2 }\n    expect: [{ state: COMPLETED }]\n    follow_ups:\n      - op: SendMessage\n        send: { text: again }\n        expect: { new_task: true }\n        side_effects: { records: +1, outbound_writes: \"<=1\" }\n        within: { acknowledge_ms: 200, completion_ms: 2000 }\n      - { op: GetTask, as: bob, error: { reason: TASK_NOT_FOUND }, side_effects: {}, within: { acknowledge_ms: 200 } }\n      - { op: ListTasks, expect: { contains_task: true } }\n";

#[test]
fn a_follow_up_lowers_its_side_effects_and_within_as_the_interaction_does() {
    let c = compile(FOLLOWED);
    let f = &a2a(&c).task.follow_ups;
    let send = f[0].side_effects.as_ref().expect("declared");
    assert_eq!(send["records"], CounterChange::Exact(1));
    assert_eq!(
        send["outbound_writes"],
        CounterChange::Range {
            min: None,
            max: Some(1)
        }
    );
    assert_eq!(
        f[0].temporal,
        Some(Temporal {
            acknowledge_within_ms: Some(200),
            completion_within_ms: Some(2000),
            ..Temporal::default()
        })
    );
    assert_eq!(f[1].side_effects, Some(SideEffects::new()), "{{}}: none");
    assert_eq!(
        f[1].temporal.as_ref().and_then(|t| t.completion_within_ms),
        None
    );
    assert_eq!((&f[2].side_effects, &f[2].temporal), (&None, &None));
    // the interaction's own keep their meaning
    let own = &a2a(&c).meta.expectations;
    assert_eq!(
        own.side_effects.as_ref().map(|s| s["records"]),
        Some(CounterChange::Exact(2))
    );
}

#[test]
fn a_follow_up_writes_side_effects_and_temporal_and_reads_them_back() {
    let c = compile(FOLLOWED);
    let v = crate::pact::to_v4_json(&c);
    let f = &v["interactions"][0]["followUps"];
    assert_eq!(
        f[0]["sideEffects"],
        json!({"records": 1, "outbound_writes": {"max": 1}})
    );
    assert_eq!(
        f[0]["temporal"],
        json!({"acknowledgeWithinMs": 200, "completionWithinMs": 2000})
    );
    assert_eq!(f[1]["sideEffects"], json!({}));
    assert_eq!(f[1]["temporal"], json!({"acknowledgeWithinMs": 200}));
    assert!(f[2].get("sideEffects").is_none() && f[2].get("temporal").is_none());
    let back = crate::pact::from_value(&v, "round-trip").expect("readable");
    assert_eq!(back, c);
}

#[test]
fn the_builder_gives_the_same_follow_up_limits_and_counters() {
    use crate::model::accord::{A2aErrorReason, A2aOperation};
    let built = ContractBuilder::new("orchestrator", "planning-agent")
        .principal("alice", "tenant-a")
        .principal("bob", "tenant-b")
        .a2a_task("x", |t| {
            t.as_principal("alice")
                .send_text("hi")
                .side_effect("records", 2)
                .expect_state(TaskState::Completed)
                .follow_up(A2aOperation::SendMessage, |f| {
                    f.send_text("again")
                        .new_task(true)
                        .side_effect("records", 1)
                        .side_effect_between("outbound_writes", None, Some(1))
                        .within(|w| w.acknowledge_ms(200).completion_ms(2000))
                })
                .follow_up(A2aOperation::GetTask, |f| {
                    f.as_principal("bob")
                        .fails_with(|e| e.reason(A2aErrorReason::TaskNotFound))
                        .no_side_effects()
                        .within(|w| w.acknowledge_ms(200))
                })
                .follow_up(A2aOperation::ListTasks, |f| f.contains_task(true))
        })
        .build()
        .expect("a valid contract");
    let spec = compile(FOLLOWED);
    assert_eq!(
        a2a(&built).task.follow_ups,
        a2a(&spec).task.follow_ups,
        "the builder lowers with the spec's code"
    );
}

#[test]
fn a_follow_up_refuses_limits_beyond_one_operation_naming_the_allowed_ones() {
    for (within, name) in [
        ("{ first_progress_ms: 100 }", "first_progress_ms"),
        (
            "{ completion_ms: 1, cancellation_effect_ms: 100 }",
            "cancellation_effect_ms",
        ),
        (
            "{ no_side_effects_after_cancel_ack: true }",
            "no_side_effects_after_cancel_ack",
        ),
    ] {
        let text = format!(
            "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    expect: [{{ state: COMPLETED }}]\n    follow_ups:\n      - {{ op: GetTask, expect: {{ state: COMPLETED }}, within: {within} }}\n"
        );
        let msg = refuse(&text).to_string();
        assert!(msg.starts_with("bad.yaml: "), "{msg}");
        for needle in [
            &format!("interactions[0].follow_ups[0].within.{name}") as &str,
            "acknowledge_ms",
            "completion_ms",
            "interaction's `within`",
        ] {
            assert!(msg.contains(needle), "`{msg}` lacks `{needle}`");
        }
    }
    let built = ContractBuilder::new("a", "b").a2a_task("x", |t| {
        t.send_text("hi")
            .follow_up(crate::model::accord::A2aOperation::GetTask, |f| {
                f.expect_state(TaskState::Completed)
                    .within(|w| w.first_progress_ms(5))
            })
    });
    let msg = built.build().expect_err("refused").to_string();
    assert!(
        msg.contains("follow_ups[0].within.first_progress_ms"),
        "{msg}"
    );
}

#[test]
fn unknown_keys_of_a_follow_ups_counters_and_limits_are_refused_with_file_and_path() {
    for (rest, unknown) in [
        (
            "side_effect: { records: 1 }",
            "interactions[0].follow_ups[0]: unknown field `side_effect`",
        ),
        (
            "within: { ack_ms: 1 }",
            "interactions[0].follow_ups[0].within: unknown field `ack_ms`",
        ),
        (
            "temporal: { acknowledgeWithinMs: 1 }",
            "interactions[0].follow_ups[0]: unknown field `temporal`",
        ),
    ] {
        let text = format!(
            "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    follow_ups:\n      - {{ op: GetTask, expect: {{}}, {rest} }}\n"
        );
        refused_with(&text, &["bad.yaml: ", unknown]);
    }
    refused_with(
        &format!(
            "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    follow_ups:\n      - {{ op: GetTask, expect: {{}}, side_effects: {{ records: lots }} }}\n"
        ),
        &["bad.yaml: ", "`lots` is not a counter change"],
    );
}
