//! `MCP/ToolCall` against the reference MCP server, in both protocol eras:
//! a realistic contract passes the clean server, each fault is caught with
//! its reason code on its interaction.

use std::collections::BTreeSet;
use std::time::Duration;

use accord_fixtures::mcp::{McpFault, McpProvider};
use accord_verifier::{
    ContractSource, Layer, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::{Value, json};

pub(crate) const ERAS: [&str; 2] = ["2026-07-28", "2025-11-25"];

fn rule(matchers: Value) -> Value {
    json!({"combine": "AND", "matchers": matchers})
}

fn alice() -> Value {
    json!([{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}},
           {"name": "a user named alice", "params": {"tenant": "tenant-a"}},
           {"name": "a user named bob", "params": {"tenant": "tenant-b"}}])
}

/// The work-planning contract of an orchestrator, pinned to `era`.
pub(crate) fn contract(era: &str) -> SourcedContract {
    let lookup = json!({"type": "MCP/ToolCall", "description": "look up a plan",
        "providerStates": alice(), "sideEffects": {"records": 0},
        "auth": {"principal": "alice", "tenant": "tenant-a", "probes": [
            {"principal": "bob", "tenant": "tenant-b", "unknown": {"plan_id": "plan-does-not-exist"}}]},
        "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
        "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]},
            "contentMatchesStructured": true,
            "matchingRules": {"body": {
                "$.structuredContent.status": rule(json!([{"match": "regex", "regex": "^(draft|ready)$"}])),
                "$.structuredContent.steps": rule(json!([{"match": "type", "min": 1}]))}}}});
    let draft = json!({"type": "MCP/ToolCall", "description": "draft a plan",
        "providerStates": alice(), "auth": {"principal": "alice", "tenant": "tenant-a"},
        "sideEffects": {"records": 1},
        "tool": "work_plan_draft", "arguments": {"tenant_id": "tenant-a", "title": "rotate keys"},
        "result": {"structuredContent": {"plan_id": "plan-101", "status": "draft"},
            "matchingRules": {"body": {"$.structuredContent.plan_id": rule(json!([{"match": "regex", "regex": "^plan-\\d+$"}]))}}}});
    let missing = json!({"type": "MCP/ToolCall", "description": "an unknown plan is a tool error",
        "providerStates": alice(), "auth": {"principal": "alice", "tenant": "tenant-a"},
        "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-404"},
        "result": {"isError": true}});
    let other_tenant = json!({"type": "MCP/ToolCall", "description": "bob cannot read alice's plan",
        "providerStates": [{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}},
                           {"name": "a user named bob", "params": {"tenant": "tenant-b"}}],
        "auth": {"principal": "bob", "tenant": "tenant-b"}, "negative": true,
        "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
        "result": {"isError": true}});
    let unknown_tool = json!({"type": "MCP/ToolCall", "description": "an unknown tool is refused",
        "providerStates": [{"name": "a user named alice", "params": {"tenant": "tenant-a"}}],
        "auth": {"principal": "alice", "tenant": "tenant-a"},
        "tool": "work_plan_shred", "arguments": {}, "error": {"code": -32602}});
    let mut approved = alice();
    approved[2] = json!({"name": "an approval is granted", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}});
    let commit = json!({"type": "MCP/ToolCall", "description": "commit an approved plan",
        "providerStates": approved, "auth": {"principal": "alice", "tenant": "tenant-a"},
        "sideEffects": {"commits": 1}, "approval": {"granted": true, "counter": "commits"},
        "tool": "work_plan_commit",
        "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1", "approval_id": "approval-1"},
        "generators": {"body": {"$.arguments.approval_id": {"type": "ProviderState", "expression": "${approval_id}", "dataType": "STRING"}}},
        "result": {"structuredContent": {"plan_id": "plan-1", "status": "committed", "commit_id": "commit-1"},
            "matchingRules": {"body": {"$.structuredContent.commit_id": rule(json!([{"match": "type"}]))}}}});
    let unapproved = json!({"type": "MCP/ToolCall", "description": "a commit without approval is refused",
        "providerStates": alice(), "auth": {"principal": "alice", "tenant": "tenant-a"},
        "approval": {"granted": false, "counter": "commits"},
        "tool": "work_plan_commit",
        "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1", "approval_id": "approval-never-granted"},
        "result": {"isError": true}});
    let oversize = json!({"type": "MCP/ToolCall", "description": "an oversize title is refused",
        "providerStates": alice(), "auth": {"principal": "alice", "tenant": "tenant-a"}, "negative": true,
        "tool": "work_plan_draft", "arguments": {"tenant_id": "tenant-a", "title": "t".repeat(201)},
        "result": {"isError": true}});
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [lookup, draft, missing, other_tenant, unknown_tool, commit, unapproved, oversize],
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "mcp": era, "jsonSchema": "2020-12"}}});
    SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "mcp test").expect("a contract"),
        era,
    )
}

