//! `accord verify` of `MCP/ToolCall` contracts against the reference MCP
//! server, through the CLI, in both eras.

use accord_fixtures::mcp::{McpFault, McpProvider};
use serde_json::{Value, json};

use crate::support::{accord, temp_dir};

fn contract_file(era: &str) -> std::path::PathBuf {
    let states =
        json!([{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}}]);
    let doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [{"type": "MCP/ToolCall", "description": "look up a plan", "providerStates": states,
            "sideEffects": {"records": 0},
            "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
            "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]}}}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": era}}
    });
    let file = temp_dir(&format!("verify-mcp-{era}")).join("contract.json");
    std::fs::write(&file, doc.to_string()).expect("write contract");
    file
}

fn verify(server: &McpProvider, era: &str) -> (Option<i32>, Value) {
    let out = accord()
        .args([
            "verify",
            "--provider",
            "planning-tools",
            "--provider-base-url",
        ])
        .arg(server.base_url())
        .args(["--mcp-url", &server.mcp_url()])
        .args(["--state-change-url", &server.state_change_url()])
        .args(["--observe-url", &server.observe_url()])
        .args(["--output", "json", "--contract"])
        .arg(contract_file(era))
        .output()
        .expect("runs");
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), report)
}

#[test]
fn verify_passes_a_correct_mcp_server_and_names_the_fault_of_a_wrong_one() {
    for era in ["2026-07-28", "2025-11-25"] {
        let server = McpProvider::start().expect("server");
        let (code, report) = verify(&server, era);
        assert_eq!(code, Some(0), "{era}: {report}");
        server.set_fault(Some(McpFault::OutputSchemaViolation));
        let (code, report) = verify(&server, era);
        assert_eq!(code, Some(1), "{era}: {report}");
        let finding = &report["contracts"][0]["interactions"][0]["findings"][0];
        assert_eq!(
            finding["reasonCode"], "OUTPUT_SCHEMA_VIOLATION",
            "{era}: {report}"
        );
        assert_eq!(finding["layer"], "schema");
        assert_eq!(finding["path"], "$.structuredContent.status");
    }
}
