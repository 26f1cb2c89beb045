//! Downstream observation cost (issue 29): 1,000 delegated `A2A/Task`
//! interactions, each making 3 tool calls (two `meeting.search`, one
//! `policy.check`) from the reference agent to a stand-in tool server
//! (accord-mock), verified with the calls observed and judged (the
//! stand-in's observer, attribution, the delegation judge) and without
//! (the same stand-in and calls, nothing observed). Goal: within 1.5×.
//!
//! Run: `cargo bench -p accord-verifier --bench delegation`
//! (`ACCORD_BENCH_INTERACTIONS=N` for another count, `ACCORD_BENCH_ROUNDS`
//! for more rounds; each round runs both, in alternating order).

use std::sync::Arc;
use std::time::{Duration, Instant};

use accord_fixtures::a2a::{A2aAgent, AgentOptions};
use accord_mock::{MockOptions, MockServer, Observed};
use accord_verifier::downstream::{Dependency, Downstream, DownstreamCall, DownstreamLog, Surface};
use accord_verifier::{ContractSource, SourcedContract, VerifyConfig, verify_blocking};
use serde_json::{Value, json};

fn main() {
    // reqwest is built without a default TLS provider (see rust-deps)
    let _ = rustls::crypto::ring::default_provider().install_default();
    let n = env("ACCORD_BENCH_INTERACTIONS", 1000);
    let rounds = env("ACCORD_BENCH_ROUNDS", 3);
    let contract = contract(n);
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let order = if round % 2 == 0 {
            [false, true]
        } else {
            [true, false]
        };
        for observed in order {
            let took = run(&contract, n, observed);
            println!(
                "round {round}: {} {:.3} s",
                if observed {
                    "observed    "
                } else {
                    "not observed"
                },
                took.as_secs_f64()
            );
            if observed {
                with.push(took)
            } else {
                without.push(took)
            }
        }
    }
    let (w, wo) = (median(&mut with), median(&mut without));
    println!(
        "{n} delegated interactions x 3 tool calls: median {:.3} s observed, {:.3} s not observed: {:.2}x (goal <= 1.5x)",
        w.as_secs_f64(),
        wo.as_secs_f64(),
        w.as_secs_f64() / wo.as_secs_f64()
    );
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// One verification of the contract; the stand-in observed or not.
fn run(contract: &SourcedContract, n: usize, observed: bool) -> Duration {
    let log = DownstreamLog::default();
    let sink = log.clone();
    let options = MockOptions {
        observer: observed.then(|| -> accord_mock::Observer {
            Arc::new(move |o: Observed| sink.push(call_of(o)))
        }),
        ..MockOptions::default()
    };
    let tools = MockServer::start_with(&tools_contract(), options).expect("the stand-in starts");
    let agent = A2aAgent::start_with(AgentOptions {
        tools_mcp_url: tools.mcp_url(),
        ..AgentOptions::default()
    })
    .expect("the agent starts");
    let mut config = VerifyConfig::new(
        "planning-agent",
        agent.base_url(),
        ContractSource::Loaded(vec![contract.clone()]),
    );
    config.downstream = observed.then(|| Downstream {
        dependencies: vec![Dependency {
            name: "tools".into(),
            url: tools.url().to_owned(),
            a2a_card_url: None,
            mcp_url: tools.mcp_url(),
        }],
        log,
    });
    let start = Instant::now();
    let report = verify_blocking(&config).expect("no operational failure");
    let took = start.elapsed();
    assert!(
        report.passed(),
        "{:?}",
        report.contracts[0].interactions[0].findings
    );
    let calls: usize = report.interactions().map(|(_, i)| i.downstream.len()).sum();
    assert_eq!(
        calls,
        if observed { 3 * n } else { 0 },
        "every call attributed"
    );
    assert!(
        tools.verify().mismatches.is_empty(),
        "{}",
        tools.verify().table()
    );
    took
}

fn call_of(o: Observed) -> DownstreamCall {
    DownstreamCall {
        dependency: "tools".into(),
        at: o.at,
        method: o.method,
        path: o.path,
        headers: o.headers,
        surface: match o.surface {
            accord_mock::Surface::Http => Surface::Http,
            accord_mock::Surface::A2a {
                operation,
                metadata,
            } => Surface::A2a {
                operation,
                metadata,
            },
            accord_mock::Surface::Mcp { method, tool } => Surface::Mcp { method, tool },
        },
        mismatch: o.mismatch.map(|m| m.line()),
    }
}

fn contract(n: usize) -> SourcedContract {
    let record = json!({"mode": "DRAFT_ONLY", "allowedTools": ["meeting.search", "policy.check"],
        "forbiddenTools": ["ticket.create"], "budget": {"toolCalls": 3},
        "traceContext": "propagate", "credential": "notForwarded"});
    let one = |i: usize| -> Value {
        json!({"type": "A2A/Task", "description": format!("draft plan #{i}"),
            "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"goal": "plan the offsite", "searches": 2}}],
                                    "metadata": {"delegation": record.clone()}}},
            "terminalState": "TASK_STATE_COMPLETED", "delegation": record.clone()})
    };
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": (0..n).map(one).collect::<Vec<_>>(),
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "bench").expect("a contract"),
        "bench",
    )
}

fn tools_contract() -> accord_dsl::Contract {
    let call = |tool: &str, arguments: Value| {
        json!({"type": "MCP/ToolCall", "description": format!("call {tool}"), "tool": tool,
               "arguments": arguments, "result": {"content": [{"type": "text", "text": "ok"}]}})
    };
    let doc = json!({"consumer": {"name": "planning-agent"}, "provider": {"name": "tool-server"},
        "interactions": [call("meeting.search", json!({"query": "offsite slots"})),
                         call("policy.check", json!({"action": "draft"}))],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}});
    accord_dsl::pact::from_value(&doc, "tools").expect("a contract")
}
