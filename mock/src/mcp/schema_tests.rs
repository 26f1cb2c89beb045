use accord_dsl::matching::MatchingRules;
use accord_dsl::model::PactSpec;
use serde_json::json;

use super::*;

fn relied(v: Value) -> McpToolExpectation {
    serde_json::from_value(v).expect("a tool expectation")
}

fn call(v: Value) -> McpToolCall {
    serde_json::from_value(v).expect("a call")
}

fn body(rules: Value) -> Category {
    MatchingRules::from_pact_json(&json!({ "body": rules }), PactSpec::V4)
        .expect("rules")
        .body()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn relied_on_arguments_give_types_enums_and_required() {
    let r = relied(json!({"name": "t", "arguments": [
        {"name": "plan_id", "type": "string", "alwaysSent": true},
        {"name": "mode", "type": "string", "enum": ["fast", "full"]},
        {"name": "anything"}]}));
    let c = call(json!({"tool": "t", "arguments": {"plan_id": "p", "mode": "fast", "limit": 3}}));
    assert_eq!(
        input_schema(Some(&r), &[&c]),
        json!({"type": "object", "properties": {
            "plan_id": {"type": "string"}, "mode": {"type": "string", "enum": ["fast", "full"]},
            "anything": {}, "limit": {"type": "integer"}},
            "required": ["plan_id", "limit"]})
    );
}

#[test]
fn arguments_not_relied_on_are_typed_by_example_and_rule_and_required_when_always_sent() {
    let a = call(json!({"tool": "t", "arguments": {"n": 1, "k": 2, "s": "x"},
        "matchingRules": {"body": {"$.arguments.k": {"combine": "AND", "matchers": [{"match": "type"}]}}}}));
    let b = call(json!({"tool": "t", "arguments": {"n": 2.5, "s": "y"}}));
    let schema = input_schema(None, &[&a, &b]);
    assert_eq!(
        schema["properties"]["n"],
        json!({"type": "number"}),
        "integer and decimal examples"
    );
    assert_eq!(
        schema["properties"]["k"],
        json!({"type": "number"}),
        "an integer under a type rule"
    );
    assert_eq!(
        schema["required"],
        json!(["n", "s"]),
        "k is not always sent"
    );
}

#[test]
fn a_tool_without_arguments_takes_an_empty_object() {
    assert_eq!(
        input_schema(None, &[]),
        json!({"type": "object", "properties": {}})
    );
}

#[test]
fn the_output_schema_follows_the_examples_keys_every_example_has_are_required() {
    let a = json!({"plan_id": "p-1", "steps": [{"title": "x"}], "note": "n"});
    let b = json!({"plan_id": "p-2", "steps": []});
    let none = Category::default();
    let schema = output_schema(None, &[(Some(&a), &none), (Some(&b), &none)]).expect("a schema");
    assert_eq!(schema["required"], json!(["plan_id", "steps"]));
    assert_eq!(
        schema["properties"]["steps"]["items"]["properties"]["title"]["type"],
        "string"
    );
    assert_eq!(schema["properties"]["note"]["type"], "string");
}

#[test]
fn result_fields_add_types_enums_and_required_paths() {
    let r = relied(json!({"name": "t", "resultFields": [
        {"path": "$.status", "type": "string", "enum": ["draft", "ready"]},
        {"path": "$.items[*].title", "type": "string"},
        {"path": "$.count", "type": "integer"}]}));
    let schema = output_schema(Some(&r), &[]).expect("the fields alone make a schema");
    assert_eq!(
        schema["properties"]["status"],
        json!({"type": "string", "enum": ["draft", "ready"]})
    );
    assert_eq!(
        schema["properties"]["items"],
        json!({"type": "array", "items": {"type": "object", "properties": {"title": {"type": "string"}},
            "required": ["title"]}})
    );
    assert_eq!(schema["required"], json!(["status", "items", "count"]));
}

#[test]
fn an_example_value_outside_the_relied_enum_is_still_accepted_and_absent_fields_not_required() {
    let r = relied(json!({"name": "t", "resultFields": [
        {"path": "$.status", "type": "string", "enum": ["draft"]},
        {"path": "$.later", "type": "string"}]}));
    let example = json!({"status": "archived"});
    let none = Category::default();
    let schema = output_schema(Some(&r), &[(Some(&example), &none)]).expect("a schema");
    assert_eq!(
        schema["properties"]["status"]["enum"],
        json!(["draft", "archived"])
    );
    assert_eq!(
        schema["required"],
        json!(["status"]),
        "the example has no `later`"
    );
}

#[test]
fn no_output_schema_when_a_success_expects_no_structured_content() {
    let r = relied(json!({"name": "t", "resultFields": [{"path": "$.a", "type": "string"}]}));
    let example = json!({"a": "x"});
    let none = Category::default();
    assert_eq!(
        output_schema(Some(&r), &[(Some(&example), &none), (None, &none)]),
        None
    );
    assert_eq!(output_schema(None, &[]), None);
}

#[test]
fn output_numbers_under_a_type_rule_are_numbers() {
    let example = json!({"minutes": 4});
    let rules = body(
        json!({"$.structuredContent.minutes": {"combine": "AND", "matchers": [{"match": "type"}]}}),
    );
    let schema = output_schema(None, &[(Some(&example), &rules)]).expect("a schema");
    assert_eq!(schema["properties"]["minutes"]["type"], "number");
}
