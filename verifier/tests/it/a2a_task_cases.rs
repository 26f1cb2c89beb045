//! Focused `A2A/Task` cases against the reference agent, one behaviour
//! each: undeclared streaming, the version probe, REST subscribe, repeats,
//! served negatives, signed cards, the status mapping, probes while the
//! task runs, cancel follow-ups.

use std::collections::BTreeSet;

use accord_fixtures::a2a::{A2aAgent, A2aFault, AgentOptions};
use accord_verifier::config::A2aBinding;
use accord_verifier::{ContractSource, VerifyConfig, verify_blocking};
use serde_json::{Value, json};

use crate::a2a_task::{
    alice, codes, describe, doc_of, interactions, plan_request, run_on, sourced, users,
};

#[test]
fn streaming_served_where_the_card_declares_none_is_undeclared() {
    let agent = A2aAgent::start_with(AgentOptions {
        streaming: Some(false),
        ..AgentOptions::default()
    })
    .expect("the agent starts");
    let refused = json!({"type": "A2A/Task", "description": "no streaming here",
        "providerStates": users(), "auth": alice(), "streaming": true,
        "request": plan_request(json!({})), "error": {"reason": "UNSUPPORTED_OPERATION"}});
    let no_subscribing = json!({"type": "A2A/Task", "description": "no subscribing either",
        "providerStates": users(), "auth": alice(), "sideEffects": {"records": 1},
        "request": plan_request(json!({"work_ms": 300})), "terminalState": "TASK_STATE_COMPLETED",
        "followUps": [{"operation": "SubscribeToTask", "after": "TASK_STATE_WORKING",
                       "error": {"reason": "UNSUPPORTED_OPERATION"}}]});
    let doc = doc_of(json!([refused, no_subscribing]));
    let c = || sourced(&doc);
    let report = run_on(&agent, A2aBinding::Auto, c());
    assert!(codes(&report).is_empty(), "{}", describe(&report));
    agent.set_fault(Some(A2aFault::UndeclaredStreamingServed));
    let report = run_on(&agent, A2aBinding::Auto, c());
    assert_eq!(
        codes(&report),
        BTreeSet::from([("protocol", "UNDECLARED_CAPABILITY_ACCEPTED")]),
        "{}",
        describe(&report)
    );
}

#[test]
fn an_agent_that_ignores_the_version_header_is_found_once_per_interface() {
    let doc = doc_of(json!([
        interactions()[0].clone(),
        interactions()[1].clone()
    ]));
    let c = || sourced(&doc);
    let agent = A2aAgent::start().expect("the agent starts");
    assert!(codes(&run_on(&agent, A2aBinding::HttpJson, c())).is_empty());
    let agent = A2aAgent::start().expect("the agent starts");
    agent.set_fault(Some(A2aFault::VersionUnchecked));
    let report = run_on(&agent, A2aBinding::HttpJson, c());
    let paths: Vec<(String, &str)> = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter().map(|f| (f.path.clone(), f.reason_code)))
        .collect();
    assert_eq!(
        paths,
        [("A2A-Version".to_owned(), "VERSION_NOT_REJECTED")],
        "{}",
        describe(&report)
    );
}

#[test]
fn a_rest_subscribe_falls_back_to_get_where_post_is_not_routed() {
    let watch = json!({"type": "A2A/Task", "description": "watch a plan being made",
        "providerStates": users(), "auth": alice(), "sideEffects": {"records": 1},
        "request": plan_request(json!({"work_ms": 400})), "terminalState": "TASK_STATE_COMPLETED",
        "followUps": [{"operation": "SubscribeToTask", "after": "TASK_STATE_WORKING",
                       "expect": {"steps": [{"status": {"state": "TASK_STATE_COMPLETED"}}]}}]});
    let doc = doc_of(json!([watch]));
    let c = sourced(&doc);
    let agent = A2aAgent::start().expect("the agent starts");
    agent.set_fault(Some(A2aFault::SubscribeGetOnly));
    let report = run_on(&agent, A2aBinding::HttpJson, c);
    assert!(codes(&report).is_empty(), "{}", describe(&report));
    let verbs: Vec<String> = agent.with_state(|s| {
        s.seen
            .iter()
            .filter(|r| r.method.contains("subscribe") || r.method == "SubscribeToTask")
            .map(|r| r.method.clone())
            .collect()
    });
    assert_eq!(verbs.len(), 2, "a POST, then a GET: {verbs:?}");
}

