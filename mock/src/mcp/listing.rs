//! `tools/list` as the mock serves it (pure): a tool for each `mcpTools`
//! entry, then for each other tool an interaction calls, in contract
//! order — with the schemas `schema.rs` derives, the annotations the
//! consumer relies on, and its `title` and `description`.
//!
//! A tool that only interactions expecting `-32602` name is not listed:
//! those interactions say the tool does not exist (the unknown-tool case).

use accord_dsl::Contract;
use accord_dsl::Interaction;
use accord_dsl::model::accord::{McpToolCallInteraction, McpToolExpectation};
use serde_json::{Map, Value, json};

use super::schema::{input_schema, output_schema};

/// The listing of `contract`.
pub(super) fn tools(contract: &Contract) -> Vec<Value> {
    let calls: Vec<&McpToolCallInteraction> = contract
        .interactions
        .iter()
        .filter_map(|i| match i {
            Interaction::McpToolCall(c) => Some(c),
            _ => None,
        })
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for t in &contract.mcp_tools {
        if !names.contains(&t.name.as_str()) {
            names.push(&t.name);
        }
    }
    for c in &calls {
        let unknown_tool = c
            .call
            .error
            .as_ref()
            .is_some_and(|e| e.code == Some(-32602));
        if !unknown_tool && !names.contains(&c.call.tool.as_str()) {
            names.push(&c.call.tool);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let relied = contract.mcp_tools.iter().find(|t| t.name == name);
            let of_tool: Vec<&McpToolCallInteraction> = calls
                .iter()
                .copied()
                .filter(|c| c.call.tool == name && !c.meta.expectations.refusal_expected())
                .collect();
            tool(name, relied, &of_tool)
        })
        .collect()
}

/// One tool of the listing.
fn tool(
    name: &str,
    relied: Option<&McpToolExpectation>,
    calls: &[&McpToolCallInteraction],
) -> Value {
    let mut t = Map::new();
    t.insert("name".into(), json!(name));
    if let Some(title) = relied.and_then(|r| r.title.as_deref()) {
        t.insert("title".into(), json!(title));
    }
    if let Some(description) = relied.and_then(|r| r.description.as_deref()) {
        t.insert("description".into(), json!(description));
    }
    let sent: Vec<_> = calls.iter().map(|c| &c.call).collect();
    t.insert("inputSchema".into(), input_schema(relied, &sent));
    let empty = accord_dsl::matching::Category::default();
    let successes: Vec<_> = calls
        .iter()
        .filter_map(|c| c.call.result.as_ref())
        .filter(|r| !r.is_error)
        .map(|r| {
            let rules = r.rules.matching_rules.body().unwrap_or(&empty);
            (r.structured_content.as_ref(), rules)
        })
        .collect();
    if let Some(output) = output_schema(relied, &successes) {
        t.insert("outputSchema".into(), output);
    }
    if let Some(hints) = relied.and_then(|r| r.annotations) {
        let annotations: Map<String, Value> = hints
            .relied_on()
            .into_iter()
            .map(|(hint, v)| (hint.to_owned(), json!(v)))
            .collect();
        if !annotations.is_empty() {
            t.insert("annotations".into(), Value::Object(annotations));
        }
    }
    Value::Object(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contract(doc: Value) -> Contract {
        let mut doc = doc;
        doc["consumer"] = json!({"name": "c"});
        doc["provider"] = json!({"name": "p"});
        doc["metadata"] = json!({"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}});
        accord_dsl::pact::from_value(&doc, "t").expect("a contract")
    }

    #[test]
    fn relied_on_tools_come_first_with_their_title_description_and_hints() {
        let c = contract(json!({
            "mcpTools": [{"name": "lookup", "title": "Look up", "description": "Read a plan.",
                "arguments": [{"name": "plan_id", "type": "string", "alwaysSent": true}],
                "annotations": {"readOnlyHint": true, "openWorldHint": false}}],
            "interactions": [
                {"type": "MCP/ToolCall", "description": "draft", "tool": "draft",
                 "arguments": {"title": "x"}, "result": {"isError": false}},
                {"type": "MCP/ToolCall", "description": "look up", "tool": "lookup",
                 "arguments": {"plan_id": "p-1"}, "result": {"structuredContent": {"status": "draft"}}}]}));
        let tools = tools(&c);
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(names, ["lookup", "draft"]);
        assert_eq!(tools[0]["title"], "Look up");
        assert_eq!(tools[0]["description"], "Read a plan.");
        assert_eq!(
            tools[0]["annotations"],
            json!({"readOnlyHint": true, "openWorldHint": false})
        );
        assert_eq!(tools[0]["inputSchema"]["required"], json!(["plan_id"]));
        assert_eq!(
            tools[0]["outputSchema"]["properties"]["status"]["type"],
            "string"
        );
        assert!(
            tools[1].get("outputSchema").is_none(),
            "a success without structuredContent"
        );
        assert!(tools[1].get("title").is_none() && tools[1].get("annotations").is_none());
    }

    #[test]
    fn a_tool_only_expected_to_be_unknown_is_not_listed() {
        let c = contract(json!({"interactions": [
            {"type": "MCP/ToolCall", "description": "unknown", "negative": true, "tool": "shred",
             "arguments": {}, "error": {"code": -32602}},
            {"type": "MCP/ToolCall", "description": "down", "tool": "flaky",
             "arguments": {}, "error": {"code": -32603}}]}));
        let names: Vec<Value> = tools(&c).iter().map(|t| t["name"].clone()).collect();
        assert_eq!(names, [json!("flaky")]);
    }

    #[test]
    fn negative_calls_do_not_shape_the_input_schema() {
        let c = contract(json!({"interactions": [
            {"type": "MCP/ToolCall", "description": "ok", "tool": "t",
             "arguments": {"id": "a"}, "result": {"isError": false}},
            {"type": "MCP/ToolCall", "description": "bad", "negative": true, "tool": "t",
             "arguments": {"id": 7, "extra": true}, "result": {"isError": true}}]}));
        let t = &tools(&c)[0];
        assert_eq!(
            t["inputSchema"],
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]})
        );
    }
}