pub(crate) fn run(server: &McpProvider, era: &str) -> VerificationReport {
    let mut config = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![contract(era)]),
    );
    config.state_change_url = Some(server.state_change_url());
    config.observe_url = Some(server.observe_url());
    config.limits.request_timeout = Duration::from_secs(5);
    verify_blocking(&config).expect("no operational failure")
}

/// `(interaction description, reason code)` of every finding.
fn found(report: &VerificationReport) -> BTreeSet<(String, &'static str)> {
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
fn the_clean_server_passes_in_both_eras_with_the_sdk_warning_only() {
    for era in ERAS {
        let server = McpProvider::start().expect("server");
        let report = run(&server, era);
        assert_eq!(
            found(&report),
            BTreeSet::new(),
            "{era}: {:#?}",
            report.contracts[0].interactions
        );
        let warned: Vec<&str> = report
            .interactions()
            .filter(|(_, i)| !i.warnings.is_empty())
            .map(|(_, i)| i.description.as_str())
            .collect();
        assert_eq!(warned, ["an unknown tool is refused"], "{era}");
        // the invalid inputs derived from each tool's inputSchema ran, once
        // per tool, and are reported
        let checks: Vec<(&str, &str)> = report
            .interactions()
            .flat_map(|(_, i)| {
                i.checks
                    .iter()
                    .map(move |c| (i.description.as_str(), c.as_str()))
            })
            .collect();
        let on = |d: &str, kind: &str| checks.iter().any(|(i, c)| *i == d && c.contains(kind));
        assert!(
            on("draft a plan", "oversize string at arguments.title"),
            "{checks:?}"
        );
        assert!(on("look up a plan", "additional property"), "{checks:?}");
        assert!(
            on("commit an approved plan", "required field missing"),
            "{checks:?}"
        );
        let (invalid, headers): (Vec<_>, Vec<_>) = checks
            .iter()
            .partition(|(_, c)| c.starts_with("invalid input"));
        assert!(
            invalid.iter().all(|(_, c)| c.contains("isError: true")),
            "{checks:?}"
        );
        // 2026-07-28 routes by headers: a mismatch is probed once, and refused
        let probed: Vec<_> = headers
            .iter()
            .map(|(_, c)| c.contains("error -32020"))
            .collect();
        let want: &[bool] = if era == "2026-07-28" { &[true] } else { &[] };
        assert_eq!(probed, want, "{checks:?}");
    }
}

#[test]
fn the_modern_era_sends_its_headers_and_envelope_and_the_legacy_era_a_session() {
    let server = McpProvider::start().expect("server");
    run(&server, "2026-07-28");
    server.with_state(|s| {
        let calls: Vec<_> = s
            .seen
            .iter()
            .filter(|(_, b)| b["method"] == "tools/call")
            .collect();
        assert!(!calls.is_empty());
        for (headers, body) in calls {
            let h = |n: &str| {
                headers
                    .iter()
                    .find(|(k, _)| k == n)
                    .map(|(_, v)| v.as_str())
            };
            assert_eq!(h("mcp-protocol-version"), Some("2026-07-28"));
            assert_eq!(h("mcp-method"), Some("tools/call"));
            assert_eq!(h("mcp-name"), body["params"]["name"].as_str());
            assert_eq!(
                body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
                "2026-07-28"
            );
        }
        assert_eq!(
            s.calls.get("initialize"),
            None,
            "no handshake in 2026-07-28"
        );
    });
    let legacy = McpProvider::start().expect("server");
    run(&legacy, "2025-11-25");
    legacy.with_state(|s| {
        assert!(s.calls.get("initialize").copied().unwrap_or(0) >= 1);
        assert!(
            s.calls
                .get("notifications/initialized")
                .copied()
                .unwrap_or(0)
                >= 1
        );
        assert!(
            s.sessions.is_empty(),
            "every session was closed with DELETE: {:?}",
            s.sessions
        );
    });
}

#[test]
fn each_fault_is_caught_with_its_code_on_its_interaction() {
    let cases: [(McpFault, &str, &str); 15] = [
        (
            McpFault::ReadOnlyWrites,
            "look up a plan",
            "SIDE_EFFECT_DECLARATION_MISMATCH",
        ),
        (
            McpFault::OutputSchemaViolation,
            "look up a plan",
            "OUTPUT_SCHEMA_VIOLATION",
        ),
        (
            McpFault::ErrorAsSuccess,
            "an unknown plan is a tool error",
            "ERROR_DISGUISED_AS_SUCCESS",
        ),
        (
            McpFault::ContentDisagrees,
            "look up a plan",
            "STRUCTURED_CONTENT_DISAGREES",
        ),
        (McpFault::ToolMissing, "look up a plan", "TOOL_MISSING"),
        (
            McpFault::RequiredInputAdded,
            "look up a plan",
            "VALID_INPUT_REJECTED",
        ),
        (
            McpFault::CrossTenant,
            "bob cannot read alice's plan",
            "CROSS_TENANT_ACCESS",
        ),
        // the probe of the lookup: served to bob, then told apart
        (
            McpFault::CrossTenant,
            "look up a plan",
            "CROSS_TENANT_ACCESS",
        ),
        (McpFault::ExistenceLeak, "look up a plan", "EXISTENCE_LEAK"),
        (
            McpFault::InvalidInputAccepted,
            "draft a plan",
            "INVALID_INPUT_ACCEPTED",
        ),
        // a served negative whose arguments the schema forbids is named so
        (
            McpFault::InvalidInputAccepted,
            "an oversize title is refused",
            "INVALID_INPUT_ACCEPTED",
        ),
        (
            McpFault::ApprovalBypassed,
            "a commit without approval is refused",
            "APPROVAL_BYPASSED",
        ),
        (
            McpFault::CredentialInError,
            "an unknown plan is a tool error",
            "SENSITIVE_DATA_IN_ERROR",
        ),
        (
            McpFault::HeadersNotChecked,
            "look up a plan",
            "HEADER_MISMATCH_ACCEPTED",
        ),
        (
            McpFault::CommitsTwice,
            "commit an approved plan",
            "IDEMPOTENCY_VIOLATION",
        ),
    ];
    for era in ERAS {
        for (fault, interaction, code) in cases {
            // 2025-11-25 routes by body: there are no routing headers to check
            if fault == McpFault::HeadersNotChecked && era != "2026-07-28" {
                let server = McpProvider::start().expect("server");
                server.set_fault(Some(fault));
                assert_eq!(found(&run(&server, era)), BTreeSet::new(), "{era}");
                continue;
            }
            let server = McpProvider::start().expect("server");
            server.set_fault(Some(fault));
            let report = run(&server, era);
            let got = found(&report);
            assert!(
                got.contains(&(interaction.to_owned(), code)),
                "{era} {fault:?}: expected {code} on `{interaction}`, got {got:?}"
            );
            // one fault, one reason code (a served negative call is not
            // also judged on the record its work wrote)
            let stray: Vec<_> = got.iter().filter(|(_, c)| *c != code).collect();
            assert!(
                stray.is_empty(),
                "{era} {fault:?}: other findings {stray:?}"
            );
        }
    }
}

/// A server whose `initialize` answers another protocol version than the
/// one asked for does not speak the contract's: one finding, on the
/// interaction that opened the session, whatever else passes.
#[test]
fn a_server_that_answers_another_protocol_version_is_reported_once() {
    let server = McpProvider::start().expect("server");
    server.set_fault(Some(McpFault::OtherProtocolVersion));
    let report = run(&server, "2025-11-25");
    let findings: Vec<_> = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .collect();
    let codes: Vec<&str> = findings.iter().map(|f| f.reason_code).collect();
    assert_eq!(codes, ["UNSUPPORTED_PROTOCOL_BINDING"], "{report:#?}");
    assert_eq!(findings[0].layer, Layer::Declaration);
    assert!(
        findings[0].detail.contains("answered 2025-06-18"),
        "{}",
        findings[0].detail
    );
    // 2026-07-28 has no handshake: nothing to answer otherwise
    assert_eq!(found(&run(&server, "2026-07-28")), BTreeSet::new());
}
