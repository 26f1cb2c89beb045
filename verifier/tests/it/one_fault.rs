//! One fault, one finding, across drivers: a send whose answer already
//! explains its counters is not judged on them, a call to a tool the
//! server lost is TOOL_MISSING alone, and a fault every repeat shows is
//! one finding naming its sends.

use std::time::Duration;

use accord_fixtures::http::Fault;
use accord_fixtures::mcp::{McpFault, McpProvider};
use accord_verifier::{
    ContractSource, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::{Value, json};

use crate::mcp::ERAS;
use crate::support::{config, contract, http, provider, run};

fn states() -> Value {
    json!([{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}},
           {"name": "a user named alice", "params": {"tenant": "tenant-a"}}])
}

fn call(description: &str, tool: &str, arguments: Value) -> Value {
    json!({"type": "MCP/ToolCall", "description": description, "providerStates": states(),
        "auth": {"principal": "alice", "tenant": "tenant-a"}, "tool": tool, "arguments": arguments})
}

fn lookup(plan: &str) -> Value {
    call(
        "look up a plan",
        "work_plan_lookup",
        json!({"tenant_id": "tenant-a", "plan_id": plan}),
    )
}

fn verify_mcp(server: &McpProvider, era: &str, interactions: Vec<Value>) -> VerificationReport {
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "mcp": era, "jsonSchema": "2020-12"}}});
    let contract = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "one fault").expect("a contract"),
        era,
    );
    let mut config = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![contract]),
    );
    config.state_change_url = Some(server.state_change_url());
    config.observe_url = Some(server.observe_url());
    config.limits.request_timeout = Duration::from_secs(5);
    verify_blocking(&config).expect("no operational failure")
}

/// `(interaction, code, path)` of every finding, in report order.
fn found(report: &VerificationReport) -> Vec<(String, &'static str, String)> {
    report
        .interactions()
        .flat_map(|(_, i)| {
            i.findings
                .iter()
                .map(move |f| (i.description.clone(), f.reason_code, f.path.clone()))
        })
        .collect()
}

fn server(fault: Option<McpFault>) -> McpProvider {
    let server = McpProvider::start().expect("server");
    server.set_fault(fault);
    server
}

#[test]
fn a_served_negative_call_is_not_also_judged_on_the_counters_its_work_moved() {
    let oversize = |negative: Value, side_effects: Option<Value>| {
        let mut i = call(
            "an oversize title is refused",
            "work_plan_draft",
            json!({"tenant_id": "tenant-a", "title": "t".repeat(201)}),
        );
        i["negative"] = negative;
        i["result"] = json!({"isError": true});
        if let Some(s) = side_effects {
            i["sideEffects"] = s;
        }
        i
    };
    for era in ERAS {
        let cases = [
            oversize(json!("invalid_input"), Some(json!({"records": 0}))),
            oversize(json!("invalid_input"), None),
            oversize(json!(true), None),
        ];
        for interaction in cases {
            let clean = verify_mcp(&server(None), era, vec![interaction.clone()]);
            assert_eq!(found(&clean), [], "{era} clean: {interaction}");
            let faulty = server(Some(McpFault::InvalidInputAccepted));
            let got = found(&verify_mcp(&faulty, era, vec![interaction.clone()]));
            let want = [(
                "an oversize title is refused".to_owned(),
                "INVALID_INPUT_ACCEPTED",
                "status".to_owned(),
            )];
            assert_eq!(got, want, "{era}: {interaction}");
        }
    }
}

#[test]
fn a_served_unapproved_commit_is_one_approval_bypassed() {
    let mut unapproved = call(
        "a commit without approval is refused",
        "work_plan_commit",
        json!({"tenant_id": "tenant-a", "plan_id": "plan-1", "approval_id": "approval-never-granted"}),
    );
    unapproved["approval"] = json!({"granted": false, "counter": "commits"});
    unapproved["result"] = json!({"isError": true});
    for era in ERAS {
        assert_eq!(
            found(&verify_mcp(&server(None), era, vec![unapproved.clone()])),
            []
        );
        let faulty = server(Some(McpFault::ApprovalBypassed));
        let got = found(&verify_mcp(&faulty, era, vec![unapproved.clone()]));
        let codes: Vec<&str> = got.iter().map(|(_, c, _)| *c).collect();
        assert_eq!(codes, ["APPROVAL_BYPASSED"], "{era}: {got:?}");
    }
}

