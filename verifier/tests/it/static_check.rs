//! The static cross-check equals replay's declaration layer: the reference
//! MCP server's listing, read by a replay, judged statically with
//! `compat::static_check` against the same contract gives the same codes —
//! none for the clean server, the fault's code for each fault.

use accord_fixtures::mcp::{McpFault, McpProvider};
use accord_verifier::compat::{Kind, static_check};
use accord_verifier::{ContractSource, VerificationReport, VerifyConfig, verify_blocking};

use crate::mcp::ERAS;
use crate::mcp_contract::with_tools;

fn replay(server: &McpProvider, era: &str) -> VerificationReport {
    let mut config = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![with_tools(era)]),
    );
    config.state_change_url = Some(server.state_change_url());
    config.observe_url = Some(server.observe_url());
    let alice = accord_verifier::Token::new("mcp-token-of-alice");
    config.principals.insert("alice".into(), alice);
    verify_blocking(&config).expect("no operational failure")
}

/// The codes replay found, and those the static check finds in alice's
/// listing as replay read it.
fn both(server: &McpProvider, era: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    let report = replay(server, era);
    let replayed = report.contracts[0]
        .findings
        .iter()
        .map(|f| f.reason_code)
        .collect();
    let listing = report
        .declarations
        .iter()
        .find(|d| d.profile == "alice")
        .and_then(|d| d.content.0.clone())
        .expect("alice's listing was read");
    let contract = with_tools(era).contract;
    let statik = static_check(Kind::McpTools, &listing, &contract)
        .into_iter()
        .map(|f| f.reason_code)
        .collect();
    (replayed, statik)
}

#[test]
fn the_static_check_of_what_replay_read_says_what_replay_said() {
    for era in ERAS {
        let server = McpProvider::start().expect("server");
        let (replayed, statik) = both(&server, era);
        assert_eq!(replayed, Vec::<&str>::new(), "{era}: the clean server");
        assert_eq!(statik, Vec::<&str>::new(), "{era}: no false alarm");
        for fault in [
            McpFault::RequiredInputAdded,
            McpFault::ToolMissing,
            McpFault::OutputEnumRemoved,
        ] {
            server.set_fault(Some(fault));
            let (replayed, statik) = both(&server, era);
            assert_eq!(statik, replayed, "{era} {fault:?}");
            assert_eq!(statik.len(), 1, "{era} {fault:?}: {statik:?}");
        }
    }
}

/// The reference A2A agent's card, as replay read it, judged statically
/// against the same contract: no finding where replay found none, and the
/// same declaration-layer code where a contract expects what it lacks.
#[test]
fn the_static_check_of_the_reference_agent_card_says_what_replay_said() {
    use accord_fixtures::a2a::A2aAgent;
    use accord_verifier::config::A2aBinding;
    use serde_json::json;

    use crate::a2a_task::{doc_of, interactions, run_on, sourced};

    let agent = A2aAgent::start().expect("the agent starts");
    let plan = interactions().swap_remove(0);
    let mut doc = doc_of(json!([plan]));
    let declared = |doc: &serde_json::Value| {
        let report = run_on(&agent, A2aBinding::Auto, sourced(doc));
        let replayed: Vec<&str> = report
            .interactions()
            .flat_map(|(_, i)| i.findings.iter())
            .chain(report.contracts.iter().flat_map(|c| c.findings.iter()))
            .filter(|f| f.layer.as_str() == "declaration")
            .map(|f| f.reason_code)
            .collect();
        let card = report
            .declarations
            .iter()
            .find(|d| d.kind == "a2a/agent-card")
            .and_then(|d| d.content.0.clone())
            .expect("the card was read");
        let statik: Vec<&str> = static_check(Kind::AgentCard, &card, &sourced(doc).contract)
            .into_iter()
            .map(|f| f.reason_code)
            .collect();
        (replayed, statik)
    };
    doc["agentCard"] =
        json!({"interfaces": [{"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]});
    let (replayed, statik) = declared(&doc);
    assert_eq!(replayed, Vec::<&str>::new(), "the clean agent");
    assert_eq!(statik, Vec::<&str>::new(), "no false alarm");
    doc["agentCard"]["skills"] = json!([{"id": "no-such-skill"}]);
    let (replayed, statik) = declared(&doc);
    assert_eq!(statik, ["SKILL_MISSING"]);
    assert_eq!(statik, replayed);
}
