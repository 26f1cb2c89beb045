//! The verifier against a real MCP server on the official Python SDK
//! (`tests/peers/mcp_work_planning.py`, `mcp` 2.x), in both protocol eras:
//! the correct server passes, each injected fault is caught with its code.
//!
//! Needs `ACCORD_PYTHON`, a Python with `mcp` installed (`.ci/run` sets it);
//! without it the test says it skipped, except under `CI=true`.

use std::time::Duration;

use accord_verifier::{
    ContractSource, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::json;

use crate::peers::{Peer, python, start};

/// The peer, relative to the repository.
const SCRIPT: &str = "tests/peers/mcp_work_planning.py";

fn contract(era: &str) -> SourcedContract {
    let plan =
        json!([{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}}]);
    let doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [
            {"type": "MCP/ToolCall", "description": "look up a plan", "providerStates": plan,
             "sideEffects": {"records": 0},
             "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
             "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]},
                        "contentMatchesStructured": true}},
            {"type": "MCP/ToolCall", "description": "draft a plan", "sideEffects": {"records": 1},
             "tool": "work_plan_draft", "arguments": {"tenant_id": "tenant-a", "title": "rotate keys"},
             "result": {"structuredContent": {"plan_id": "plan-101", "status": "draft"},
                        "matchingRules": {"body": {"$.structuredContent.plan_id": {"combine": "AND",
                            "matchers": [{"match": "regex", "regex": "^plan-\\d+$"}]}}}}},
            {"type": "MCP/ToolCall", "description": "an unknown plan is a tool error", "providerStates": plan,
             "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-404"},
             "result": {"isError": true}},
            {"type": "MCP/ToolCall", "description": "commit a plan", "providerStates": plan,
             "sideEffects": {"commits": 1},
             "tool": "work_plan_commit", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
             "result": {"structuredContent": {"plan_id": "plan-1", "status": "committed", "commit_id": "commit-of-plan-1"},
                        "matchingRules": {"body": {"$.structuredContent.commit_id": {"combine": "AND",
                            "matchers": [{"match": "type"}]}}}}},
            {"type": "MCP/ToolCall", "description": "an unknown tool is refused",
             "tool": "work_plan_shred", "arguments": {}, "error": {"code": -32602}}
        ],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": era}}
    });
    SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "peer").expect("a contract"),
        era,
    )
}

fn run(peer: &Peer, era: &str) -> VerificationReport {
    let mut config = VerifyConfig::new(
        "planning-tools",
        peer.base.clone(),
        ContractSource::Loaded(vec![contract(era)]),
    );
    config.state_change_url = Some(format!("{}/_accord/state", peer.base));
    config.observe_url = Some(format!("{}/_accord/observe", peer.base));
    config.limits.request_timeout = Duration::from_secs(10);
    verify_blocking(&config).expect("no operational failure")
}

fn found(report: &VerificationReport) -> Vec<(String, &'static str)> {
    report
        .interactions()
        .flat_map(|(_, i)| {
            i.findings
                .iter()
                .map(move |f| (i.description.clone(), f.reason_code))
        })
        .collect()
}

#[test]
fn the_python_sdk_server_passes_and_its_faults_are_caught_in_both_eras() {
    let Some(python) = python() else { return };
    // each fault, and the one finding of each interaction it breaks
    let lookup = "look up a plan";
    let draft = "draft a plan";
    let faults: [(&str, &[(&str, &str)]); 6] = [
        (
            "read_only_writes",
            // every call of the read-only tool writes, a refused one too
            &[
                (lookup, "SIDE_EFFECT_DECLARATION_MISMATCH"),
                (
                    "an unknown plan is a tool error",
                    "SIDE_EFFECT_DECLARATION_MISMATCH",
                ),
            ],
        ),
        // the consumer relies on the tool: its expected tool error is no
        // unknown tool's
        (
            "tool_missing",
            &[
                (lookup, "TOOL_MISSING"),
                ("an unknown plan is a tool error", "TOOL_MISSING"),
            ],
        ),
        ("required_input_added", &[(lookup, "VALID_INPUT_REJECTED")]),
        (
            "draft_records_nothing",
            &[(draft, "SIDE_EFFECT_DECLARATION_MISMATCH")],
        ),
        (
            "commit_twice",
            &[("commit a plan", "IDEMPOTENCY_VIOLATION")],
        ),
        ("title_unbounded", &[(draft, "INVALID_INPUT_ACCEPTED")]),
    ];
    for era in ["2026-07-28", "2025-11-25"] {
        let clean = start(&python, SCRIPT, None);
        let report = run(&clean, era);
        assert_eq!(
            found(&report),
            [],
            "{era}: {:#?}",
            report.contracts[0].interactions
        );
        // the SDK refuses every invalid input derived from its schemas
        let checks: Vec<&String> = report.interactions().flat_map(|(_, i)| &i.checks).collect();
        assert!(
            checks
                .iter()
                .any(|c| c.contains("oversize string at arguments.title")),
            "{era}: {checks:?}"
        );
        let (invalid, headers): (Vec<&String>, Vec<&String>) =
            checks.iter().partition(|c| c.starts_with("invalid input"));
        assert!(
            invalid.iter().all(|c| c.contains("isError: true")),
            "{era}: {checks:?}"
        );
        // 2026-07-28: the SDK refuses routing headers that disagree with the body
        let refused: Vec<bool> = headers.iter().map(|c| c.contains("error -32020")).collect();
        let want: &[bool] = if era == "2026-07-28" { &[true] } else { &[] };
        assert_eq!(refused, want, "{era}: {checks:?}");
        drop(clean);
        for (fault, want) in faults {
            let peer = start(&python, SCRIPT, Some(fault));
            let got = found(&run(&peer, era));
            let want: Vec<(String, &str)> =
                want.iter().map(|(i, c)| ((*i).to_owned(), *c)).collect();
            assert_eq!(got, want, "{era} {fault}");
        }
    }
}
