//! Classification speed: a diff of two 200-tool listings (every tool with
//! an input schema of 8 properties and an output schema with an enum; in
//! the newer one, every tenth tool changed: a required input added, an
//! output enum value dropped, a description reworded), alone and judged
//! for 100 consumers that each read 5 of the tools; and every tool changed.
//! Goal: ≤ 20 ms.
//!
//! Run: `cargo bench -p accord-verifier --bench compat`.

use accord_dsl::model::Contract;
use accord_dsl::model::accord::{JsonType, McpToolExpectation, ToolArgument, ToolResultField};
use accord_verifier::compat::{Kind, classify, consumers_of};
use serde_json::{Value, json};

const TOOLS: usize = 200;
const CONSUMERS: usize = 100;

fn main() {
    divan::main();
}

fn tool(n: usize, changed: bool) -> Value {
    let mut properties = serde_json::Map::new();
    for p in 0..8 {
        properties.insert(
            format!("arg_{p}"),
            json!({"type": "string", "description": "an argument"}),
        );
    }
    let mut required = vec![json!("arg_0")];
    let mut status = vec!["draft", "ready", "rejected"];
    if changed {
        required.push(json!("arg_1"));
        status.remove(0);
    }
    json!({"name": format!("tool_{n:03}"),
        "description": if changed { "Does it differently." } else { "Does it." },
        "inputSchema": {"type": "object", "required": required, "properties": properties},
        "outputSchema": {"type": "object", "required": ["status"],
            "properties": {"status": {"type": "string", "enum": status}, "note": {"type": "string"}}},
        "annotations": {"readOnlyHint": true}})
}

/// Every `every`-th tool changed (0: none).
fn listing(every: usize) -> Value {
    json!({"tools": (0..TOOLS).map(|n| tool(n, every > 0 && n % every == 0)).collect::<Vec<_>>()})
}

fn consumer(c: usize) -> (String, Contract) {
    let tools = (0..5).map(|k| McpToolExpectation {
        name: format!("tool_{:03}", (c * 7 + k * 40) % TOOLS),
        arguments: vec![ToolArgument {
            name: "arg_0".into(),
            json_type: Some(JsonType::String),
            always_sent: true,
            values: vec![],
        }],
        result_fields: vec![ToolResultField {
            path: "$.status".into(),
            json_type: Some(JsonType::String),
            values: vec![json!("draft"), json!("ready")],
        }],
        ..McpToolExpectation::default()
    });
    (
        format!("consumer-{c} 1.0"),
        Contract {
            mcp_tools: tools.collect(),
            ..Contract::default()
        },
    )
}

#[divan::bench(sample_count = 20)]
fn diff_200_tools_for_100_consumers(bencher: divan::Bencher) {
    let (old, new) = (listing(0), listing(10));
    let held: Vec<(String, Contract)> = (0..CONSUMERS).map(consumer).collect();
    bencher.bench_local(|| {
        let changes = classify(Kind::McpTools, &old, &new, &consumers_of(&held));
        assert!(changes.iter().any(|c| c.breaks_a_consumer()));
        changes
    });
}

#[divan::bench(sample_count = 20)]
fn diff_200_tools_alone(bencher: divan::Bencher) {
    let (old, new) = (listing(0), listing(10));
    bencher.bench_local(|| classify(Kind::McpTools, &old, &new, &[]));
}

#[divan::bench(sample_count = 20)]
fn diff_200_tools_all_changed_for_100_consumers(bencher: divan::Bencher) {
    let (old, new) = (listing(0), listing(1));
    let held: Vec<(String, Contract)> = (0..CONSUMERS).map(consumer).collect();
    bencher.bench_local(|| classify(Kind::McpTools, &old, &new, &consumers_of(&held)));
}
