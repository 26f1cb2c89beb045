//! `mcpTools` against each profile's listing, what cannot be checked, and
//! the unknown-tool profile, against the reference MCP server (the
//! contract of `mcp.rs`).

use std::time::Duration;

use accord_fixtures::mcp::{McpFault, McpProvider};
use accord_verifier::{
    ContractSource, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::json;

use crate::mcp::{ERAS, contract};

/// The contract with the consumer's `mcpTools` expectations.
pub(crate) fn with_tools(era: &str) -> SourcedContract {
    let mut c = contract(era);
    let tools = json!([
        {"name": "work_plan_lookup", "profile": "alice",
         "arguments": [{"name": "tenant_id", "type": "string", "alwaysSent": true},
                       {"name": "plan_id", "type": "string", "alwaysSent": true}],
         "resultFields": [{"path": "$.status", "type": "string", "enum": ["draft", "ready"]},
                          {"path": "$.steps[*].title", "type": "string"}],
         "annotations": {"readOnlyHint": true}},
        {"name": "work_plan_draft", "profile": "alice", "arguments": [{"name": "tenant_id", "alwaysSent": true}, {"name": "title", "alwaysSent": true}]}
    ]);
    c.contract.mcp_tools = serde_json::from_value(tools).expect("mcpTools");
    c
}

fn run_contract(server: &McpProvider, sourced: SourcedContract) -> VerificationReport {
    let mut config = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![sourced]),
    );
    config.state_change_url = Some(server.state_change_url());
    config.observe_url = Some(server.observe_url());
    // the token the fixture issues to alice in the state `a user named alice`
    let alice = accord_verifier::Token::new("mcp-token-of-alice");
    config.principals.insert("alice".into(), alice);
    verify_blocking(&config).expect("no operational failure")
}

fn contract_codes(report: &VerificationReport) -> Vec<&'static str> {
    report.contracts[0]
        .findings
        .iter()
        .map(|f| f.reason_code)
        .collect()
}

#[test]
fn the_tool_surface_the_consumer_relies_on_is_checked_per_era() {
    for era in ERAS {
        let server = McpProvider::start().expect("server");
        let report = run_contract(&server, with_tools(era));
        assert_eq!(contract_codes(&report), Vec::<&str>::new(), "{era}");
        assert!(report.passed(), "{era}");
        // alice's listing, by canonical digest, named by principal
        let alice: Vec<_> = report
            .declarations
            .iter()
            .filter(|d| d.profile == "alice")
            .collect();
        assert_eq!(alice.len(), 1, "{:?}", report.declarations);
        assert_eq!((alice[0].kind, alice[0].entries), ("mcp/tools/list", 3));
        assert_eq!(alice[0].protocol_version, era);
        let clean_digest = alice[0].digest.clone();
        let json = serde_json::to_value(&report).expect("a report");
        assert!(
            !json.to_string().contains("mcp-token-of-alice"),
            "no token in the report"
        );
        for (fault, code) in [
            (
                McpFault::RequiredInputAdded,
                "BREAKING_REQUIRED_INPUT_ADDED",
            ),
            (McpFault::ToolMissing, "TOOL_MISSING"),
            (McpFault::OutputEnumRemoved, "BREAKING_ENUM_REMOVAL"),
        ] {
            server.set_fault(Some(fault));
            let report = run_contract(&server, with_tools(era));
            assert_eq!(contract_codes(&report), [code], "{era} {fault:?}");
            assert!(!report.passed());
            let changed = report.declarations.iter().find(|d| d.profile == "alice");
            assert_ne!(changed.map(|d| &d.digest), Some(&clean_digest), "{fault:?}");
        }
    }
}

#[test]
fn contract_expectations_that_cannot_be_checked_do_not_pass() {
    // a server that answers nothing but 404: nothing can be listed
    let nothing = accord_fixtures::stub::StubProvider::start(Default::default()).expect("stub");
    let mut c = with_tools("2026-07-28");
    c.contract.interactions.clear();
    let mut config = VerifyConfig::new(
        "planning-tools",
        nothing.base_url(),
        ContractSource::Loaded(vec![c]),
    );
    config.limits.request_timeout = Duration::from_secs(2);
    let report = verify_blocking(&config).expect("no operational failure");
    assert_eq!(
        contract_codes(&report),
        ["EXPECTATION_UNCHECKED", "EXPECTATION_UNCHECKED"]
    );
    assert!(
        !report.passed(),
        "expectations that could not be checked never pass"
    );
    // an Agent Card that cannot be read
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [], "agentCard": {"skills": [{"id": "a-skill-nobody-has"}]},
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let card_only = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "card").expect("a contract"),
        "card",
    );
    let config = VerifyConfig::new(
        "planning-tools",
        nothing.base_url(),
        ContractSource::Loaded(vec![card_only]),
    );
    let report = verify_blocking(&config).expect("no operational failure");
    assert_eq!(contract_codes(&report), ["EXPECTATION_UNCHECKED"]);
    assert!(!report.passed());
}

#[test]
fn the_unknown_tool_profile_grades_the_sdks_answer() {
    let server = McpProvider::start().expect("server");
    let graded = |mode| {
        let mut config = VerifyConfig::new(
            "planning-tools",
            server.base_url(),
            ContractSource::Loaded(vec![contract("2026-07-28")]),
        );
        config.state_change_url = Some(server.state_change_url());
        config.observe_url = Some(server.observe_url());
        config.mcp_unknown_tool = mode;
        let report = verify_blocking(&config).expect("no operational failure");
        let (_, i) = report
            .interactions()
            .find(|(_, i)| i.description == "an unknown tool is refused")
            .expect("the interaction");
        let codes =
            |f: &[accord_verifier::Finding]| f.iter().map(|f| f.reason_code).collect::<Vec<_>>();
        (codes(&i.findings), codes(&i.warnings))
    };
    use accord_verifier::UnknownTool;
    // the fixture answers an unknown tool as both SDKs do: isError
    assert_eq!(
        graded(UnknownTool::Warn),
        (vec![], vec!["ERROR_CODE_MISMATCH"])
    );
    assert_eq!(
        graded(UnknownTool::Spec),
        (vec!["ERROR_CODE_MISMATCH"], vec![])
    );
    assert_eq!(graded(UnknownTool::Sdk), (vec![], vec![]));
}
