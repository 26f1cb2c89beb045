//! Issue 29 for an MCP server under test: the reference MCP server reads
//! plans from the business API it fronts, served as a stand-in from its own
//! contract; a read-only tool must not write there, and the caller's token
//! must not go there (MCP forbids token passthrough).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::support::{accord, temp_dir};
use crate::verify_delegation::{codes, outcome};

/// The orchestrator's contract with the MCP tool server: a read-only
/// lookup (the caller's credential is the `-H Authorization` the run
/// sends).
fn mcp_contract(dir: &Path) -> PathBuf {
    let doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "mcpTools": [{"name": "work_plan_lookup", "annotations": {"readOnlyHint": true}}],
        "interactions": [{"type": "MCP/ToolCall", "description": "look up a plan",
            "providerStates": [{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}}],
            "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
            "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft"}}}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}
    });
    let path = dir.join("orchestrator-planning-tools.json");
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

/// The tool server's own contract with the business API it fronts.
fn api_contract(dir: &Path) -> PathBuf {
    let doc = json!({
        "consumer": {"name": "planning-tools"}, "provider": {"name": "business-api"},
        "interactions": [{"type": "Synchronous/HTTP", "description": "read a plan",
            "request": {"method": "GET", "path": "/plans/plan-1"},
            "response": {"status": 200, "body": {"content": {"id": "plan-1"}}}}],
        "metadata": {"pactSpecification": {"version": "4.0"}}
    });
    let path = dir.join("planning-tools-business-api.json");
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

#[test]
fn an_mcp_server_s_read_only_tool_must_not_write_downstream_nor_forward_the_token() {
    use accord_fixtures::mcp::{McpFault, McpProvider};
    let dir = temp_dir("delegation-mcp");
    let (contract, api) = (mcp_contract(&dir), api_contract(&dir));
    let run = |fault: Option<McpFault>| {
        let server = McpProvider::start().expect("server");
        server.set_fault(fault);
        outcome(
            accord()
                .args([
                    "verify",
                    "--provider",
                    "planning-tools",
                    "--provider-base-url",
                ])
                .arg(server.base_url())
                .args(["--state-change-url", &server.state_change_url()])
                .args(["--output", "json", "--contract"])
                .arg(&contract)
                .args(["-H", "Authorization=Bearer caller-secret-token-1"])
                .arg("--dependency")
                .arg(format!("business-api={}", api.display())),
        )
    };
    let (code, report, err) = run(None);
    assert_eq!(code, Some(0), "{report}\n{err}");
    let chain = &report["contracts"][0]["interactions"][0]["downstream"][0];
    assert_eq!(chain["name"], "GET /plans/plan-1", "{report}");
    assert_eq!(chain["kind"], "http");
    for (fault, code) in [
        (
            McpFault::DownstreamReadOnlyWrites,
            "SIDE_EFFECT_DECLARATION_MISMATCH",
        ),
        (McpFault::DownstreamForwardsToken, "CREDENTIAL_FORWARDED"),
    ] {
        let (exit, report, err) = run(Some(fault));
        assert_eq!(exit, Some(1), "{fault:?}: {report}\n{err}");
        assert_eq!(
            codes(&report),
            BTreeSet::from([code.to_owned()]),
            "{fault:?}: {report}"
        );
    }
}
