//! A2A over both bindings (`--a2a-binding all`, or a contract relying on
//! both), and what the card declares: push that stops once its config is
//! deleted, a push capability and an extended card that must work.

use std::collections::BTreeSet;

use accord_fixtures::a2a::{A2aAgent, A2aFault, AgentOptions};
use accord_verifier::config::A2aBinding;
use serde_json::json;

use crate::a2a_task::{
    alice, codes, describe, doc_of, interactions, plan_request, run_on, sourced, users,
};

#[test]
fn every_binding_replays_each_interaction_once_per_binding_into_one_result() {
    let agent = A2aAgent::start().expect("the agent starts");
    // the cancel races its 1.5 s of work: not for a machine under load
    let chosen: Vec<serde_json::Value> = interactions()
        .into_iter()
        .filter(|i| i["cancel"].is_null())
        .collect();
    let doc = doc_of(json!(chosen));
    let report = run_on(&agent, A2aBinding::All, sourced(&doc));
    assert!(report.passed(), "{}", describe(&report));
    assert_eq!(report.interactions().count(), chosen.len());
    let used: BTreeSet<String> = report
        .declarations
        .iter()
        .flat_map(|d| d.used.iter())
        .map(|u| u.split(' ').next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(used, BTreeSet::from(["HTTP+JSON".into(), "JSONRPC".into()]));
    // a fault is seen over both, each finding naming its binding
    agent.set_fault(Some(A2aFault::ProseArtifact));
    let report = run_on(&agent, A2aBinding::All, sourced(&doc));
    let (_, drafted) = report
        .interactions()
        .find(|(_, i)| i.description == "draft a plan")
        .expect("the plan interaction");
    let tags: BTreeSet<&str> = drafted
        .findings
        .iter()
        .map(|f| f.detail.split(']').next().unwrap_or_default())
        .collect();
    assert_eq!(
        tags,
        BTreeSet::from(["[HTTP+JSON", "[JSONRPC"]),
        "{}",
        describe(&report)
    );
    assert_eq!(
        codes(&report),
        BTreeSet::from([("schema", "CONTENT_MODE_MISMATCH")]),
        "{}",
        describe(&report)
    );
}

#[test]
fn nothing_may_be_pushed_after_the_config_was_deleted() {
    let deleted = json!({"type": "A2A/Task", "description": "push until the config is deleted",
        "providerStates": users(), "auth": alice(), "streaming": true, "sideEffects": {"records": 1},
        "request": plan_request(json!({"work_ms": 800})),
        "push": {"token": "push-token-2", "scheme": "Bearer", "expectStates": ["TASK_STATE_WORKING"]},
        "followUps": [{"operation": "DeleteTaskPushNotificationConfig", "after": "TASK_STATE_WORKING", "expect": {}}],
        "terminalState": "TASK_STATE_COMPLETED"});
    let doc = doc_of(json!([deleted]));
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let agent = A2aAgent::start().expect("the agent starts");
        let report = run_on(&agent, binding, sourced(&doc));
        assert!(report.passed(), "{binding:?}: {}", describe(&report));
        agent.set_fault(Some(A2aFault::PushAfterDelete));
        let report = run_on(&agent, binding, sourced(&doc));
        assert_eq!(
            codes(&report),
            BTreeSet::from([("protocol", "PUSH_AFTER_CONFIG_DELETED")]),
            "{binding:?}: {}",
            describe(&report)
        );
    }
}

#[test]
fn by_default_a_contract_relying_on_both_bindings_is_replayed_on_both() {
    let agent = A2aAgent::start().expect("the agent starts");
    let plan = interactions().swap_remove(0);
    let mut doc = doc_of(json!([plan]));
    let bindings = |doc: &serde_json::Value| {
        let report = run_on(&agent, A2aBinding::Auto, sourced(doc));
        assert!(report.passed(), "{}", describe(&report));
        report
            .declarations
            .iter()
            .flat_map(|d| d.used.iter())
            .map(|u| u.split(' ').next().unwrap_or_default().to_owned())
            .collect::<BTreeSet<String>>()
    };
    doc["agentCard"] =
        json!({"interfaces": [{"protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}]});
    assert_eq!(bindings(&doc), BTreeSet::from(["HTTP+JSON".into()]));
    doc["agentCard"] = json!({"interfaces": [{"protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
                                             {"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]});
    assert_eq!(
        bindings(&doc),
        BTreeSet::from(["HTTP+JSON".into(), "JSONRPC".into()])
    );
}

#[test]
fn a_declared_extended_card_must_be_served() {
    let plan = interactions().swap_remove(0);
    let doc = doc_of(json!([plan]));
    let agent = A2aAgent::start_with(AgentOptions {
        extended_agent_card: Some(true),
        ..AgentOptions::default()
    })
    .expect("the agent starts");
    let report = run_on(&agent, A2aBinding::JsonRpc, sourced(&doc));
    assert!(report.passed(), "{}", describe(&report));
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let agent = A2aAgent::start_with(AgentOptions {
            extended_agent_card: Some(true),
            ..AgentOptions::default()
        })
        .expect("the agent starts");
        agent.set_fault(Some(A2aFault::ExtendedCardBroken));
        let report = run_on(&agent, binding, sourced(&doc));
        assert_eq!(
            codes(&report),
            BTreeSet::from([("protocol", "DECLARED_CAPABILITY_BROKEN")]),
            "{binding:?}: {}",
            describe(&report)
        );
    }
}
