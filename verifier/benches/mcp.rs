//! MCP replay speed: 1,000 `tools/call` interactions of a read-only tool,
//! each observed (`sideEffects`), against the reference MCP server on
//! loopback at `--jobs 1`, side by side with a plain client loop sending
//! the same requests (observe, call, observe) and judging nothing. Per era.
//!
//! Run: `cargo bench -p accord-verifier --bench mcp`
//! (`ACCORD_BENCH_MCP_ERA=2025-11-25` runs one era alone, so that
//! `perf stat` of the binary measures the CPU of one era).

use std::time::Duration;

use accord_fixtures::mcp::McpProvider;
use accord_verifier::{ContractSource, SourcedContract, VerifyConfig, verify_blocking};
use serde_json::{Value, json};

const CALLS: usize = 1000;
const ERAS: [&str; 2] = ["2026-07-28", "2025-11-25"];

/// The eras to run: `ACCORD_BENCH_MCP_ERA`'s, else both.
fn eras() -> Vec<&'static str> {
    let only = std::env::var("ACCORD_BENCH_MCP_ERA").ok();
    let eras: Vec<_> = ERAS
        .into_iter()
        .filter(|era| only.as_deref().is_none_or(|o| o == *era))
        .collect();
    assert!(!eras.is_empty(), "ACCORD_BENCH_MCP_ERA: one of {ERAS:?}");
    eras
}

fn main() {
    // reqwest is built without a default TLS provider (see rust-deps)
    let _ = rustls::crypto::ring::default_provider().install_default();
    divan::main();
}

/// A server with alice's plan, and the contract of `CALLS` lookups.
fn setup(era: &str) -> (McpProvider, VerifyConfig) {
    let server = McpProvider::start().expect("the reference server starts");
    let client = reqwest::blocking::Client::new();
    client
        .post(server.state_change_url())
        .json(&json!({"state": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}, "action": "setup"}))
        .send()
        .expect("the plan is set up");
    let lookup = |n: usize| {
        json!({"type": "MCP/ToolCall", "description": format!("look up plan-1, #{n}"),
            "sideEffects": {"records": 0},
            "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
            "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]}}})
    };
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": (0..CALLS).map(lookup).collect::<Vec<_>>(),
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "mcp": era}}});
    let contract = accord_dsl::pact::from_value(&doc, "bench").expect("a contract");
    let mut config = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![SourcedContract::new(contract, "bench")]),
    );
    config.observe_url = Some(server.observe_url());
    config.jobs = 1;
    config.limits.request_timeout = Duration::from_secs(10);
    (server, config)
}

#[divan::bench(args = eras(), sample_count = 5)]
fn verifier(bencher: divan::Bencher, era: &str) {
    let (server, config) = setup(era);
    bencher.bench(|| {
        let report = verify_blocking(&config).expect("runs");
        assert!(report.passed(), "{:?}", report.by_layer());
    });
    drop(server);
}

#[divan::bench(args = eras(), sample_count = 5)]
fn plain_loop(bencher: divan::Bencher, era: &str) {
    let (server, _) = setup(era);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let client = reqwest::Client::new();
    bencher.bench(|| runtime.block_on(plain(&client, &server, era)));
    drop(server);
}

/// Observe, call, observe — `CALLS` times, with the era's framing.
async fn plain(client: &reqwest::Client, server: &McpProvider, era: &str) {
    let url = server.mcp_url();
    let modern = era == "2026-07-28";
    let session = if modern {
        None
    } else {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": era, "capabilities": {}, "clientInfo": {"name": "plain", "version": "1"}}});
        let reply = post(client, &url, &init, None, era).await;
        let sid = reply
            .headers()
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap_or_default().to_owned());
        let _ = reply.bytes().await;
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let _ = post(client, &url, &note, sid.as_deref(), era)
            .await
            .bytes()
            .await;
        sid
    };
    for id in 1..=CALLS {
        observe(client, server).await;
        let mut params = json!({"name": "work_plan_lookup",
            "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"}});
        if modern {
            params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": era,
                "io.modelcontextprotocol/clientCapabilities": {}});
        }
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let body = post(client, &url, &call, session.as_deref(), era)
            .await
            .bytes()
            .await;
        assert!(body.is_ok_and(|b| !b.is_empty()));
        observe(client, server).await;
    }
}

async fn post(
    client: &reqwest::Client,
    url: &str,
    message: &Value,
    session: Option<&str>,
    era: &str,
) -> reqwest::Response {
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", era)
        .body(message.to_string());
    if era == "2026-07-28" {
        request = request.header("mcp-method", message["method"].as_str().unwrap_or_default());
        if let Some(name) = message["params"]["name"].as_str() {
            request = request.header("mcp-name", name);
        }
    }
    if let Some(sid) = session {
        request = request.header("mcp-session-id", sid);
    }
    request.send().await.expect("the server answers")
}

async fn observe(client: &reqwest::Client, server: &McpProvider) {
    let counters = client
        .get(server.observe_url())
        .send()
        .await
        .expect("observed")
        .bytes()
        .await;
    assert!(counters.is_ok());
}
