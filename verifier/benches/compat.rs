//! Classification speed: a diff of two 200-tool listings (every tool with
//! an input schema of 8 properties and an output schema with an enum; in
//! the newer one, every tenth tool changed: a required input added, an
//! output enum value dropped, a description reworded), alone and judged
//! for 100 consumers that each read 5 of the tools; and every tool changed.
//! Goal: ≤ 20 ms. Besides, two Agent Cards of 200 skills (every tenth
//! skill's tags changed, an interface and an extension removed, one
//! extension newly required) judged for 100 consumers that each rely on 5
//! skills by tag, an interface and an extension.
//!
//! Run: `cargo bench -p accord-verifier --bench compat`.

use accord_dsl::model::Contract;
use accord_dsl::model::accord::{
    AgentCardExpectations, JsonType, McpToolExpectation, ToolArgument, ToolResultField,
};
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

/// A card of 200 skills; `changed`: every tenth skill's tags changed, the
/// HTTP+JSON interface and one extension gone, another newly required.
fn card(changed: bool) -> Value {
    let skills: Vec<Value> = (0..TOOLS)
        .map(|n| {
            let tag = if changed && n.is_multiple_of(10) {
                "beta"
            } else {
                "read-only"
            };
            json!({"id": format!("skill_{n:03}"), "name": "s", "description": "Does it.",
                "tags": ["planning", tag]})
        })
        .collect();
    let mut interfaces = vec![
        json!({"protocolBinding": "JSONRPC", "protocolVersion": "1.0", "url": "https://a/rpc"}),
    ];
    let mut extensions = vec![json!({"uri": "urn:trace", "required": changed})];
    if !changed {
        interfaces.push(json!({"protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "url": "https://a/rest"}));
        extensions.push(json!({"uri": "urn:geo"}));
    }
    json!({"name": "planner", "description": "Plans.", "version": "1",
        "supportedInterfaces": interfaces,
        "capabilities": {"streaming": true, "extensions": extensions},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "skills": skills})
}

fn card_consumer(c: usize) -> (String, Contract) {
    let skills: Vec<Value> = (0..5)
        .map(|k| json!({"id": format!("skill_{:03}", (c * 7 + k * 40) % TOOLS), "tags": ["read-only"]}))
        .collect();
    let binding = if c.is_multiple_of(2) {
        "JSONRPC"
    } else {
        "HTTP+JSON"
    };
    let expectations: AgentCardExpectations = serde_json::from_value(json!({"skills": skills,
        "interfaces": [{"protocolBinding": binding, "protocolVersion": "1.0"}],
        "extensions": [{"uri": "urn:geo"}]}))
    .expect("card expectations");
    (
        format!("consumer-{c} 1.0"),
        Contract {
            agent_card: Some(expectations),
            ..Contract::default()
        },
    )
}

#[divan::bench(sample_count = 20)]
fn diff_card_200_skills_for_100_consumers(bencher: divan::Bencher) {
    let (old, new) = (card(false), card(true));
    let held: Vec<(String, Contract)> = (0..CONSUMERS).map(card_consumer).collect();
    bencher.bench_local(|| {
        let changes = classify(Kind::AgentCard, &old, &new, &consumers_of(&held));
        assert!(changes.iter().any(|c| c.breaks_a_consumer()));
        changes
    });
}
