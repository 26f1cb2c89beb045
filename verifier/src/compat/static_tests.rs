//! `static_check`: a consumer judged on a declaration alone.

use accord_dsl::model::Contract;
use serde_json::{Value, json};

use super::{Kind, static_check};

fn contract(extra: Value) -> Contract {
    let mut doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planner"},
        "interactions": [],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    if let (Some(doc), Some(extra)) = (doc.as_object_mut(), extra.as_object()) {
        doc.extend(extra.clone());
    }
    accord_dsl::pact::from_value(&doc, "test").expect("a contract")
}

fn reads_review(values: &[&str]) -> Contract {
    contract(json!({"mcpTools": [{"name": "review",
        "arguments": [{"name": "plan_id", "type": "string", "alwaysSent": true}],
        "resultFields": [{"path": "$.status", "type": "string", "enum": values}]}]}))
}

fn tools(status: &[&str]) -> Value {
    json!({"tools": [{"name": "review", "description": "Reviews a plan.",
        "inputSchema": {"type": "object", "required": ["plan_id"], "properties": {"plan_id": {"type": "string"}}},
        "outputSchema": {"type": "object", "required": ["status"],
            "properties": {"status": {"type": "string", "enum": status}}}}]})
}

fn codes(kind: Kind, declared: &Value, contract: &Contract) -> Vec<&'static str> {
    static_check(kind, declared, contract)
        .into_iter()
        .map(|f| f.reason_code)
        .collect()
}

#[test]
fn a_tool_the_consumer_relies_on_and_the_list_lacks_is_missing() {
    let none = json!({"tools": []});
    assert_eq!(
        codes(Kind::McpTools, &none, &reads_review(&["ready"])),
        ["TOOL_MISSING"]
    );
}

#[test]
fn the_declared_tool_gives_no_finding() {
    let declared = tools(&["draft", "ready", "rejected"]);
    assert!(
        codes(
            Kind::McpTools,
            &declared,
            &reads_review(&["draft", "ready"])
        )
        .is_empty()
    );
}

#[test]
fn an_enum_value_the_consumer_relies_on_dropped_is_breaking() {
    let declared = tools(&["ready", "rejected"]);
    assert_eq!(
        codes(
            Kind::McpTools,
            &declared,
            &reads_review(&["draft", "ready"])
        ),
        ["BREAKING_ENUM_REMOVAL"]
    );
    // a consumer that never reads `draft` is not broken by it
    assert!(codes(Kind::McpTools, &declared, &reads_review(&["ready"])).is_empty());
}

#[test]
fn what_a_contract_does_not_expect_is_not_judged() {
    let http = contract(json!({}));
    assert!(codes(Kind::McpTools, &json!({"tools": []}), &http).is_empty());
    assert!(codes(Kind::AgentCard, &json!({"skills": []}), &http).is_empty());
    // tools are not judged against a card, nor a card against tools
    assert!(
        codes(
            Kind::AgentCard,
            &json!({"skills": []}),
            &reads_review(&["ready"])
        )
        .is_empty()
    );
}

fn card(skills: &[&str], streaming: bool) -> Value {
    json!({"name": "planner", "description": "Plans.",
        "supportedInterfaces": [{"url": "http://127.0.0.1:9999/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "version": "1.0.0", "capabilities": {"streaming": streaming},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "skills": skills.iter().map(|s| json!({"id": s, "name": s, "description": "d", "tags": ["t"]})).collect::<Vec<_>>()})
}

#[test]
fn the_card_is_judged_with_the_replay_card_check() {
    let expects = contract(json!({"agentCard": {"skills": [{"id": "plan"}],
        "capabilities": {"streaming": true},
        "interfaces": [{"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]}}));
    assert!(codes(Kind::AgentCard, &card(&["plan"], true), &expects).is_empty());
    assert_eq!(
        codes(Kind::AgentCard, &card(&["plan"], false), &expects),
        ["CAPABILITY_MISSING"]
    );
    assert_eq!(
        codes(Kind::AgentCard, &card(&["review"], true), &expects),
        ["SKILL_MISSING"]
    );
}

fn calls(interactions: Value) -> Contract {
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "tools"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "mcp": "2026-07-28", "jsonSchema": "2020-12"}}});
    accord_dsl::pact::from_value(&doc, "test").expect("a contract")
}

#[test]
fn a_call_is_missing_its_tool_only_when_it_expects_the_tool_to_answer() {
    let answers = json!({"type": "MCP/ToolCall", "description": "review",
        "tool": "review", "arguments": {"plan_id": "p"},
        "result": {"structuredContent": {"status": "ready"}}});
    let refused = json!({"type": "MCP/ToolCall", "description": "an unknown tool is refused",
        "tool": "shred", "arguments": {}, "error": {"code": -32602}});
    let listed = tools(&["ready"]);
    let none = json!({"tools": []});
    assert!(codes(Kind::McpTools, &listed, &calls(json!([answers, refused]))).is_empty());
    assert_eq!(
        codes(Kind::McpTools, &none, &calls(json!([answers, refused]))),
        ["TOOL_MISSING"]
    );
}

#[test]
fn each_profile_is_judged_against_its_own_listing() {
    use std::collections::BTreeMap;
    let for_alice = contract(json!({"mcpTools": [{"name": "review", "profile": "alice",
        "arguments": [{"name": "plan_id", "type": "string", "alwaysSent": true}]}]}));
    let mut listings = BTreeMap::new();
    listings.insert("alice".to_owned(), tools(&["ready"]));
    listings.insert("unauthenticated".to_owned(), json!({"tools": []}));
    // alice sees `review`; what an anonymous caller sees does not matter
    assert!(super::static_check_tools(&listings, &for_alice).is_empty());
    listings.insert("alice".to_owned(), json!({"tools": []}));
    let found: Vec<_> = super::static_check_tools(&listings, &for_alice)
        .into_iter()
        .map(|f| f.reason_code)
        .collect();
    assert_eq!(found, ["TOOL_MISSING"]);
    // a profile the provider did not declare (of several) is not judged
    listings.remove("alice");
    listings.insert("bob".to_owned(), json!({"tools": []}));
    assert!(super::static_check_tools(&listings, &for_alice).is_empty());
}
