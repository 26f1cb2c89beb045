//! One test per row of the surface table.

use serde_json::{Value, json};

use super::*;

fn expectation(v: Value) -> McpToolExpectation {
    serde_json::from_value(v).expect("an mcpTools entry")
}

fn lookup() -> McpToolExpectation {
    expectation(json!({"name": "work_plan_lookup",
        "arguments": [{"name": "tenant_id", "type": "string", "alwaysSent": true},
                      {"name": "plan_id", "type": "string", "alwaysSent": true}],
        "resultFields": [{"path": "$.status", "type": "string"}, {"path": "$.steps[*].title", "type": "string"}],
        "annotations": {"readOnlyHint": true}}))
}

fn listed() -> Value {
    json!({"name": "work_plan_lookup",
        "inputSchema": {"type": "object", "required": ["tenant_id", "plan_id"], "additionalProperties": false,
            "properties": {"tenant_id": {"type": "string"}, "plan_id": {"type": "string"}}},
        "outputSchema": {"type": "object", "required": ["plan_id", "status", "steps"],
            "$defs": {"Step": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}},
            "properties": {"plan_id": {"type": "string"}, "status": {"enum": ["draft", "ready"]},
                "steps": {"type": "array", "items": {"$ref": "#/$defs/Step"}}}},
        "annotations": {"readOnlyHint": true}})
}

fn codes_of(f: &[Finding]) -> Vec<&'static str> {
    f.iter().map(|f| f.reason_code).collect()
}

#[test]
fn the_tool_as_relied_on_matches_its_listing() {
    assert_eq!(
        codes_of(&check_tool(&lookup(), Some(&listed()))),
        Vec::<&str>::new()
    );
}

#[test]
fn an_unlisted_tool_is_missing() {
    assert_eq!(codes_of(&check_tool(&lookup(), None)), ["TOOL_MISSING"]);
}

#[test]
fn a_new_required_argument_breaks_the_consumer() {
    let mut t = listed();
    t["inputSchema"]["required"] = json!(["tenant_id", "plan_id", "region"]);
    t["inputSchema"]["properties"]["region"] = json!({"type": "string"});
    let f = check_tool(&lookup(), Some(&t));
    assert_eq!(codes_of(&f), ["BREAKING_REQUIRED_INPUT_ADDED"]);
    assert_eq!(f[0].path, "mcpTools[work_plan_lookup].arguments.region");
}

#[test]
fn an_argument_no_longer_accepted_or_retyped_is_found() {
    let mut t = listed();
    t["inputSchema"]["properties"]
        .as_object_mut()
        .expect("props")
        .remove("plan_id");
    t["inputSchema"]["required"] = json!(["tenant_id"]);
    assert_eq!(
        codes_of(&check_tool(&lookup(), Some(&t))),
        ["BREAKING_FIELD_REMOVED"]
    );
    let mut t = listed();
    t["inputSchema"]["properties"]["plan_id"] = json!({"type": "integer"});
    assert_eq!(
        codes_of(&check_tool(&lookup(), Some(&t))),
        ["BREAKING_TYPE_CHANGED"]
    );
}

#[test]
fn a_read_field_made_optional_removed_or_retyped_is_found() {
    let mut t = listed();
    t["outputSchema"]["required"] = json!(["plan_id", "steps"]);
    assert_eq!(
        codes_of(&check_tool(&lookup(), Some(&t))),
        ["BREAKING_FIELD_REMOVED"]
    );
    let mut t = listed();
    t["outputSchema"]["$defs"]["Step"]["properties"]["title"] = json!({"type": ["string", "null"]});
    assert_eq!(
        codes_of(&check_tool(&lookup(), Some(&t))),
        ["BREAKING_TYPE_CHANGED"]
    );
}

#[test]
fn an_integer_output_satisfies_a_number_the_consumer_reads() {
    let e = expectation(json!({"name": "t", "resultFields": [{"path": "$.n", "type": "number"}]}));
    let t = json!({"name": "t", "outputSchema": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}});
    assert!(check_tool(&e, Some(&t)).is_empty());
}

