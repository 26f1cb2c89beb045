//! How long the static cross-check takes through the API: a provider with
//! 100 live consumer contracts that each rely on all 50 of its tools
//! declares its 50-tool list (the `PUT` runs the check: the selection, the
//! contracts read, 5,000 tool checks, the admission move). A measurement,
//! not an assertion (a noisy machine):
//!
//! `cargo test -p accord-broker --test it -- --ignored static_check_speed --nocapture`

use std::fmt::Write;
use std::time::Instant;

use base64::Engine;
use serde_json::{Value, json};

use crate::support::{TestApp, each_backend};

pub const TOOLS: usize = 50;
pub const CONSUMERS: usize = 100;

fn spec(consumer: usize) -> String {
    let mut yaml = format!(
        "consumer: consumer-{consumer}\nprovider: wide-tools\nprotocols: {{ mcp: \"2026-07-28\" }}\nmcp_tools:\n"
    );
    for t in 0..TOOLS {
        let _ = write!(
            yaml,
            "  - name: tool_{t:03}\n    arguments: {{ arg_0: string }}\n    reads: {{ status: {{ type: string, enum: [draft, ready] }} }}\n"
        );
    }
    yaml.push_str("interactions:\n  - mcp: call the first tool\n    tool: tool_000\n    arguments: { arg_0: x }\n    expect:\n      structured:\n        status: ready\n");
    yaml
}

pub fn publish(app: &TestApp, consumer: usize) {
    let none = |_: &str| -> Result<Value, accord_dsl::spec::ResolveError> { Ok(Value::Null) };
    let contract =
        accord_dsl::spec::compile_spec(&spec(consumer), "c.yaml", &none).expect("compiles");
    let content = accord_dsl::pact::to_v4_json(&contract).to_string();
    let name = format!("consumer-{consumer}");
    let reply = app.post("/contracts/publish", &json!({
        "pacticipantName": name, "pacticipantVersionNumber": "1.0", "branch": "main",
        "contracts": [{"consumerName": name, "providerName": "wide-tools", "specification": "pact",
            "contentType": "application/json",
            "content": base64::engine::general_purpose::STANDARD.encode(content)}]
    }));
    assert_eq!(reply.status, 200, "{}", reply.text);
}

pub fn listing() -> Value {
    let tools: Vec<Value> = (0..TOOLS)
        .map(|t| {
            json!({"name": format!("tool_{t:03}"),
                "inputSchema": {"type": "object", "required": ["arg_0"],
                    "properties": {"arg_0": {"type": "string"}}},
                "outputSchema": {"type": "object", "required": ["status"],
                    "properties": {"status": {"type": "string", "enum": ["draft", "ready", "rejected"]}}}})
        })
        .collect();
    json!({"tools": tools})
}

#[test]
#[ignore = "a measurement: run it on purpose"]
fn static_check_speed() {
    each_backend(|app| {
        for c in 0..CONSUMERS {
            publish(app, c);
        }
        let path = "/pacticipants/wide-tools/versions/1.0/declarations/mcp-tools/default";
        let started = Instant::now();
        let reply = app.put(path, &listing());
        let took = started.elapsed();
        assert_eq!(reply.status, 201, "{}", reply.text);
        let check = &reply.json["staticCheck"];
        assert_eq!(check["passed"], true);
        assert_eq!(check["consumers"].as_array().map(Vec::len), Some(CONSUMERS));
        println!(
            "static check, {CONSUMERS} consumers x {TOOLS} tools, the whole PUT: {} ms",
            took.as_millis()
        );
    });
}
