//! `$fromState … equal: true`: the expected side carries the value the
//! provider state returned, and the provider must answer exactly that
//! value. Contracts are compiled from the spec language, so the syntax is
//! checked end to end; each failing case has a passing twin.

use std::time::Duration;

use accord_fixtures::a2a::A2aAgent;
use accord_fixtures::mcp::McpProvider;
use accord_verifier::config::A2aBinding;
use accord_verifier::{
    ContractSource, Finding, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::json;

use crate::support::{config, provider, run};

/// A contract compiled from a spec.
fn compiled(yaml: &str) -> SourcedContract {
    let contract = accord_dsl::spec::compile_spec(
        yaml,
        "state_equality.yaml",
        &accord_dsl::spec::NoSchemaFiles,
    )
    .unwrap_or_else(|e| panic!("the spec compiles: {e}"));
    SourcedContract::new(contract, "state_equality.yaml")
}

fn only_findings(report: &VerificationReport) -> Vec<&Finding> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .collect()
}

fn summary(report: &VerificationReport) -> Vec<(&'static str, &'static str, String)> {
    only_findings(report)
        .into_iter()
        .map(|f| (f.layer.as_str(), f.reason_code, f.path.clone()))
        .collect()
}

/// An HTTP interaction: `given` states, the request path and the expected
/// id (`equal` or not).
fn http_spec(given: &str, path: &str, equal: bool) -> String {
    format!(
        "consumer: web\nprovider: items\ninteractions:\n  - http: the item of the state\n    given: {given}\n    request:\n      method: GET\n      path: {path}\n    response:\n      status: 200\n      body: {{ id: {{ $fromState: \"${{id}}\", example: 1, equal: {equal} }} }}\n"
    )
}

/// The request goes to the item the state created (4242, an id only the
/// state's reply carries).
const STATE_PATH: &str = "{ $fromState: \"/items/${id}\", example: /items/1 }";

/// Two items exist; the values say `id` 7 (the later state wins), the
/// request asks for item 8: the provider answers another item's id.
const TWO_ITEMS: &str = "[{ an item exists: { id: 8 } }, { an item exists: { id: 7 } }]";

#[test]
fn an_http_response_must_carry_exactly_the_id_the_state_returned() {
    let p = provider();
    let spec = http_spec("[an item exists]", STATE_PATH, true);
    let report = run(&config(&p, vec![compiled(&spec)]));
    assert!(report.passed(), "{:?}", summary(&report));
}

#[test]
fn an_http_response_with_another_id_fails_on_that_id() {
    let p = provider();
    let spec = http_spec(TWO_ITEMS, "/items/8", true);
    let report = run(&config(&p, vec![compiled(&spec)]));
    assert!(!report.passed());
    assert_eq!(
        summary(&report),
        [("schema", "RESPONSE_MISMATCH", "$.id".to_owned())]
    );
    let f = only_findings(&report)[0];
    assert_eq!(f.pact_attribute, Some("body"));
    assert_eq!(
        (f.expected.as_deref(), f.actual.as_deref()),
        (Some(&json!(7)), Some(&json!(8)))
    );
}

#[test]
fn without_equal_another_id_of_the_same_type_still_passes() {
    let p = provider();
    let spec = http_spec(TWO_ITEMS, "/items/8", false);
    let report = run(&config(&p, vec![compiled(&spec)]));
    assert!(report.passed(), "{:?}", summary(&report));
}

#[test]
fn a_value_no_state_returned_is_unchecked_even_when_the_example_matches() {
    let p = provider();
    // the provider answers 4242, and so does the example: without the
    // state's value the equality would pass on the example alone
    let spec = format!(
        "consumer: web\nprovider: items\ninteractions:\n  - http: the item of the state\n    given: [an item exists]\n    request:\n      method: GET\n      path: {STATE_PATH}\n    response:\n      status: 200\n      body: {{ id: {{ $fromState: \"${{item_id}}\", example: 4242, equal: true }} }}\n"
    );
    let report = run(&config(&p, vec![compiled(&spec)]));
    assert!(!report.passed());
    assert_eq!(
        summary(&report),
        [("schema", "EXPECTATION_UNCHECKED", "$.id".to_owned())]
    );
    let f = only_findings(&report)[0];
    assert!(f.detail.contains("${item_id}"), "{}", f.detail);
}

