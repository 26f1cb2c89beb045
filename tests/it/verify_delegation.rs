//! Issue 29 end to end: `accord verify --dependency` serves stand-ins for
//! the reference agent's tool server (accord-mock, from the agent's own
//! consumer contract), the agent learns their URLs from the state change,
//! and each delegation key's good and faulty builds get different verdicts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use accord_fixtures::a2a::{A2aAgent, A2aFault, AgentOptions};
use serde_json::{Value, json};

use crate::support::{accord, temp_dir};

/// The orchestrator's contract: one delegated A2A send, its record also
/// in the message's metadata (where the spec language writes it).
pub(crate) fn agent_contract(dir: &Path, delegation: Value) -> PathBuf {
    let doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [{"type": "A2A/Task", "description": "draft a plan without registering tasks",
            "providerStates": [{"name": "a user named alice", "params": {"tenant": "tenant-a"}}],
            "auth": {"principal": "alice", "tenant": "tenant-a"},
            "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"goal": "plan the offsite"}}],
                                    "metadata": {"delegation": delegation.clone()}}},
            "terminalState": "TASK_STATE_COMPLETED",
            "delegation": delegation}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}
    });
    let path = dir.join("orchestrator-planning-agent.json");
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

/// The agent's own contract with its tool server (`pin`: the MCP era).
pub(crate) fn tools_contract(dir: &Path, pin: &str) -> PathBuf {
    let call = |tool: &str, arguments: Value| {
        json!({"type": "MCP/ToolCall", "description": format!("call {tool}"), "tool": tool,
               "arguments": arguments, "result": {"content": [{"type": "text", "text": "ok"}]}})
    };
    let doc = json!({
        "consumer": {"name": "planning-agent"}, "provider": {"name": "tool-server"},
        "interactions": [call("meeting.search", json!({"query": "offsite slots"})),
                         call("policy.check", json!({"action": "draft"}))],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": pin}}
    });
    let path = dir.join(format!("planning-agent-tool-server-{pin}.json"));
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

/// The agent's contract with the helper agent: the one send it may make.
pub(crate) fn helper_contract(dir: &Path) -> PathBuf {
    let doc = json!({
        "consumer": {"name": "planning-agent"}, "provider": {"name": "helper-agent"},
        "interactions": [{"type": "A2A/Task", "description": "book the rooms",
            "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "book the rooms"}]}},
            "terminalState": "TASK_STATE_COMPLETED"}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}
    });
    let path = dir.join("planning-agent-helper-agent.json");
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

pub(crate) fn the_record() -> Value {
    json!({"mode": "DRAFT_ONLY", "allowedTools": ["meeting.search", "policy.check"],
           "forbiddenTools": ["ticket.create"], "traceContext": "propagate", "credential": "notForwarded"})
}

pub(crate) fn run(
    agent: &A2aAgent,
    contract: &Path,
    deps: &[(&str, &Path)],
    binding: &str,
) -> (Option<i32>, Value, String) {
    let mut cmd = accord();
    cmd.args([
        "verify",
        "--provider",
        "planning-agent",
        "--provider-base-url",
    ])
    .arg(agent.base_url())
    .args(["--a2a-binding", binding])
    .args(["--state-change-url", &agent.state_change_url()])
    .args(["--output", "json", "--contract"])
    .arg(contract);
    for (name, path) in deps {
        cmd.arg("--dependency")
            .arg(format!("{name}={}", path.display()));
    }
    outcome(&mut cmd)
}

/// Runs `cmd`: its exit code, its standard output read as the JSON report
/// (`null` when it is not JSON) and its standard error.
pub(crate) fn outcome(cmd: &mut assert_cmd::Command) -> (Option<i32>, Value, String) {
    let out = cmd.output().expect("runs");
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code(),
        report,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub(crate) fn codes(report: &Value) -> BTreeSet<String> {
    report["contracts"][0]["interactions"][0]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| f["reasonCode"].as_str().unwrap_or_default().to_owned())
        .collect()
}

pub(crate) fn agent(fault: Option<A2aFault>) -> A2aAgent {
    let agent = A2aAgent::start().expect("agent");
    agent.set_fault(fault);
    agent
}

#[test]
fn the_synthetic_failure_is_exactly_three_findings_and_the_good_build_passes_on_both_bindings() {
    let dir = temp_dir("delegation-synthetic");
    let contract = agent_contract(&dir, the_record());
    let tools = tools_contract(&dir, "2026-07-28");
    for binding in ["jsonrpc", "http+json"] {
        let good = agent(None);
        let (code, report, err) = run(&good, &contract, &[("tools", &tools)], binding);
        assert_eq!(code, Some(0), "{binding}: {report}\n{err}");
        let result = &report["contracts"][0]["interactions"][0];
        let trace_id = result["traceId"].as_str().expect("a trace id");
        let chain = result["downstream"].as_array().expect("the observed chain");
        let names: Vec<_> = chain
            .iter()
            .map(|c| c["name"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(names, ["meeting.search", "policy.check"], "{report}");
        for call in chain {
            assert_eq!(call["dependency"], "tools");
            assert_eq!(call["kind"], "mcp");
            assert_eq!(call["continuesTrace"], true, "{call}");
            assert!(
                call["traceparent"]
                    .as_str()
                    .is_some_and(|t| t.contains(trace_id))
            );
        }
        let faulty = agent(Some(A2aFault::DownstreamSynthetic));
        let (code, report, err) = run(&faulty, &contract, &[("tools", &tools)], binding);
        assert_eq!(code, Some(1), "{binding}: {report}\n{err}");
        let want: BTreeSet<String> = [
            "DELEGATION_FORBIDDEN_ACTION",
            "CREDENTIAL_FORWARDED",
            "TRACE_CONTEXT_BROKEN",
        ]
        .map(str::to_owned)
        .into();
        assert_eq!(codes(&report), want, "{binding}: {report}");
        let findings = report["contracts"][0]["interactions"][0]["findings"]
            .as_array()
            .expect("findings");
        assert_eq!(findings.len(), 3, "one fault, one finding: {report}");
        assert!(
            !report.to_string().contains("a2a-token-of-alice"),
            "never the credential itself"
        );
    }
}

/// (delegation record, fault, the one code the faulty build gets).
fn pairs() -> Vec<(&'static str, Value, A2aFault, &'static str)> {
    vec![
        (
            "forbiddenTools",
            json!({"forbiddenTools": ["ticket.create"]}),
            A2aFault::DownstreamForbiddenTool,
            "DELEGATION_FORBIDDEN_ACTION",
        ),
        (
            "allowedTools",
            json!({"allowedTools": ["meeting.search", "policy.check"]}),
            A2aFault::DownstreamForbiddenTool,
            "DELEGATION_FORBIDDEN_ACTION",
        ),
        (
            "credential",
            json!({"credential": "notForwarded"}),
            A2aFault::DownstreamForwardsToken,
            "CREDENTIAL_FORWARDED",
        ),
        (
            "traceContext",
            json!({"traceContext": "propagate"}),
            A2aFault::DownstreamDropsTrace,
            "TRACE_CONTEXT_BROKEN",
        ),
        (
            "traceContext reused",
            json!({"traceContext": "propagate"}),
            A2aFault::DownstreamReusesTaskId,
            "TRACE_ID_REUSED",
        ),
        (
            "budget.toolCalls",
            json!({"budget": {"toolCalls": 3}}),
            A2aFault::DownstreamOverBudget,
            "DELEGATION_BUDGET_EXCEEDED",
        ),
        (
            "budget.costUnits",
            json!({"budget": {"costUnits": 4, "costs": {"meeting.search": 2}}}),
            A2aFault::DownstreamOverBudget,
            "DELEGATION_BUDGET_EXCEEDED",
        ),
        (
            "deadlineMs",
            json!({"deadlineMs": 1000}),
            A2aFault::DownstreamLate(1500),
            "DELEGATION_DEADLINE_EXCEEDED",
        ),
        (
            "maxDepth",
            json!({"maxDepth": 0}),
            A2aFault::DownstreamRedelegates,
            "DELEGATION_DEPTH_EXCEEDED",
        ),
        (
            "maxFanOut",
            json!({"maxFanOut": 0}),
            A2aFault::DownstreamRedelegates,
            "DELEGATION_DEPTH_EXCEEDED",
        ),
        (
            "forbiddenAgents",
            json!({"forbiddenAgents": ["helper-agent"]}),
            A2aFault::DownstreamRedelegates,
            "DELEGATION_FORBIDDEN_ACTION",
        ),
    ]
}

#[test]
fn each_delegation_key_passes_the_good_build_and_names_the_faulty_one() {
    let dir = temp_dir("delegation-pairs");
    let tools = tools_contract(&dir, "2026-07-28");
    let helper = helper_contract(&dir);
    for (key, record, fault, code) in pairs() {
        let contract = agent_contract(&dir, record);
        // a forbidden agent is served without being given
        let deps: Vec<(&str, &Path)> = match key {
            "forbiddenAgents" => vec![("tools", &tools)],
            _ => vec![("tools", &tools), ("helper-agent", &helper)],
        };
        let (ok, report, err) = run(&agent(None), &contract, &deps, "jsonrpc");
        assert_eq!(ok, Some(0), "{key}, good build: {report}\n{err}");
        let (failed, report, err) = run(&agent(Some(fault)), &contract, &deps, "jsonrpc");
        assert_eq!(failed, Some(1), "{key}, faulty build: {report}\n{err}");
        assert_eq!(
            codes(&report),
            BTreeSet::from([code.to_owned()]),
            "{key}: {report}"
        );
    }
}

#[test]
fn a_legacy_era_tool_server_is_stood_in_for_too_and_a_call_outside_its_contract_is_found() {
    let dir = temp_dir("delegation-legacy");
    let contract = agent_contract(&dir, json!({"traceContext": "propagate"}));
    let tools = tools_contract(&dir, "2025-11-25");
    let legacy = AgentOptions {
        tools_legacy: true,
        ..AgentOptions::default()
    };
    let good = A2aAgent::start_with(legacy.clone()).expect("agent");
    let (code, report, err) = run(&good, &contract, &[("tools", &tools)], "jsonrpc");
    assert_eq!(code, Some(0), "{report}\n{err}");
    let chain = &report["contracts"][0]["interactions"][0]["downstream"];
    assert!(chain.to_string().contains("policy.check"), "{report}");
    // a 2026-07-28 client against the 2025-11-25 contract breaks its own contract
    let modern = A2aAgent::start().expect("agent");
    let (code, report, err) = run(&modern, &contract, &[("tools", &tools)], "jsonrpc");
    assert_eq!(code, Some(1), "{report}\n{err}");
    assert_eq!(
        codes(&report),
        BTreeSet::from(["DOWNSTREAM_CONTRACT_BROKEN".to_owned()]),
        "{report}"
    );
}

#[test]
fn bad_dependencies_exit_two_with_a_clear_message() {
    let dir = temp_dir("delegation-bad");
    let contract = agent_contract(&dir, the_record());
    let good = agent(None);
    let missing = dir.join("nowhere.json");
    let (code, _, err) = run(&good, &contract, &[("tools", &missing)], "jsonrpc");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--dependency tools=") && err.contains("nowhere.json"),
        "{err}"
    );
    let (code, _, err) = run(&good, &contract, &[("tool server", &missing)], "jsonrpc");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("may hold only letters, digits"), "{err}");
    let empty = dir.join("empty.json");
    std::fs::write(
        &empty,
        json!({"consumer": {"name": "planning-agent"}, "provider": {"name": "x"},
        "interactions": [], "metadata": {"pactSpecification": {"version": "4.0"}}})
        .to_string(),
    )
    .expect("write");
    let (code, _, err) = run(&good, &contract, &[("tools", &empty)], "jsonrpc");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the stand-in for dependency tools cannot be served"),
        "{err}"
    );
}

#[test]
fn downstream_work_after_the_acknowledged_cancel_is_found() {
    let dir = temp_dir("delegation-cancel");
    let tools = tools_contract(&dir, "2026-07-28");
    let doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [{"type": "A2A/Task", "description": "a cancelled plan calls nothing more",
            "streaming": true, "providerStates": [{"name": "the tools are wired"}],
            "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"goal": "plan the offsite", "work_ms": 300}}]}},
            "cancel": {"at": "TASK_STATE_WORKING", "expectState": "TASK_STATE_CANCELED", "observeMs": 900},
            "terminalState": "TASK_STATE_CANCELED"}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}
    });
    let contract = dir.join("cancel.json");
    std::fs::write(&contract, doc.to_string()).expect("write");
    let run = |fault: Option<A2aFault>| {
        let agent = agent(fault);
        outcome(
            accord()
                .args([
                    "verify",
                    "--provider",
                    "planning-agent",
                    "--provider-base-url",
                ])
                .arg(agent.base_url())
                .args(["--state-change-url", &agent.state_change_url()])
                .args(["--observe-url", &agent.observe_url()])
                .args(["--output", "json", "--contract"])
                .arg(&contract)
                .arg("--dependency")
                .arg(format!("tools={}", tools.display())),
        )
    };
    let (code, report, err) = run(None);
    assert_eq!(code, Some(0), "{report}\n{err}");
    let (code, report, err) = run(Some(A2aFault::DownstreamAfterCancel));
    assert_eq!(code, Some(1), "{report}\n{err}");
    assert_eq!(
        codes(&report),
        BTreeSet::from(["SIDE_EFFECT_AFTER_CANCEL".to_owned()]),
        "{report}"
    );
}