/// The calls of a consumer that relies on `work_plan_lookup`, and one
/// that expects a tool that does not exist to be refused.
fn calls_to_a_lost_tool() -> Vec<Value> {
    let mut success = lookup("plan-1");
    success["result"] = json!({"structuredContent": {"plan_id": "plan-1", "status": "draft",
        "steps": [{"title": "rotate keys"}]}});
    let mut tool_error = lookup("plan-404");
    tool_error["description"] = json!("an unknown plan is a tool error");
    tool_error["result"] = json!({"isError": true,
        "content": [{"type": "text", "text": "plan not found"}]});
    let mut rpc_error = lookup("plan-1");
    rpc_error["description"] = json!("a lookup in the wrong region is a protocol error");
    rpc_error["error"] = json!({"code": -32001});
    let mut unknown = call("an unknown tool is refused", "work_plan_shred", json!({}));
    unknown["error"] = json!({"code": -32602});
    vec![success, tool_error, rpc_error, unknown]
}

#[test]
fn every_call_to_a_lost_tool_is_tool_missing_alone() {
    for era in ERAS {
        let clean = found(&verify_mcp(
            &server(None),
            era,
            calls_to_a_lost_tool()[..2].to_vec(),
        ));
        assert_eq!(clean, [], "{era}");
        let faulty = server(Some(McpFault::ToolMissing));
        let got = found(&verify_mcp(&faulty, era, calls_to_a_lost_tool()));
        let missing = |d: &str| (d.to_owned(), "TOOL_MISSING", "tool".to_owned());
        let want = [
            missing("look up a plan"),
            missing("an unknown plan is a tool error"),
            missing("a lookup in the wrong region is a protocol error"),
        ];
        assert_eq!(got, want, "{era}");
    }
}

#[test]
fn a_tool_error_expected_of_a_tool_the_contract_never_relies_on_is_an_unknown_tool() {
    // an isError expectation alone does not say the tool exists: the SDKs
    // answer an unknown tool so (a warning, as without the fault)
    let mut unknown = call("an unknown tool is refused", "work_plan_shred", json!({}));
    unknown["result"] = json!({"isError": true});
    for era in ERAS {
        let report = verify_mcp(&server(None), era, vec![unknown.clone()]);
        assert_eq!(found(&report), [], "{era}");
    }
}

#[test]
fn a_fault_every_repeat_shows_is_one_finding_naming_the_sends() {
    let mut repeated = lookup("plan-1");
    repeated["result"] = json!({"structuredContent": {"plan_id": "plan-1", "status": "draft",
        "steps": [{"title": "rotate keys"}]}});
    repeated["repeat"] = json!({"times": 3});
    for era in ERAS {
        assert_eq!(
            found(&verify_mcp(&server(None), era, vec![repeated.clone()])),
            []
        );
        let faulty = server(Some(McpFault::OutputSchemaViolation));
        let report = verify_mcp(&faulty, era, vec![repeated.clone()]);
        let got = found(&report);
        let codes: Vec<&str> = got.iter().map(|(_, c, _)| *c).collect();
        assert_eq!(codes, ["OUTPUT_SCHEMA_VIOLATION"], "{era}: {got:?}");
        let (_, result) = report.interactions().next().expect("an interaction");
        let detail = result.findings[0].detail.to_string();
        assert!(detail.contains("on sends 1, 2 and 3"), "{era}: {detail}");
    }
}

