//! The mock's A2A agent against a real HTTP client on loopback: the card,
//! both bindings, the task sequence, follow-ups and cancel, errors, and
//! the report.
//!
//! `tasks`: the card, a streamed sequence, a held task, bad requests;
//! `delegation`: the delegation record a send must carry;
//! `turns`: a multi-turn task with push delivery, and subscriptions.

mod bounds;
mod delegation;
mod tasks;
mod turns;

use std::io::{BufRead, BufReader};
use std::time::Duration;

use accord_mock::{MockOptions, MockServer};
use reqwest::blocking::Client;
use serde_json::{Value, json};

pub fn client() -> Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("a client")
}

pub const SPEC: &str = r#"
consumer: orchestrator
provider: planning-agent
protocols: { a2a: "1.0" }
principals:
  alice: { tenant: tenant-a }
  bob: { tenant: tenant-b }
agent_card:
  skills: [work-planning]
  capabilities: { streaming: true }
interactions:
  - a2a: draft a plan
    as: alice
    skill: work-planning
    send:
      stream: true
      data:
        request_id: { $uuid: ~ }
        items: [{ title: rotate keys }]
    expect:
      - { state: SUBMITTED, optional: true }
      - state: WORKING
      - artifact:
          name: work-plan
          media_type: application/json
          data:
            plan_id: { $regex: "^plan-\\d+$", example: plan-1 }
            steps: { $eachLike: { title: { $like: rotate keys } }, min: 1 }
      - state: COMPLETED
    follow_ups:
      - op: GetTask
        params: { historyLength: 0 }
        expect: { state: COMPLETED }
      - op: CancelTask
        error: { reason: TASK_NOT_CANCELABLE }
      - op: GetTask
        as: bob
        error: { reason: TASK_NOT_FOUND }
  - a2a: cancel a slow plan
    as: alice
    send: { text: a slow plan, return_immediately: true }
    expect: [{ state: WORKING }]
    cancel: { at: WORKING, expect: CANCELED }
"#;

pub fn contract() -> accord_dsl::Contract {
    accord_dsl::spec::compile_spec(SPEC, "a2a.yaml", &accord_dsl::spec::NoSchemaFiles)
        .expect("the spec compiles")
}

pub fn start() -> MockServer {
    let options = MockOptions {
        principals: vec![
            ("alice".into(), "token-a".into()),
            ("bob".into(), "token-b".into()),
        ],
        ..MockOptions::default()
    };
    MockServer::start_with(&contract(), options).expect("starts")
}

/// A JSON-RPC call as `token`.
pub fn rpc(c: &Client, url: &str, token: &str, method: &str, params: Value) -> Value {
    c.post(url)
        .bearer_auth(token)
        .header("A2A-Version", "1.0")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .send()
        .expect("answered")
        .json()
        .expect("JSON")
}

/// The `data:` payloads of an SSE answer, read to its end.
pub fn frames(r: reqwest::blocking::Response) -> Vec<Value> {
    BufReader::new(r)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| l.strip_prefix("data: ").map(str::to_owned))
        .map(|d| serde_json::from_str(&d).expect("a JSON frame"))
        .collect()
}

pub fn plan_message() -> Value {
    json!({"messageId": "m-1", "role": "ROLE_USER",
        "parts": [{"data": {"request_id": "0b1c2d3e-0000-4000-8000-000000000000", "items": [{"title": "rotate keys"}]}}]})
}