#[test]
fn a_repeat_sends_the_same_generated_idempotency_key_as_a_new_message() {
    let twice = json!({"type": "A2A/Task", "description": "the same generated request twice",
        "providerStates": users(), "auth": alice(), "repeat": {"times": 2}, "sideEffects": {"records": 1},
        "request": plan_request(json!({})), "terminalState": "TASK_STATE_COMPLETED"});
    let doc = doc_of(json!([twice]));
    let c = sourced(&doc);
    let agent = A2aAgent::start().expect("the agent starts");
    let report = run_on(&agent, A2aBinding::JsonRpc, c);
    assert!(codes(&report).is_empty(), "{}", describe(&report));
    let sent: Vec<serde_json::Value> = agent.with_state(|s| {
        s.seen
            .iter()
            .filter(|r| r.method == "SendMessage")
            .map(|r| r.body.clone())
            .collect()
    });
    assert_eq!(sent.len(), 2);
    // the agent records each request's params
    let key = |b: &serde_json::Value| b["message"]["parts"][0]["data"]["request_id"].clone();
    let id = |b: &serde_json::Value| b["message"]["messageId"].clone();
    assert!(
        key(&sent[0]).is_string() && id(&sent[0]).is_string(),
        "{sent:?}"
    );
    assert_eq!(key(&sent[0]), key(&sent[1]), "one idempotency key");
    assert_ne!(id(&sent[0]), id(&sent[1]), "two messages");
}

