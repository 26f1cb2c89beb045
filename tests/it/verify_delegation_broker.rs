//! `accord verify --broker-url … --dependencies-from-broker`: the stand-ins
//! are the provider's own latest contracts on the broker (it the consumer),
//! each under its provider's name.

use std::collections::BTreeSet;

use accord_fixtures::a2a::{A2aAgent, A2aFault};
use serde_json::{Value, json};

use crate::broker::BrokerProcess;
use crate::support::{accord, temp_dir};
use crate::verify_delegation::{codes, outcome};

fn publish(broker: &BrokerProcess, file: &std::path::Path) {
    accord()
        .args(["publish"])
        .arg(file)
        .args([
            "--consumer-app-version",
            "1.0.0",
            "--branch",
            "main",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success();
}

#[test]
fn the_dependencies_come_from_the_broker_where_the_provider_is_the_consumer() {
    let broker = BrokerProcess::start(&[]);
    let dir = temp_dir("delegation-broker");
    let record = json!({"mode": "DRAFT_ONLY", "forbiddenTools": ["ticket.create"],
        "traceContext": "propagate", "credential": "notForwarded"});
    let agent_contract = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [{"type": "A2A/Task", "description": "draft a plan without registering tasks",
            "providerStates": [{"name": "a user named alice", "params": {"tenant": "tenant-a"}}],
            "auth": {"principal": "alice", "tenant": "tenant-a"},
            "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"goal": "plan the offsite"}}],
                                    "metadata": {"delegation": record.clone()}}},
            "terminalState": "TASK_STATE_COMPLETED", "delegation": record}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let call = |tool: &str, arguments: Value| {
        json!({"type": "MCP/ToolCall", "description": format!("call {tool}"), "tool": tool,
               "arguments": arguments, "result": {"content": [{"type": "text", "text": "ok"}]}})
    };
    // the agent's own contract with its tool server, named as its wiring names it
    let tools_contract = json!({
        "consumer": {"name": "planning-agent"}, "provider": {"name": "tools"},
        "interactions": [call("meeting.search", json!({"query": "offsite slots"})),
                         call("policy.check", json!({"action": "draft"}))],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}});
    for (name, doc) in [
        ("agent.json", &agent_contract),
        ("tools.json", &tools_contract),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, doc.to_string()).expect("write");
        publish(&broker, &file);
    }
    let run = |fault: Option<A2aFault>| {
        let agent = A2aAgent::start().expect("agent");
        agent.set_fault(fault);
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
                .args([
                    "--broker-url",
                    &broker.url,
                    "--dependencies-from-broker",
                    "--output",
                    "json",
                ]),
        )
    };
    let (code, report, err) = run(None);
    assert_eq!(code, Some(0), "{report}\n{err}");
    let chain = &report["contracts"][0]["interactions"][0]["downstream"];
    assert_eq!(chain[0]["dependency"], "tools", "{report}");
    let (code, report, err) = run(Some(A2aFault::DownstreamSynthetic));
    assert_eq!(code, Some(1), "{report}\n{err}");
    let want: BTreeSet<String> = [
        "DELEGATION_FORBIDDEN_ACTION",
        "CREDENTIAL_FORWARDED",
        "TRACE_CONTEXT_BROKEN",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(codes(&report), want, "{report}");
}
