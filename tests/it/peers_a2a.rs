//! The verifier against a real A2A agent on the official Python SDK
//! (`tests/peers/a2a_work_planning.py`, `a2a-sdk` 1.x) on both bindings:
//! the correct agent passes, each injected fault is caught with exactly
//! its reason code.

use std::collections::BTreeSet;
use std::time::Duration;

use accord_verifier::config::A2aBinding;
use accord_verifier::{
    ContractSource, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::{Value, json};

use crate::peers::{Peer, python, start};

/// The peer, relative to the repository.
const SCRIPT: &str = "tests/peers/a2a_work_planning.py";

fn users() -> Value {
    json!([{"name": "a user named alice", "params": {"tenant": "tenant-a"}},
           {"name": "a user named bob", "params": {"tenant": "tenant-b"}}])
}

fn request(extra: Value) -> Value {
    let mut data = json!({"request_id": "r-1", "items": [{"title": "rotate keys"}]});
    for (k, v) in extra.as_object().into_iter().flatten() {
        data[k] = v.clone();
    }
    json!({"message": {"role": "ROLE_USER", "parts": [{"data": data}]},
           "generators": {"body": {"$.message.parts[0].data.request_id": {"type": "Uuid"}}}})
}

/// A plan request whose `request_id` is the idempotency key and whose
/// item title is generated anew for each retry.
fn keyed_request() -> Value {
    let mut r = request(json!({}));
    r["generators"]["body"]["$.message.parts[0].data.items[0].title"] =
        json!({"type": "RandomString", "size": 10});
    r
}

/// `plan` with its steps matched by type (their titles are generated).
fn any_titles(mut plan: Value) -> Value {
    plan["artifact"]["parts"][0]["matchingRules"]["body"]["$.data.steps"] =
        json!({"combine": "AND", "matchers": [{"match": "type", "min": 1}]});
    plan
}

fn plan() -> Value {
    json!({"artifact": {"name": "work-plan", "parts": [{
        "data": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]},
        "mediaType": "application/json",
        "schema": {"type": "object", "required": ["plan_id", "status"], "properties": {"plan_id": {"type": "string"}}},
        "matchingRules": {"body": {"$.data.plan_id": {"combine": "AND",
            "matchers": [{"match": "regex", "regex": "^plan-\\d+$"}]}}}}]}})
}