#[test]
fn a_served_negative_is_named_by_what_the_send_had_to_be_refused_for() {
    let old = json!({"type": "A2A/Task", "description": "an 0.3 request must be refused",
        "providerStates": users(), "auth": alice(), "negative": true, "a2aVersion": "0.3",
        "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"reply": "message"}}]}}});
    let doc = doc_of(json!([old]));
    let c = || sourced(&doc);
    let agent = A2aAgent::start().expect("the agent starts");
    assert!(codes(&run_on(&agent, A2aBinding::JsonRpc, c())).is_empty());
    agent.set_fault(Some(A2aFault::VersionUnchecked));
    let report = run_on(&agent, A2aBinding::JsonRpc, c());
    assert!(
        codes(&report).contains(&("protocol", "VERSION_NOT_REJECTED")),
        "{}",
        describe(&report)
    );
    assert!(
        !codes(&report).contains(&("authorization", "CROSS_TENANT_ACCESS")),
        "{}",
        describe(&report)
    );
}

#[test]
fn a_card_that_must_be_signed_is_verified_against_the_trusted_keys() {
    let mut doc = doc_of(json!([]));
    doc["agentCard"] = json!({"skills": [{"id": "work-planning"}], "signed": true});
    let check = |fault: Option<A2aFault>, trust: bool| {
        let agent = A2aAgent::start().expect("the agent starts");
        agent.set_fault(fault);
        let c = sourced(&doc);
        let mut config = VerifyConfig::new(
            "planning-agent",
            agent.base_url(),
            ContractSource::Loaded(vec![c]),
        );
        if trust {
            config.trusted_card_keys = vec![agent.card_key()];
        }
        let report = verify_blocking(&config).expect("no operational failure");
        report.contracts[0]
            .findings
            .iter()
            .map(|f| (f.reason_code, f.detail.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(check(None, true), []);
    let untrusted = check(None, false);
    assert_eq!(untrusted.len(), 1);
    assert_eq!(untrusted[0].0, "CARD_SIGNATURE_INVALID");
    assert!(untrusted[0].1.contains("--trust-card-key"), "{untrusted:?}");
    for fault in [A2aFault::UnsignedCard, A2aFault::TamperedCard] {
        let found = check(Some(fault), true);
        assert_eq!(
            found.iter().map(|f| f.0).collect::<Vec<_>>(),
            ["CARD_SIGNATURE_INVALID"],
            "{fault:?}: {found:?}"
        );
    }
}

#[test]
fn a_rest_error_status_may_be_held_to_one_a2a_mapping() {
    // the reference agent answers TASK_NOT_CANCELABLE with v1.0.1's 400
    let cancel_done = json!({"type": "A2A/Task", "description": "a finished plan cannot be cancelled",
        "providerStates": users(), "auth": alice(), "sideEffects": {"records": 1},
        "request": plan_request(json!({})), "terminalState": "TASK_STATE_COMPLETED",
        "followUps": [{"operation": "CancelTask", "error": {"reason": "TASK_NOT_CANCELABLE"}}]});
    let doc = doc_of(json!([cancel_done]));
    let run = |mapping| {
        let agent = A2aAgent::start().expect("the agent starts");
        let c = sourced(&doc);
        let mut config = VerifyConfig::new(
            "planning-agent",
            agent.base_url(),
            ContractSource::Loaded(vec![c]),
        );
        config.state_change_url = Some(agent.state_change_url());
        config.observe_url = Some(agent.observe_url());
        config.a2a_binding = A2aBinding::HttpJson;
        config.a2a_status_mapping = mapping;
        codes(&verify_blocking(&config).expect("no operational failure"))
    };
    use accord_verifier::config::A2aStatusMapping;
    assert!(run(A2aStatusMapping::Either).is_empty());
    assert!(run(A2aStatusMapping::V1_0_1).is_empty());
    assert_eq!(
        run(A2aStatusMapping::V1_0_0),
        BTreeSet::from([("protocol", "ERROR_CODE_MISMATCH")])
    );
}

#[test]
fn a_probe_after_a_state_accesses_the_task_while_it_runs() {
    let watched = json!({"type": "A2A/Task", "description": "nobody else sees my running task",
        "providerStates": users(), "streaming": true, "sideEffects": {"records": 1},
        "auth": {"principal": "alice", "probes": [{"principal": "bob", "after": "TASK_STATE_WORKING", "operations": ["GetTask", "ListTasks"]}]},
        "request": plan_request(json!({"work_ms": 400})), "terminalState": "TASK_STATE_COMPLETED"});
    let doc = doc_of(json!([watched]));
    let c = || sourced(&doc);
    let agent = A2aAgent::start().expect("the agent starts");
    assert!(codes(&run_on(&agent, A2aBinding::JsonRpc, c())).is_empty());
    let agent = A2aAgent::start().expect("the agent starts");
    agent.set_fault(Some(A2aFault::CrossTenant));
    let report = run_on(&agent, A2aBinding::JsonRpc, c());
    assert_eq!(
        codes(&report),
        BTreeSet::from([("authorization", "CROSS_TENANT_ACCESS")]),
        "{}",
        describe(&report)
    );
    // made by the replay while the task ran (the engine's after-send
    // probing leaves `after` probes alone): its path is the probe's
    let paths: Vec<String> = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter().map(|f| f.path.clone()))
        .collect();
    assert_eq!(
        paths,
        ["auth.probes[0].GetTask", "auth.probes[0].ListTasks"]
    );
}

#[test]
fn a_cancel_follow_up_is_the_cancel_the_effect_limit_measures() {
    let cancelled = json!({"type": "A2A/Task", "description": "cancelled by a follow-up",
        "providerStates": users(), "auth": alice(), "streaming": true, "sideEffects": {"records": 0},
        "temporal": {"cancellationEffectWithinMs": 200},
        "request": plan_request(json!({"work_ms": 1000})), "terminalState": "TASK_STATE_CANCELED",
        "followUps": [{"operation": "CancelTask", "after": "TASK_STATE_WORKING", "expect": {}}]});
    let doc = doc_of(json!([cancelled]));
    let c = || sourced(&doc);
    let agent = A2aAgent::start().expect("the agent starts");
    let report = run_on(&agent, A2aBinding::JsonRpc, c());
    assert!(codes(&report).is_empty(), "{}", describe(&report));
    let agent = A2aAgent::start().expect("the agent starts");
    agent.set_fault(Some(A2aFault::SlowCancel(600)));
    let report = run_on(&agent, A2aBinding::JsonRpc, c());
    assert_eq!(
        codes(&report),
        BTreeSet::from([("temporal", "CANCEL_EFFECT_LATE")]),
        "{}",
        describe(&report)
    );
}

#[test]
fn a_blocking_send_with_a_probe_after_a_state_returns_at_once_to_probe_while_it_runs() {
    let watched = json!({"type": "A2A/Task", "description": "nobody else sees my running task (blocking)",
        "providerStates": users(), "sideEffects": {"records": 1},
        "auth": {"principal": "alice", "probes": [{"principal": "bob", "after": "TASK_STATE_WORKING", "operations": ["GetTask"]}]},
        "request": plan_request(json!({"work_ms": 600})), "terminalState": "TASK_STATE_COMPLETED"});
    let doc = doc_of(json!([watched]));
    let c = sourced(&doc);
    let agent = A2aAgent::start().expect("the agent starts");
    agent.set_fault(Some(A2aFault::CrossTenant));
    let report = run_on(&agent, A2aBinding::JsonRpc, c);
    assert_eq!(
        codes(&report),
        BTreeSet::from([("authorization", "CROSS_TENANT_ACCESS")]),
        "{}",
        describe(&report)
    );
}

/// A probe's ListTasks reads every page: a task of alice's listed to bob
/// only behind the first page's `nextPageToken` is found.
#[test]
fn a_task_listed_to_another_principal_on_a_later_page_is_found() {
    let listed = json!({"type": "A2A/Task", "description": "nobody else lists my task",
        "providerStates": users(), "sideEffects": {"records": 1},
        "auth": {"principal": "alice", "probes": [{"principal": "bob", "operations": ["ListTasks"]}]},
        "request": plan_request(json!({})), "terminalState": "TASK_STATE_COMPLETED"});
    clean_then_faulty(
        json!([listed]),
        A2aFault::ListPageLeak,
        ("authorization", "CROSS_TENANT_ACCESS"),
    );
}

/// A task's stream that closes while the task still works is the one
/// finding; the task is followed by polls to its end (the steps the stream
/// no longer showed are warnings, not findings).
#[test]
fn a_stream_closed_before_the_task_ended_is_a_broken_stream() {
    let streamed = json!({"type": "A2A/Task", "description": "a streamed plan",
        "providerStates": users(), "auth": alice(), "streaming": true, "sideEffects": {"records": 1},
        "request": plan_request(json!({"work_ms": 300})),
        "steps": [{"status": {"state": "TASK_STATE_WORKING"}}, {"status": {"state": "TASK_STATE_COMPLETED"}}],
        "terminalState": "TASK_STATE_COMPLETED"});
    clean_then_faulty(
        json!([streamed]),
        A2aFault::StreamClosedEarly,
        ("protocol", "DECLARED_CAPABILITY_BROKEN"),
    );
}

/// A task's stream must start with the task: one that starts with a
/// status update is the one finding, and the task it names is followed
/// (its cancel, follow-ups and probes still run).
#[test]
fn a_stream_that_does_not_start_with_the_task_is_malformed_and_followed() {
    let streamed = json!({"type": "A2A/Task", "description": "a streamed plan, probed",
        "providerStates": users(), "streaming": true, "sideEffects": {"records": 1},
        "auth": {"principal": "alice", "probes": [{"principal": "bob", "operations": ["GetTask"]}]},
        "request": plan_request(json!({"work_ms": 100})),
        "steps": [{"status": {"state": "TASK_STATE_WORKING"}}, {"status": {"state": "TASK_STATE_COMPLETED"}}],
        "followUps": [{"operation": "GetTask", "expect": {"state": "TASK_STATE_COMPLETED"}}],
        "terminalState": "TASK_STATE_COMPLETED"});
    clean_then_faulty(
        json!([streamed]),
        A2aFault::NoTaskFirst,
        ("protocol", "MALFORMED_RESPONSE"),
    );
}

/// A follow-up message in the task's context is answered in that context:
/// a new task of another context is the one finding.
#[test]
fn a_new_task_in_another_context_than_its_message_named_is_malformed() {
    let refined = json!({"type": "A2A/Task", "description": "a plan, then another in its context",
        "providerStates": users(), "auth": alice(), "sideEffects": {"records": 2},
        "request": plan_request(json!({})), "terminalState": "TASK_STATE_COMPLETED",
        "followUps": [{"operation": "SendMessage", "request": plan_request(json!({})),
                       "expect": {"newTask": true, "state": "TASK_STATE_COMPLETED"}}]});
    clean_then_faulty(
        json!([refined]),
        A2aFault::ContextIgnored,
        ("protocol", "MALFORMED_RESPONSE"),
    );
}

/// `interactions` pass on the reference agent, and with `fault` their one
/// finding is `want` (layer, code).
fn clean_then_faulty(interactions: Value, fault: A2aFault, want: (&str, &str)) {
    let doc = doc_of(interactions);
    let agent = A2aAgent::start().expect("the agent starts");
    let report = run_on(&agent, A2aBinding::JsonRpc, sourced(&doc));
    assert_eq!(codes(&report), BTreeSet::new(), "{}", describe(&report));
    agent.set_fault(Some(fault));
    let report = run_on(&agent, A2aBinding::JsonRpc, sourced(&doc));
    assert_eq!(
        codes(&report),
        BTreeSet::from([want]),
        "{}",
        describe(&report)
    );
}