#[test]
fn an_http_fault_every_repeat_shows_is_one_finding_naming_the_sends() {
    let mut get = http(
        "get an item",
        json!({"method": "GET", "path": "/items/3"}),
        json!({"status": 200, "body": {"id": 3, "name": "widget"}}),
    );
    get["providerStates"] = json!([{"name": "an item exists", "params": {"id": 3}}]);
    get["repeat"] = json!({"times": 2});
    let p = provider();
    let clean = run(&config(&p, vec![contract(vec![get.clone()])]));
    assert!(clean.passed(), "{:?}", found(&clean));
    p.set_fault(Some(Fault::WrongStatus));
    let report = run(&config(&p, vec![contract(vec![get])]));
    let got = found(&report);
    let once: std::collections::BTreeSet<_> = got.iter().collect();
    assert_eq!(once.len(), got.len(), "each fault once: {got:?}");
    let (_, result) = report.interactions().next().expect("an interaction");
    assert!(
        result
            .findings
            .iter()
            .all(|f| f.detail.to_string().contains("on sends 1 and 2")),
        "{:?}",
        result.findings
    );
}

#[test]
fn an_http_status_that_refuses_a_create_is_not_also_its_missing_record() {
    let mut create = http(
        "create an item",
        json!({"method": "POST", "path": "/items", "body": {"content": {"name": "lamp"}}}),
        json!({"status": 201}),
    );
    create["sideEffects"] = json!({"records": 1});
    let p = provider();
    let clean = run(&config(&p, vec![contract(vec![create.clone()])]));
    assert!(clean.passed(), "{:?}", found(&clean));
    p.set_fault(Some(Fault::WrongStatus));
    let report = run(&config(&p, vec![contract(vec![create])]));
    let got = found(&report);
    assert!(!got.is_empty());
    assert!(
        got.iter().all(|(_, code, _)| *code == "RESPONSE_MISMATCH"),
        "{got:?}"
    );
}

#[test]
fn a_served_negative_call_that_expected_a_protocol_error_is_reported() {
    let mut bob = call(
        "bob cannot read alice's plan",
        "work_plan_lookup",
        json!({"tenant_id": "tenant-a", "plan_id": "plan-1"}),
    );
    bob["providerStates"] = json!([{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}},
        {"name": "a user named bob", "params": {"tenant": "tenant-b"}}]);
    bob["auth"] = json!({"principal": "bob", "tenant": "tenant-b"});
    bob["negative"] = json!(true);
    bob["error"] = json!({"code": -32001});
    for era in ERAS {
        let faulty = server(Some(McpFault::CrossTenant));
        let got = found(&verify_mcp(&faulty, era, vec![bob.clone()]));
        let want = [(
            "bob cannot read alice's plan".to_owned(),
            "CROSS_TENANT_ACCESS",
            "status".to_owned(),
        )];
        assert_eq!(got, want, "{era}");
    }
}

#[test]
fn an_a2a_fault_every_repeat_shows_is_one_finding_naming_the_sends() {
    use accord_fixtures::a2a::{A2aAgent, A2aFault};
    let plan = crate::a2a_attribute_pairs::with(|i| {
        i["repeat"] = json!({"times": 2});
        i["sideEffects"] = json!({"records": 1});
    });
    let contract = || crate::a2a_task::sourced(&crate::a2a_task::doc_of(json!([plan.clone()])));
    let binding = accord_verifier::config::A2aBinding::JsonRpc;
    let clean = A2aAgent::start().expect("agent");
    let report = crate::a2a_task::run_on(&clean, binding, contract());
    assert_eq!(found(&report), [], "clean");
    let agent = A2aAgent::start().expect("agent");
    agent.set_fault(Some(A2aFault::ProseArtifact));
    let report = crate::a2a_task::run_on(&agent, binding, contract());
    let got = found(&report);
    let once: std::collections::BTreeSet<_> = got.iter().collect();
    assert_eq!(once.len(), got.len(), "each fault once: {got:?}");
    assert!(
        got.iter().any(|(_, c, _)| *c == "CONTENT_MODE_MISMATCH"),
        "{got:?}"
    );
    let (_, result) = report.interactions().next().expect("an interaction");
    assert!(
        result
            .findings
            .iter()
            .all(|f| f.detail.to_string().contains("on sends 1 and 2")),
        "{:?}",
        result.findings
    );
}
