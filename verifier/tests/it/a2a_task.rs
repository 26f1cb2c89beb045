//! `A2A/Task` against the reference A2A agent on both bindings: a
//! realistic planning contract passes the clean agent, and each fault is
//! caught with exactly its reason code on its layer, and nothing else.

use std::collections::BTreeSet;
use std::time::Duration;

use accord_fixtures::a2a::{A2aAgent, A2aFault, AgentOptions};
use accord_verifier::config::A2aBinding;
use accord_verifier::{
    ContractSource, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::{Value, json};

fn rule(matchers: Value) -> Value {
    json!({"combine": "AND", "matchers": matchers})
}

fn users() -> Value {
    json!([{"name": "a user named alice", "params": {"tenant": "tenant-a"}},
           {"name": "a user named bob", "params": {"tenant": "tenant-b"}}])
}

fn alice() -> Value {
    json!({"principal": "alice", "tenant": "tenant-a"})
}

/// A plan request whose `request_id` (the idempotency key) is generated.
fn plan_request(extra: Value) -> Value {
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

fn interactions() -> Vec<Value> {
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
        "repeat": {"times": 2}, "sideEffects": {"records": 1},
        "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"request_id": "r-twice", "items": [{"title": "x"}]}}]}},
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

fn contract() -> SourcedContract {
    let doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "agentCard": {"skills": [{"id": "work-planning", "outputModes": ["application/json"], "tags": ["planning"]}],
                      "capabilities": {"streaming": true}},
        "interactions": interactions(),
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}
    });
    SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "test").expect("a contract"),
        "test",
    )
}

fn run_on(agent: &A2aAgent, binding: A2aBinding, contract: SourcedContract) -> VerificationReport {
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

fn codes(report: &VerificationReport) -> BTreeSet<(&'static str, &'static str)> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .chain(report.contracts.iter().flat_map(|c| c.findings.iter()))
        .map(|f| (f.layer.as_str(), f.reason_code))
        .collect()
}

fn describe(report: &VerificationReport) -> String {
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [refused, no_subscribing], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = || {
        SourcedContract::new(
            accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
            "t",
        )
    };
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [interactions()[0].clone(), interactions()[1].clone()],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = || {
        SourcedContract::new(
            accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
            "t",
        )
    };
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [watch], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
        "t",
    );
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [twice], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
        "t",
    );
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [old], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = || {
        SourcedContract::new(
            accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
            "t",
        )
    };
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "agentCard": {"skills": [{"id": "work-planning"}], "signed": true},
        "interactions": [], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let check = |fault: Option<A2aFault>, trust: bool| {
        let agent = A2aAgent::start().expect("the agent starts");
        agent.set_fault(fault);
        let c = SourcedContract::new(
            accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
            "t",
        );
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [cancel_done], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let run = |mapping| {
        let agent = A2aAgent::start().expect("the agent starts");
        let c = SourcedContract::new(
            accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
            "t",
        );
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [watched], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = || {
        SourcedContract::new(
            accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
            "t",
        )
    };
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [cancelled], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = || {
        SourcedContract::new(
            accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
            "t",
        )
    };
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
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [watched], "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
        "t",
    );
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
