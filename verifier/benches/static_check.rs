//! Static cross-check speed (issue 25): a provider's declared listing of 50
//! tools (each with an input schema of 8 properties and an output schema
//! with an enum) judged for 100 live consumer contracts that each rely on
//! all 50 tools (arguments sent, result fields and the enum values read):
//! 5,000 tool checks. Goal: ≤ 50 ms.
//!
//! Run: `cargo bench -p accord-verifier --bench static_check`.

use accord_dsl::model::Contract;
use accord_dsl::model::accord::{JsonType, McpToolExpectation, ToolArgument, ToolResultField};
use accord_verifier::compat::{Kind, static_check};
use serde_json::{Value, json};

const TOOLS: usize = 50;
const CONSUMERS: usize = 100;

fn main() {
    divan::main();
}

fn tool(n: usize) -> Value {
    let mut properties = serde_json::Map::new();
    for p in 0..8 {
        properties.insert(format!("arg_{p}"), json!({"type": "string"}));
    }
    json!({"name": format!("tool_{n:03}"), "description": "Does it.",
        "inputSchema": {"type": "object", "required": ["arg_0"], "properties": properties},
        "outputSchema": {"type": "object", "required": ["status"],
            "properties": {"status": {"type": "string", "enum": ["draft", "ready", "rejected"]},
                "note": {"type": "string"}}},
        "annotations": {"readOnlyHint": true}})
}

fn consumer() -> Contract {
    let tools = (0..TOOLS).map(|n| McpToolExpectation {
        name: format!("tool_{n:03}"),
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
    Contract {
        mcp_tools: tools.collect(),
        ..Contract::default()
    }
}

#[divan::bench(sample_count = 20)]
fn static_check_100_consumers_x_50_tools(bencher: divan::Bencher) {
    let listing = json!({"tools": (0..TOOLS).map(tool).collect::<Vec<_>>()});
    let held: Vec<Contract> = (0..CONSUMERS).map(|_| consumer()).collect();
    bencher.bench_local(|| {
        let found: usize = held
            .iter()
            .map(|c| static_check(Kind::McpTools, &listing, c).len())
            .sum();
        assert_eq!(found, 0);
        found
    });
}