fn contract() -> SourcedContract {
    let alice = json!({"principal": "alice", "tenant": "tenant-a"});
    let doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "agentCard": {"skills": [{"id": "work-planning", "outputModes": ["application/json"]}],
                      "capabilities": {"streaming": true}},
        "interactions": [
            {"type": "A2A/Task", "description": "draft a plan", "providerStates": users(),
             "skill": "work-planning", "streaming": true, "sideEffects": {"records": 1},
             "auth": {"principal": "alice", "tenant": "tenant-a", "probes": [{"principal": "bob"}]},
             "request": request(json!({})),
             "steps": [{"status": {"state": "TASK_STATE_WORKING"}}, plan(), {"status": {"state": "TASK_STATE_COMPLETED"}}],
             "terminalState": "TASK_STATE_COMPLETED",
             "push": {"token": "push-token-1", "scheme": "Bearer",
                      "expectStates": ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]},
             "followUps": [
                 {"operation": "SendMessage", "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "more"}]}},
                  "error": {"reason": "UNSUPPORTED_OPERATION"}},
                 {"operation": "GetTask", "auth": {"principal": "bob"}, "error": {"reason": "TASK_NOT_FOUND"}}]},
            {"type": "A2A/Task", "description": "draft a plan, blocking", "providerStates": users(),
             "skill": "work-planning", "auth": alice, "sideEffects": {"records": 1},
             "request": request(json!({})), "steps": [plan()], "terminalState": "TASK_STATE_COMPLETED"},
            {"type": "A2A/Task", "description": "a cancelled plan writes nothing", "providerStates": users(),
             "streaming": true, "auth": alice, "sideEffects": {"records": 0},
             "temporal": {"noNewSideEffectAfterCancelAck": true},
             "request": request(json!({"work_ms": 1000})),
             "cancel": {"at": "TASK_STATE_WORKING", "observeMs": 400}, "terminalState": "TASK_STATE_CANCELED"},
            {"type": "A2A/Task", "description": "the agent asks for a deadline", "providerStates": users(),
             "streaming": true, "auth": alice, "sideEffects": {"records": 1},
             "request": request(json!({"needs_input": true})),
             "steps": [{"status": {"state": "TASK_STATE_INPUT_REQUIRED", "messageParts": [{"text": "Which deadline?"}]}}],
             "followUps": [{"operation": "SendMessage", "after": "TASK_STATE_INPUT_REQUIRED",
                 "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "Friday"}]}},
                 "expect": {"state": "TASK_STATE_COMPLETED"}}],
             "terminalState": "TASK_STATE_COMPLETED"},
            {"type": "A2A/Task", "description": "a retried plan request makes one plan", "providerStates": users(),
             "auth": alice, "sideEffects": {"records": 1},
             "repeat": {"times": 2, "key": "$.message.parts[0].data.request_id",
                        "sameFields": ["$.artifacts[0].parts[0].data.plan_id"]},
             "request": keyed_request(), "steps": [any_titles(plan())], "terminalState": "TASK_STATE_COMPLETED"},
            {"type": "A2A/Task", "description": "push stops once its config is deleted", "providerStates": users(),
             "streaming": true, "auth": alice, "sideEffects": {"records": 1},
             "request": request(json!({"work_ms": 800})),
             "push": {"token": "push-token-2", "scheme": "Bearer", "expectStates": ["TASK_STATE_WORKING"]},
             "followUps": [{"operation": "DeleteTaskPushNotificationConfig", "after": "TASK_STATE_WORKING", "expect": {}}],
             "terminalState": "TASK_STATE_COMPLETED"},
            {"type": "A2A/Task", "description": "no version header is refused", "providerStates": users(),
             "auth": alice, "a2aVersion": "",
             "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"reply": "message"}}]}},
             "error": {"code": -32009, "reason": "VERSION_NOT_SUPPORTED"}}
        ],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}
    });
    SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "peer").expect("a contract"),
        "peer",
    )
}

fn run(peer: &Peer, binding: A2aBinding) -> VerificationReport {
    run_contract(peer, binding, contract())
}

fn run_contract(peer: &Peer, binding: A2aBinding, contract: SourcedContract) -> VerificationReport {
    let mut config = VerifyConfig::new(
        "planning-agent",
        peer.base.clone(),
        ContractSource::Loaded(vec![contract]),
    );
    config.state_change_url = Some(format!("{}/_accord/state", peer.base));
    config.observe_url = Some(format!("{}/_accord/observe", peer.base));
    config.a2a_binding = binding;
    config.limits.request_timeout = Duration::from_secs(10);
    verify_blocking(&config).expect("no operational failure")
}

fn found(report: &VerificationReport) -> BTreeSet<&'static str> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter().map(|f| f.reason_code))
        .collect()
}

fn shown(report: &VerificationReport) -> String {
    let lines: Vec<String> = report
        .interactions()
        .flat_map(|(_, i)| {
            i.findings.iter().map(move |f| {
                format!(
                    "{}: {} {} {}",
                    i.description, f.reason_code, f.path, f.detail
                )
            })
        })
        .collect();
    lines.join("\n")
}

