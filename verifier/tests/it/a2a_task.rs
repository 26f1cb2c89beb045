//! `A2A/Task` against the reference A2A agent on both bindings: a
//! realistic planning contract passes the clean agent, and each fault is
//! caught with exactly its reason code on its layer, and nothing else.

use std::collections::BTreeSet;
use std::time::Duration;

use accord_fixtures::a2a::{A2aAgent, A2aFault};
use accord_verifier::config::A2aBinding;
use accord_verifier::{
    ContractSource, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::{Value, json};

fn rule(matchers: Value) -> Value {
    json!({"combine": "AND", "matchers": matchers})
}

pub(crate) fn users() -> Value {
    json!([{"name": "a user named alice", "params": {"tenant": "tenant-a"}},
           {"name": "a user named bob", "params": {"tenant": "tenant-b"}}])
}

pub(crate) fn alice() -> Value {
    json!({"principal": "alice", "tenant": "tenant-a"})
}

/// A plan request whose `request_id` (the idempotency key) is generated.
pub(crate) fn plan_request(extra: Value) -> Value {
    let mut data = json!({"request_id": "r-1", "items": [{"title": "rotate keys"}]});
    for (k, v) in extra.as_object().into_iter().flatten() {
        data[k] = v.clone();
    }
    json!({"message": {"role": "ROLE_USER", "parts": [{"data": data}]},
           "configuration": {"acceptedOutputModes": ["application/json"]},
           "generators": {"body": {"$.message.parts[0].data.request_id": {"type": "Uuid"}}}})
}

fn plan_artifact() -> Value {
    json!({"artifact": {"name": "work-plan", "parts": [{
        "data": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]},
        "mediaType": "application/json",
        "schema": {"type": "object", "required": ["plan_id", "status", "steps"],
                   "properties": {"plan_id": {"type": "string"}, "status": {"enum": ["draft", "ready"]}}},
        "matchingRules": {"body": {
            "$.data.plan_id": rule(json!([{"match": "regex", "regex": "^plan-\\d+$"}])),
            "$.data.steps": rule(json!([{"match": "type", "min": 1}]))}}}]}})
}

pub(crate) fn interactions() -> Vec<Value> {
    let draft = json!({"type": "A2A/Task", "description": "draft a plan",
        "providerStates": users(), "skill": "work-planning", "streaming": true,
        "auth": {"principal": "alice", "tenant": "tenant-a", "probes": [{"principal": "bob", "tenant": "tenant-b"}]},
        "sideEffects": {"records": 1},
        "temporal": {"acknowledgeWithinMs": 1000, "firstProgressWithinMs": 3000},
        "request": plan_request(json!({})),
        "steps": [{"status": {"state": "TASK_STATE_SUBMITTED", "optional": true}},
                  {"status": {"state": "TASK_STATE_WORKING"}},
                  plan_artifact(),
                  {"status": {"state": "TASK_STATE_COMPLETED"}}],
        "terminalState": "TASK_STATE_COMPLETED",
        "push": {"token": "push-token-1", "scheme": "Bearer",
                 "expectStates": ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]},
        "followUps": [
            {"operation": "GetTask", "params": {"historyLength": 0}, "expect": {"state": "TASK_STATE_COMPLETED"}},
            {"operation": "SendMessage", "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "one more thing"}]}},
             "error": {"code": -32004, "reason": "UNSUPPORTED_OPERATION"}},
            {"operation": "GetTask", "auth": {"principal": "bob", "tenant": "tenant-b"},
             "error": {"code": -32001, "reason": "TASK_NOT_FOUND"}},
            {"operation": "ListTasks", "expect": {"containsTask": true}}]});
    let twice = json!({"type": "A2A/Task", "description": "the same request twice makes one plan",
        "providerStates": users(), "skill": "work-planning", "auth": alice(),
        "repeat": {"times": 2, "key": "$.message.parts[0].data.request_id",
                   "sameFields": ["$.artifacts[0].parts[0].data.plan_id"]},
        "sideEffects": {"records": 1},
        "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"request_id": "r-twice", "items": [{"title": "x"}]}}]},
                    "generators": {"body": {"$.message.parts[0].data.request_id": {"type": "Uuid"},
                                            "$.message.parts[0].data.items[0].title": {"type": "RandomString", "size": 12}}}},
        "steps": [plan_artifact()], "terminalState": "TASK_STATE_COMPLETED"});
    let cancel = json!({"type": "A2A/Task", "description": "a cancelled plan writes nothing",
        "providerStates": users(), "skill": "work-planning", "streaming": true, "auth": alice(),
        "sideEffects": {"records": 0},
        "temporal": {"cancellationEffectWithinMs": 1000, "noNewSideEffectAfterCancelAck": true},
        "request": plan_request(json!({"work_ms": 1500})),
        "cancel": {"at": "TASK_STATE_WORKING", "expectState": "TASK_STATE_CANCELED", "observeMs": 400},
        "terminalState": "TASK_STATE_CANCELED"});
    let input = json!({"type": "A2A/Task", "description": "the agent asks for a deadline",
        "providerStates": users(), "skill": "work-planning", "streaming": true, "auth": alice(),
        "sideEffects": {"records": 1},
        "request": plan_request(json!({"needs_input": true})),
        "steps": [{"status": {"state": "TASK_STATE_INPUT_REQUIRED", "messageParts": [{"text": "Which deadline?"}]}}],
        "followUps": [{"operation": "SendMessage", "after": "TASK_STATE_INPUT_REQUIRED",
            "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "Friday"}]}},
            "expect": {"state": "TASK_STATE_COMPLETED"}}],
        "terminalState": "TASK_STATE_COMPLETED"});
    let hello = json!({"type": "A2A/Task", "description": "a greeting is a direct message",
        "providerStates": users(), "auth": alice(), "response": "message",
        "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"reply": "message"}}]}},
        "steps": [{"message": {"parts": [{"text": "hello",
            "matchingRules": {"body": {"$.text": rule(json!([{"match": "regex", "regex": "^hello.*"}]))}}}]}}]});
    let version = json!({"type": "A2A/Task", "description": "a request without A2A-Version is refused",
        "providerStates": users(), "auth": alice(), "a2aVersion": "",
        "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"reply": "message"}}]}},
        "error": {"reason": "VERSION_NOT_SUPPORTED"}});
    let anonymous = json!({"type": "A2A/Task", "description": "nobody may plan without a credential",
        "providerStates": users(), "auth": {"credential": "none"}, "negative": true,
        "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "plan x"}]}},
        "error": {"httpStatus": 401}});
    vec![draft, twice, cancel, input, hello, version, anonymous]
}

