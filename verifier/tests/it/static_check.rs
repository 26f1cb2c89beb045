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