#[test]
fn the_python_sdk_agent_passes_on_both_bindings_and_its_faults_are_caught() {
    let Some(python) = python() else { return };
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let clean = start(&python, SCRIPT, None);
        let report = run(&clean, binding);
        assert!(
            found(&report).is_empty(),
            "{binding:?}:\n{}",
            shown(&report)
        );
    }
    let faults = [
        ("prose_artifact", "CONTENT_MODE_MISMATCH"),
        ("cancel_keeps_writing", "SIDE_EFFECT_AFTER_CANCEL"),
        ("cross_tenant", "CROSS_TENANT_ACCESS"),
        ("schema_violation", "OUTPUT_SCHEMA_VIOLATION"),
        ("missing_artifact", "MISSING_REQUIRED_ARTIFACT"),
        ("terminal_reopened", "TERMINAL_STATE_REOPENED"),
        ("duplicate_final", "DUPLICATE_EVENT"),
        ("context_changed", "MALFORMED_RESPONSE"),
        ("get_context_changed", "MALFORMED_RESPONSE"),
        // the same refusal for the task and for no task: nothing leaks
        ("get_wrong_error", "ERROR_CODE_MISMATCH"),
        ("push_other_task", "PUSH_NOT_DELIVERED"),
        ("prompt_as_user", "MALFORMED_RESPONSE"),
        ("get_drops_artifacts", "MISSING_REQUIRED_ARTIFACT"),
    ];
    let mut wrong = Vec::new();
    for (fault, code) in faults {
        let peer = start(&python, SCRIPT, Some(fault));
        let report = run(&peer, A2aBinding::JsonRpc);
        if found(&report) != BTreeSet::from([code]) {
            wrong.push(format!(
                "{fault}: expected only {code}:\n{}",
                shown(&report)
            ));
        }
    }
    let peer = start(&python, SCRIPT, Some("fail_instead"));
    let report = run(&peer, A2aBinding::HttpJson);
    assert!(
        found(&report).contains("TERMINAL_STATE_MISMATCH"),
        "{}",
        shown(&report)
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The SDK agent whose card declares no streaming refuses the verifier's
/// own probe (`SubscribeToTask` of a running task): no false alarm.
#[test]
fn the_sdk_agent_without_streaming_passes_the_undeclared_streaming_probe() {
    let Some(python) = python() else { return };
    let alice = json!({"principal": "alice", "tenant": "tenant-a"});
    let doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [{"type": "A2A/Task", "description": "a plan, looked at while it runs",
            "providerStates": users(), "auth": alice, "sideEffects": {"records": 1},
            "request": request(json!({"work_ms": 600})), "terminalState": "TASK_STATE_COMPLETED",
            "followUps": [{"operation": "GetTask", "after": "TASK_STATE_WORKING",
                           "expect": {"state": "TASK_STATE_WORKING"}}]}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}
    });
    let contract = || {
        SourcedContract::new(
            accord_dsl::pact::from_value(&doc, "peer").expect("a contract"),
            "peer",
        )
    };
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let peer = start(&python, SCRIPT, Some("streaming_off"));
        let report = run_contract(&peer, binding, contract());
        assert!(
            found(&report).is_empty(),
            "{binding:?}:\n{}",
            shown(&report)
        );
    }
}

/// The same kind of contract written in the spec language
/// (`tests/peers/a2a_work_planning.yaml`), compiled as `accord contract
/// compile` does.
fn from_spec() -> SourcedContract {
    let path = crate::support::repo_root().join("tests/peers/a2a_work_planning.yaml");
    let text = std::fs::read_to_string(&path).expect("the spec");
    let contract = accord_dsl::spec::compile_spec(
        &text,
        "a2a_work_planning.yaml",
        &accord_dsl::spec::NoSchemaFiles,
    )
    .expect("the spec compiles");
    SourcedContract::new(contract, "spec")
}

#[test]
fn a_contract_written_in_the_spec_language_passes_the_sdk_agent_and_catches_its_faults() {
    let Some(python) = python() else { return };
    let run_spec = |peer: &Peer, binding| {
        let mut config = VerifyConfig::new(
            "planning-agent",
            peer.base.clone(),
            ContractSource::Loaded(vec![from_spec()]),
        );
        config.state_change_url = Some(format!("{}/_accord/state", peer.base));
        config.observe_url = Some(format!("{}/_accord/observe", peer.base));
        config.a2a_binding = binding;
        config.limits.request_timeout = Duration::from_secs(10);
        verify_blocking(&config).expect("no operational failure")
    };
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let clean = start(&python, SCRIPT, None);
        let report = run_spec(&clean, binding);
        assert!(
            found(&report).is_empty(),
            "{binding:?}:\n{}",
            shown(&report)
        );
    }
    let peer = start(&python, SCRIPT, Some("cross_tenant"));
    let report = run_spec(&peer, A2aBinding::JsonRpc);
    assert_eq!(
        found(&report),
        BTreeSet::from(["CROSS_TENANT_ACCESS"]),
        "{}",
        shown(&report)
    );
}