pub(crate) fn contract() -> SourcedContract {
    let mut doc = doc_of(json!(interactions()));
    doc["agentCard"] = json!({"skills": [{"id": "work-planning", "outputModes": ["application/json"], "tags": ["planning"]}],
        "capabilities": {"streaming": true}});
    sourced(&doc)
}

/// The orchestrator's contract document with these interactions.
pub(crate) fn doc_of(interactions: Value) -> Value {
    json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}})
}

/// The contract a document holds.
pub(crate) fn sourced(doc: &Value) -> SourcedContract {
    SourcedContract::new(
        accord_dsl::pact::from_value(doc, "t").expect("a contract"),
        "t",
    )
}

pub(crate) fn run_on(
    agent: &A2aAgent,
    binding: A2aBinding,
    contract: SourcedContract,
) -> VerificationReport {
    let mut c = VerifyConfig::new(
        "planning-agent",
        agent.base_url(),
        ContractSource::Loaded(vec![contract]),
    );
    c.state_change_url = Some(agent.state_change_url());
    c.observe_url = Some(agent.observe_url());
    c.a2a_binding = binding;
    c.limits.request_timeout = Duration::from_secs(5);
    verify_blocking(&c).expect("no operational failure")
}

pub(crate) fn codes(report: &VerificationReport) -> BTreeSet<(&'static str, &'static str)> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .chain(report.contracts.iter().flat_map(|c| c.findings.iter()))
        .map(|f| (f.layer.as_str(), f.reason_code))
        .collect()
}