/// A lookup of plan `plan_id` (an argument: a literal or the state's
/// value) that must answer exactly the state's `plan_id`.
fn mcp_spec(given: &str, plan_id: &str) -> String {
    format!(
        "consumer: orchestrator\nprovider: planning-tools\ninteractions:\n  - mcp: look up the plan of the state\n    given: {given}\n    tool: work_plan_lookup\n    arguments: {{ tenant_id: tenant-a, plan_id: {plan_id} }}\n    expect:\n      structured: {{ plan_id: {{ $fromState: \"${{plan_id}}\", example: plan-1, equal: true }}, status: {{ $enum: [draft, ready] }} }}\n"
    )
}

fn run_mcp(server: &McpProvider, contract: SourcedContract) -> VerificationReport {
    let mut c = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![contract]),
    );
    c.state_change_url = Some(server.state_change_url());
    c.observe_url = Some(server.observe_url());
    c.limits.request_timeout = Duration::from_secs(5);
    verify_blocking(&c).expect("no operational failure")
}

#[test]
fn an_mcp_result_must_carry_exactly_the_plan_the_state_created() {
    let server = McpProvider::start().expect("server");
    let given = "[{ a plan exists: { tenant: tenant-a, plan_id: plan-7 } }]";
    let argument = "{ $fromState: \"${plan_id}\", example: plan-1 }";
    let report = run_mcp(&server, compiled(&mcp_spec(given, argument)));
    assert!(report.passed(), "{:?}", summary(&report));
}

#[test]
fn an_mcp_result_with_another_plan_fails_on_its_plan_id() {
    let server = McpProvider::start().expect("server");
    let given = "[{ a plan exists: { tenant: tenant-a, plan_id: plan-8 } }, { a plan exists: { tenant: tenant-a, plan_id: plan-7 } }]";
    let report = run_mcp(&server, compiled(&mcp_spec(given, "plan-8")));
    assert_eq!(
        summary(&report),
        [(
            "schema",
            "RESPONSE_MISMATCH",
            "$.structuredContent.plan_id".to_owned()
        )]
    );
    let f = only_findings(&report)[0];
    let values = (f.expected.as_deref(), f.actual.as_deref());
    assert_eq!(values, (Some(&json!("plan-7")), Some(&json!("plan-8"))));
}

/// A plan whose step title comes from the state's params (`title`): the
/// message sends `sent`, the artifact must carry exactly the state's title.
fn a2a_spec(sent: &str) -> String {
    format!(
        "consumer: orchestrator\nprovider: planning-agent\ninteractions:\n  - a2a: the plan carries the state's title\n    given: [{{ a goal is set: {{ title: rotate keys }} }}]\n    send: {{ data: {{ items: [{{ title: {sent} }}] }} }}\n    expect:\n      - artifact: {{ data: {{ steps: [{{ title: {{ $fromState: \"${{title}}\", example: x, equal: true }} }}] }} }}\n      - state: COMPLETED\n    side_effects: {{ records: +1 }}\n"
    )
}

#[test]
fn an_a2a_artifact_must_carry_exactly_the_value_of_the_state() {
    let from_state = "{ $fromState: \"${title}\", example: x }";
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let agent = A2aAgent::start().expect("the agent starts");
        let report = crate::a2a_task::run_on(&agent, binding, compiled(&a2a_spec(from_state)));
        assert!(report.passed(), "{binding:?}: {:?}", summary(&report));
    }
}

#[test]
fn an_a2a_artifact_with_another_value_fails_on_that_value() {
    let agent = A2aAgent::start().expect("the agent starts");
    let report = crate::a2a_task::run_on(
        &agent,
        A2aBinding::JsonRpc,
        compiled(&a2a_spec("review budget")),
    );
    assert_eq!(
        summary(&report),
        [(
            "schema",
            "RESPONSE_MISMATCH",
            "steps[0].artifact.parts[0].data.steps[0].title".to_owned()
        )]
    );
    let f = only_findings(&report)[0];
    let values = (f.expected.as_deref(), f.actual.as_deref());
    assert_eq!(
        values,
        (Some(&json!("rotate keys")), Some(&json!("review budget")))
    );
}