#[test]
fn a_changed_annotation_is_a_risk() {
    let mut t = listed();
    t["annotations"] = json!({"readOnlyHint": false});
    assert_eq!(
        codes_of(&check_tool(&lookup(), Some(&t))),
        ["RISK_ANNOTATION_CHANGED"]
    );
}

#[test]
fn indexed_paths_unions_and_unlisted_arguments_raise_no_false_alarm() {
    let e = expectation(json!({"name": "work_plan_lookup",
        "resultFields": [{"path": "$.steps[0].title", "type": "string"}, {"path": "$.status", "type": "string"}]}));
    let mut t = listed();
    t["outputSchema"]["properties"]["status"] =
        json!({"anyOf": [{"type": "string"}, {"enum": ["x"]}]});
    assert_eq!(codes_of(&check_tool(&e, Some(&t))), Vec::<&str>::new());
    t["outputSchema"]["properties"]["status"] =
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
    assert_eq!(
        codes_of(&check_tool(&e, Some(&t))),
        ["BREAKING_TYPE_CHANGED"],
        "null may come back"
    );
}

#[test]
fn an_enum_value_the_consumer_switches_on_or_sends_must_still_be_listed() {
    let mut relied = lookup();
    relied.result_fields[0].values = vec![json!("draft"), json!("ready")];
    assert_eq!(
        codes_of(&check_tool(&relied, Some(&listed()))),
        Vec::<&str>::new()
    );
    let mut shrunk = listed();
    shrunk["outputSchema"]["properties"]["status"] = json!({"enum": ["draft"]});
    let found = check_tool(&relied, Some(&shrunk));
    assert_eq!(codes_of(&found), ["BREAKING_ENUM_REMOVAL"]);
    assert_eq!(found[0].path, "mcpTools[work_plan_lookup].result.status");
    assert_eq!(found[0].expected.as_deref(), Some(&json!("ready")));
    // a union of consts lists its values; a plain string takes any
    shrunk["outputSchema"]["properties"]["status"] =
        json!({"oneOf": [{"const": "draft"}, {"const": "ready"}]});
    assert_eq!(
        codes_of(&check_tool(&relied, Some(&shrunk))),
        Vec::<&str>::new()
    );
    shrunk["outputSchema"]["properties"]["status"] = json!({"type": "string"});
    assert_eq!(
        codes_of(&check_tool(&relied, Some(&shrunk))),
        Vec::<&str>::new()
    );
    // an input value sent
    let mut sender = lookup();
    sender.arguments[0].values = vec![json!("tenant-a")];
    let mut closed = listed();
    closed["inputSchema"]["properties"]["tenant_id"] = json!({"enum": ["tenant-b"]});
    assert_eq!(
        codes_of(&check_tool(&sender, Some(&closed))),
        ["BREAKING_ENUM_REMOVAL"]
    );
}

#[test]
fn a_removed_field_is_named_as_missing_data() {
    let mut t = listed();
    t["outputSchema"]["properties"]
        .as_object_mut()
        .expect("props")
        .remove("status");
    t["outputSchema"]["required"] = json!(["plan_id", "steps"]);
    let f = check_tool(&lookup(), Some(&t));
    assert_eq!(codes_of(&f), ["BREAKING_FIELD_REMOVED"]);
    assert_eq!(f[0].missing, ["status"]);
    assert_eq!(f[0].named_keys().as_deref(), Some("`status` is missing"));
    let mut t = listed();
    t["inputSchema"]["properties"]
        .as_object_mut()
        .expect("props")
        .remove("plan_id");
    t["inputSchema"]["required"] = json!(["tenant_id"]);
    assert_eq!(check_tool(&lookup(), Some(&t))[0].missing, ["plan_id"]);
    let mut t = listed();
    t["outputSchema"]["required"] = json!(["plan_id", "steps"]);
    let f = check_tool(&lookup(), Some(&t));
    assert_eq!(f[0].actual.as_deref(), Some(&json!("optional")));
    assert!(f[0].missing.is_empty());
}