pub(crate) fn describe(report: &VerificationReport) -> String {
    report
        .interactions()
        .flat_map(|(_, i)| {
            i.findings.iter().map(move |f| {
                format!(
                    "{}: {} {} {}",
                    i.description, f.reason_code, f.path, f.detail
                )
            })
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_clean_agent_passes_a_realistic_planning_contract_on_both_bindings() {
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let agent = A2aAgent::start().expect("the agent starts");
        let report = run_on(&agent, binding, contract());
        assert!(
            codes(&report).is_empty(),
            "{binding:?}:\n{}",
            describe(&report)
        );
        // the card by digest, with its ETag and the interface replayed on
        let card = report
            .declarations
            .iter()
            .find(|d| d.kind == "a2a/agent-card")
            .expect("the card");
        assert!(
            card.digest.starts_with("sha256:") && card.etag.is_some(),
            "{card:?}"
        );
        let binding_name = match binding {
            A2aBinding::JsonRpc => "JSONRPC",
            _ => "HTTP+JSON",
        };
        assert_eq!(card.used.len(), 1, "{card:?}");
        assert!(card.used[0].starts_with(binding_name), "{card:?}");
        let warnings: Vec<_> = report
            .interactions()
            .flat_map(|(_, i)| i.warnings.iter())
            .collect();
        assert!(
            warnings
                .iter()
                .all(|w| w.reason_code == "EXPECTATION_UNCHECKED"),
            "{warnings:?}"
        );
    }
}

#[test]
fn each_fault_is_caught_with_exactly_its_reason_code() {
    let cases = [
        (A2aFault::ProseArtifact, ("schema", "CONTENT_MODE_MISMATCH")),
        (
            A2aFault::TerminalReopened,
            ("protocol", "TERMINAL_STATE_REOPENED"),
        ),
        (
            A2aFault::CancelKeepsWriting,
            ("temporal", "SIDE_EFFECT_AFTER_CANCEL"),
        ),
        (
            A2aFault::CrossTenant,
            ("authorization", "CROSS_TENANT_ACCESS"),
        ),
        (A2aFault::ExistenceLeak, ("authorization", "EXISTENCE_LEAK")),
        (
            A2aFault::SchemaViolation,
            ("schema", "OUTPUT_SCHEMA_VIOLATION"),
        ),
        (
            A2aFault::MissingArtifact,
            ("protocol", "MISSING_REQUIRED_ARTIFACT"),
        ),
        (
            A2aFault::StreamNotClosed,
            ("protocol", "STREAM_NOT_CLOSED_AT_TERMINAL"),
        ),
        (A2aFault::DuplicateEvent, ("protocol", "DUPLICATE_EVENT")),
        (
            A2aFault::IllegalTransition,
            ("protocol", "ILLEGAL_TRANSITION"),
        ),
        (
            A2aFault::TerminalAcceptsMessage,
            ("protocol", "TERMINAL_TASK_ACCEPTED_MESSAGE"),
        ),
        (
            A2aFault::VersionUnchecked,
            ("protocol", "VERSION_NOT_REJECTED"),
        ),
        (
            A2aFault::CredentialInError,
            ("protocol", "SENSITIVE_DATA_IN_ERROR"),
        ),
        (
            A2aFault::SlowStart(1500),
            ("temporal", "ACK_DEADLINE_MISSED"),
        ),
        (
            A2aFault::LateProgress(3500),
            ("temporal", "FIRST_PROGRESS_LATE"),
        ),
        (
            A2aFault::CancelIgnored,
            ("behavior", "CANCEL_NOT_EFFECTIVE"),
        ),
        (
            A2aFault::SlowCancel(1500),
            ("temporal", "CANCEL_EFFECT_LATE"),
        ),
        (
            A2aFault::StreamingBroken,
            ("protocol", "DECLARED_CAPABILITY_BROKEN"),
        ),
        (
            A2aFault::GetTaskDisagrees,
            ("protocol", "ILLEGAL_TRANSITION"),
        ),
        (
            A2aFault::TimestampsBackwards,
            ("protocol", "TIMESTAMP_REGRESSED"),
        ),
        (
            A2aFault::IdempotencyByContent,
            ("behavior", "IDEMPOTENCY_VIOLATION"),
        ),
        (
            A2aFault::PushBroken,
            ("protocol", "DECLARED_CAPABILITY_BROKEN"),
        ),
        (
            A2aFault::EmptyStream,
            ("protocol", "DECLARED_CAPABILITY_BROKEN"),
        ),
        (
            A2aFault::NotFoundLeaksToken,
            ("protocol", "SENSITIVE_DATA_IN_ERROR"),
        ),
    ];
    let mut wrong = Vec::new();
    for (fault, expected) in cases {
        let agent = A2aAgent::start().expect("the agent starts");
        agent.set_fault(Some(fault));
        let report = run_on(&agent, A2aBinding::JsonRpc, contract());
        let got = codes(&report);
        if got != BTreeSet::from([expected]) {
            wrong.push(format!(
                "{fault:?}: expected only {expected:?}, got {got:?}\n{}",
                describe(&report)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
