//! A2A replay speed: 1,000 streaming `A2A/Task` interactions (a send, its
//! four events over SSE, then the end-state `GetTask`), each making a fresh
//! plan, against the reference agent on loopback at `--jobs 1` and `4`,
//! side by side with a plain client loop sending the same requests (the
//! card once, then send, read the stream, GetTask) and judging nothing.
//!
//! Run: `cargo bench -p accord-verifier --bench a2a`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use accord_fixtures::a2a::A2aAgent;
use accord_verifier::{ContractSource, SourcedContract, VerifyConfig, verify_blocking};
use serde_json::{Value, json};

const TASKS: usize = 1000;
const JOBS: [usize; 2] = [1, 4];

fn main() {
    // reqwest is built without a default TLS provider (see rust-deps)
    let _ = rustls::crypto::ring::default_provider().install_default();
    divan::main();
}

/// The agent (open: no principal), and the contract of `TASKS` plans.
fn setup(jobs: usize) -> (A2aAgent, VerifyConfig) {
    let agent = A2aAgent::start().expect("the reference agent starts");
    let plan = |n: usize| {
        json!({"type": "A2A/Task", "description": format!("draft a plan, #{n}"), "streaming": true,
            "request": {"message": {"role": "ROLE_USER",
                    "parts": [{"data": {"request_id": format!("r-{n}"), "items": [{"title": "x"}]}}]},
                "generators": {"body": {"$.message.parts[0].data.request_id": {"type": "Uuid"}}}},
            "steps": [{"status": {"state": "TASK_STATE_WORKING"}},
                      {"artifact": {"name": "work-plan", "parts": [{"data": {"status": "draft"}, "mediaType": "application/json"}]}},
                      {"status": {"state": "TASK_STATE_COMPLETED"}}],
            "terminalState": "TASK_STATE_COMPLETED"})
    };
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": (0..TASKS).map(plan).collect::<Vec<_>>(),
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let contract = accord_dsl::pact::from_value(&doc, "bench").expect("a contract");
    let mut config = VerifyConfig::new(
        "planning-agent",
        agent.base_url(),
        ContractSource::Loaded(vec![SourcedContract::new(contract, "bench")]),
    );
    config.jobs = jobs;
    config.limits.request_timeout = Duration::from_secs(10);
    (agent, config)
}

#[divan::bench(args = JOBS, sample_count = 5)]
fn verifier(bencher: divan::Bencher, jobs: usize) {
    let (agent, config) = setup(jobs);
    bencher.bench(|| {
        let report = verify_blocking(&config).expect("runs");
        assert!(report.passed(), "{:?}", report.by_layer());
    });
    drop(agent);
}

#[divan::bench(sample_count = 5)]
fn plain_loop(bencher: divan::Bencher) {
    let (agent, _) = setup(1);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let client = reqwest::Client::new();
    bencher.bench(|| runtime.block_on(plain(&client, &agent)));
    drop(agent);
}

/// A request id no other send of this process uses.
fn fresh_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("00000000-0000-4000-8000-{n:012x}")
}

/// The card once, then send + read the stream + GetTask, `TASKS` times.
async fn plain(client: &reqwest::Client, agent: &A2aAgent) {
    let card = client
        .get(agent.card_url())
        .header("accept", "application/json")
        .header("a2a-version", "1.0")
        .send()
        .await
        .expect("the card is served")
        .bytes()
        .await;
    assert!(card.is_ok_and(|b| !b.is_empty()));
    let url = agent.jsonrpc_url();
    for _ in 0..TASKS {
        let send = json!({"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage",
            "params": {"message": {"messageId": fresh_id(), "role": "ROLE_USER",
                "parts": [{"data": {"request_id": fresh_id(), "items": [{"title": "x"}]}}]}}});
        let stream = post(client, &url, &send, "text/event-stream")
            .await
            .bytes()
            .await
            .expect("the stream is read");
        let stream = String::from_utf8_lossy(&stream);
        let events: Vec<&str> = stream
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .collect();
        assert_eq!(events.len(), 4, "{stream}");
        let first: Value = serde_json::from_str(events[0].trim()).expect("a JSON event");
        let task_id = first["result"]["task"]["id"].as_str().expect("a task id");
        let get =
            json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": task_id}});
        let task = post(client, &url, &get, "application/a2a+json, application/json")
            .await
            .bytes()
            .await;
        assert!(task.is_ok_and(|b| !b.is_empty()));
    }
}

async fn post(
    client: &reqwest::Client,
    url: &str,
    message: &Value,
    accept: &str,
) -> reqwest::Response {
    client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", accept)
        .header("a2a-version", "1.0")
        .body(message.to_string())
        .send()
        .await
        .expect("the agent answers")
}
