//! One fault, one finding on the A2A side: an eventless stream, follow-ups
//! of a task never created, undeclared streaming found without a contract
//! that expects its refusal, probe answers watched for credentials, served
//! negatives named by what happened.

use std::collections::BTreeSet;

use accord_fixtures::a2a::{A2aAgent, A2aFault, AgentOptions};
use accord_verifier::config::A2aBinding;
use serde_json::{Value, json};

use crate::a2a_task::{
    alice, codes, describe, doc_of, interactions, plan_request, run_on, sourced, users,
};

fn streaming_card(doc: &mut Value) {
    doc["agentCard"] = json!({"capabilities": {"streaming": true}});
}

#[test]
fn an_eventless_stream_is_one_finding_and_its_follow_ups_are_not_sent() {
    let mut doc = doc_of(json!([interactions()[0].clone()]));
    streaming_card(&mut doc);
    let agent = A2aAgent::start().expect("the agent starts");
    assert!(codes(&run_on(&agent, A2aBinding::JsonRpc, sourced(&doc))).is_empty());
    let agent = A2aAgent::start().expect("the agent starts");
    agent.set_fault(Some(A2aFault::EmptyStream));
    let report = run_on(&agent, A2aBinding::JsonRpc, sourced(&doc));
    let findings: Vec<(String, &str)> = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter().map(|f| (f.path.clone(), f.reason_code)))
        .chain(
            report
                .contracts
                .iter()
                .flat_map(|c| c.findings.iter().map(|f| (f.path.clone(), f.reason_code))),
        )
        .collect();
    assert_eq!(
        findings,
        [("stream".to_owned(), "DECLARED_CAPABILITY_BROKEN")],
        "{}",
        describe(&report)
    );
    let said: Vec<String> = report
        .interactions()
        .flat_map(|(_, i)| i.warnings.iter())
        .filter(|w| w.path.starts_with("followUps"))
        .map(|w| w.detail.to_string())
        .collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("no task"), "{said:?}");
    // nothing went out without an id, no message started a task of its own
    let seen = agent.with_state(|s| s.seen.clone());
    for r in &seen {
        let taskless = matches!(
            r.method.as_str(),
            "GetTask" | "CancelTask" | "SubscribeToTask"
        ) && r.body.get("id").is_none();
        assert!(!taskless, "{r:?}");
        assert_ne!(r.method, "SendMessage", "{r:?}");
    }
}

/// A blocking plan acted on while it runs (so the task is seen WORKING).
fn blocking_plan() -> Value {
    json!({"type": "A2A/Task", "description": "a plan, looked at while it runs",
        "providerStates": users(), "auth": alice(), "sideEffects": {"records": 1},
        "request": plan_request(json!({"work_ms": 400})), "terminalState": "TASK_STATE_COMPLETED",
        "followUps": [{"operation": "GetTask", "after": "TASK_STATE_WORKING",
                       "expect": {"state": "TASK_STATE_WORKING"}}]})
}

#[test]
fn streaming_served_where_the_card_declares_none_is_found_by_the_built_in_probe() {
    let doc = doc_of(json!([blocking_plan(), blocking_plan()]));
    let options = || AgentOptions {
        streaming: Some(false),
        ..AgentOptions::default()
    };
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let agent = A2aAgent::start_with(options()).expect("the agent starts");
        let report = run_on(&agent, binding, sourced(&doc));
        assert!(
            codes(&report).is_empty(),
            "{binding:?}: {}",
            describe(&report)
        );
        let agent = A2aAgent::start_with(options()).expect("the agent starts");
        agent.set_fault(Some(A2aFault::UndeclaredStreamingServed));
        let report = run_on(&agent, binding, sourced(&doc));
        let found: Vec<&str> = report
            .interactions()
            .flat_map(|(_, i)| i.findings.iter().map(|f| f.reason_code))
            .collect();
        assert_eq!(
            found,
            ["UNDECLARED_CAPABILITY_ACCEPTED"],
            "{binding:?}: {}",
            describe(&report)
        );
    }
}

#[test]
fn a_probe_answer_that_leaks_a_token_is_found() {
    let mut draft = interactions()[0].clone();
    draft["followUps"] = json!([]);
    let mut doc = doc_of(json!([draft]));
    streaming_card(&mut doc);
    let agent = A2aAgent::start().expect("the agent starts");
    assert!(codes(&run_on(&agent, A2aBinding::JsonRpc, sourced(&doc))).is_empty());
    let agent = A2aAgent::start().expect("the agent starts");
    agent.set_fault(Some(A2aFault::NotFoundLeaksToken));
    let report = run_on(&agent, A2aBinding::JsonRpc, sourced(&doc));
    let found: Vec<(String, &str)> = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter().map(|f| (f.path.clone(), f.reason_code)))
        .collect();
    assert_eq!(found.len(), 1, "{}", describe(&report));
    assert_eq!(
        found[0].1,
        "SENSITIVE_DATA_IN_ERROR",
        "{}",
        describe(&report)
    );
    assert!(found[0].0.starts_with("auth.probes[0]"), "{found:?}");
}

#[test]
fn a_served_negative_is_named_by_what_happened_on_the_live_card() {
    let undeclared = json!({"type": "A2A/Task", "description": "streaming must be refused",
        "providerStates": users(), "auth": alice(), "streaming": true,
        "negative": "undeclared_capability", "request": plan_request(json!({}))});
    let own = json!({"type": "A2A/Task", "description": "alice's own plan must be refused",
        "providerStates": users(), "auth": alice(), "negative": true,
        "request": plan_request(json!({}))});
    let doc = doc_of(json!([undeclared, own]));
    let agent = A2aAgent::start().expect("the agent starts");
    let report = run_on(&agent, A2aBinding::JsonRpc, sourced(&doc));
    let found: BTreeSet<(String, &str)> = report
        .interactions()
        .flat_map(|(_, i)| {
            i.findings
                .iter()
                .map(move |f| (i.description.clone(), f.reason_code))
        })
        .collect();
    assert_eq!(
        found,
        BTreeSet::from([
            (
                "alice's own plan must be refused".to_owned(),
                "EXPECTATION_UNCHECKED"
            ),
            (
                "streaming must be refused".to_owned(),
                "EXPECTATION_UNCHECKED"
            ),
        ]),
        "{}",
        describe(&report)
    );
}
