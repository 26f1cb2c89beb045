use accord_dsl::model::Contract;
use accord_dsl::model::accord::{JsonType, McpToolExpectation, ToolArgument, ToolResultField};
use serde_json::{Value, json};

use super::*;

fn tool(status: &[&str]) -> Value {
    json!({"name": "review", "description": "Reviews a plan.",
        "inputSchema": {"type": "object", "required": ["plan_id"], "properties": {"plan_id": {"type": "string"}}},
        "outputSchema": {"type": "object", "required": ["status"],
            "properties": {"status": {"type": "string", "enum": status}}}})
}

fn reads_status(values: &[&str]) -> Contract {
    Contract {
        mcp_tools: vec![McpToolExpectation {
            name: "review".into(),
            arguments: vec![ToolArgument {
                name: "plan_id".into(),
                json_type: Some(JsonType::String),
                always_sent: true,
                values: vec![],
            }],
            result_fields: vec![ToolResultField {
                path: "$.status".into(),
                json_type: Some(JsonType::String),
                values: values.iter().map(|v| json!(v)).collect(),
            }],
            ..McpToolExpectation::default()
        }],
        ..Contract::default()
    }
}

fn consumers(list: &[(&str, Contract)]) -> Vec<(String, Contract)> {
    list.iter()
        .map(|(l, c)| ((*l).to_owned(), c.clone()))
        .collect()
}

fn codes(changes: &[Change]) -> Vec<(&'static str, Class)> {
    changes.iter().map(|c| (c.code, c.class)).collect()
}

#[test]
fn synthetic_failure_4_breaks_only_the_consumer_that_relies_on_draft() {
    let v34 = json!({"tools": [tool(&["draft", "ready", "rejected"])]});
    let v35 = json!({"tools": [tool(&["ready", "rejected"])]});
    let held = consumers(&[
        ("planner 1.0", reads_status(&["draft", "ready"])),
        ("auditor 2.0", reads_status(&["ready", "rejected"])),
    ]);
    let changes = classify(Kind::McpTools, &v34, &v35, &consumers_of(&held));
    assert_eq!(
        codes(&changes),
        [(codes::BREAKING_ENUM_REMOVAL, Class::Breaking)]
    );
    assert_eq!(changes[0].path, "mcpTools[review].result.status");
    assert_eq!(changes[0].consumers_affected, ["planner 1.0"]);
    assert!(changes[0].breaks_a_consumer());

    let nobody = consumers(&[
        ("auditor 2.0", reads_status(&["ready", "rejected"])),
        ("plain 1.0", reads_status(&[])),
    ]);
    let changes = classify(Kind::McpTools, &v34, &v35, &consumers_of(&nobody));
    assert!(
        changes.iter().all(|c| !c.breaks_a_consumer()),
        "{changes:?}"
    );
}

#[test]
fn order_and_whitespace_do_not_matter_and_each_tool_change_has_its_class() {
    let old =
        json!({"tools": [tool(&["ready"]), {"name": "gone", "inputSchema": {"type": "object"}}]});
    let same = serde_json::from_str::<Value>(&format!(
        "{{ \"tools\": [ {}, {} ] }}",
        old["tools"][1], old["tools"][0]
    ))
    .expect("json");
    assert!(classify(Kind::McpTools, &old, &same, &[]).is_empty());

    let mut changed = tool(&["ready", "later"]);
    changed["description"] = json!("Reviews plans.");
    changed["inputSchema"]["required"] = json!(["plan_id", "region"]);
    changed["inputSchema"]["properties"]["region"] = json!({"type": "string"});
    changed["outputSchema"]["properties"]["note"] = json!({"type": "string"});
    changed["outputSchema"]["properties"]["status"]["type"] = json!(["string", "null"]);
    changed["annotations"] = json!({"readOnlyHint": true});
    let mut got = codes(&classify(
        Kind::McpTools,
        &old,
        &json!({"tools": [changed]}),
        &[],
    ));
    got.sort_unstable();
    got.dedup();
    assert_eq!(
        got,
        [
            (codes::BREAKING_REQUIRED_INPUT_ADDED, Class::Breaking),
            (codes::COMPATIBLE_OPTIONAL_OUTPUT_ADDED, Class::Compatible),
            (codes::CONDITIONAL_ENUM_ADDED, Class::Conditional),
            (codes::CONDITIONAL_TYPE_WIDENED, Class::Conditional),
            (codes::RISK_ANNOTATION_CHANGED, Class::Conditional),
            (codes::TOOL_DESCRIPTION_CHANGED, Class::Warning),
            (codes::TOOL_MISSING, Class::Breaking),
        ]
    );
}

#[test]
fn a_required_input_breaks_only_a_caller_that_does_not_send_it() {
    let old = json!({"tools": [tool(&["ready"])]});
    let mut new = tool(&["ready"]);
    new["inputSchema"]["required"] = json!(["plan_id", "region"]);
    let without = reads_status(&[]);
    let mut with = reads_status(&[]);
    with.mcp_tools[0].arguments.push(ToolArgument {
        name: "region".into(),
        json_type: None,
        always_sent: true,
        values: vec![],
    });
    let held = consumers(&[("old 1", without), ("new 1", with)]);
    let changes = classify(
        Kind::McpTools,
        &old,
        &json!({"tools": [new]}),
        &consumers_of(&held),
    );
    let required: Vec<&Change> = changes
        .iter()
        .filter(|c| c.code == codes::BREAKING_REQUIRED_INPUT_ADDED)
        .collect();
    assert_eq!(required.len(), 1);
    assert_eq!(required[0].consumers_affected, ["old 1"]);
}

fn card(skills: &[(&str, &str)], streaming: bool) -> Value {
    json!({"name": "planner", "description": "Plans.", "version": "1",
        "capabilities": {"streaming": streaming, "pushNotifications": false},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json", "text/plain"],
        "skills": skills.iter().map(|(id, d)| json!({"id": id, "name": id, "description": d, "tags": []})).collect::<Vec<_>>()})
}

#[test]
fn card_changes_are_classified_and_a_removed_skill_breaks_only_its_users() {
    let old = card(&[("plan", "Plans."), ("review", "Reviews.")], true);
    let mut new = card(&[("review", "Reviews plans.")], false);
    new["capabilities"]["pushNotifications"] = json!(true);
    new["defaultOutputModes"] = json!(["application/json"]);
    let uses_plan: Contract = Contract {
        agent_card: Some(
            serde_json::from_value(json!({"skills": [{"id": "plan"}]})).expect("expectations"),
        ),
        ..Contract::default()
    };
    let uses_review: Contract = Contract {
        agent_card: Some(
            serde_json::from_value(json!({"skills": [{"id": "review"}]})).expect("expectations"),
        ),
        ..Contract::default()
    };
    let held = consumers(&[("a 1", uses_plan), ("b 1", uses_review)]);
    let changes = classify(Kind::AgentCard, &old, &new, &consumers_of(&held));
    let mut got = codes(&changes);
    got.sort_unstable();
    assert_eq!(
        got,
        [
            (codes::BREAKING_SKILL_REMOVED, Class::Breaking),
            (codes::CAPABILITY_MISSING, Class::Breaking),
            (codes::CONTENT_MODE_CONFLICT, Class::Breaking),
            (codes::CONTENT_MODE_CONFLICT, Class::Breaking),
            (codes::DESCRIPTION_CHANGED, Class::Warning),
            (codes::FEATURE_CAPABILITY_ADDED, Class::Conditional),
        ]
    );
    let removed = changes
        .iter()
        .find(|c| c.code == codes::BREAKING_SKILL_REMOVED)
        .expect("removed");
    assert_eq!(removed.consumers_affected, ["a 1"]);
    let added = changes
        .iter()
        .find(|c| c.code == codes::FEATURE_CAPABILITY_ADDED)
        .expect("added");
    assert_eq!(added.consumers_affected, ["a 1", "b 1"]);
}

#[test]
fn a_type_changed_and_a_required_output_no_longer_required_are_breaking() {
    let mut old = tool(&["ready"]);
    old["outputSchema"]["required"] = json!(["status", "count"]);
    old["outputSchema"]["properties"]["count"] = json!({"type": "integer"});
    let mut new = old.clone();
    new["outputSchema"]["required"] = json!(["count"]);
    new["outputSchema"]["properties"]["count"] = json!({"type": "string"});
    let changes = classify(
        Kind::McpTools,
        &json!({"tools": [old]}),
        &json!({"tools": [new]}),
        &[],
    );
    let got: Vec<(&str, &str)> = changes.iter().map(|c| (c.code, c.path.as_str())).collect();
    assert_eq!(
        got,
        [
            (
                codes::BREAKING_TYPE_CHANGED,
                "mcpTools[review].result.count"
            ),
            (
                codes::BREAKING_FIELD_REMOVED,
                "mcpTools[review].result.status"
            ),
        ]
    );
}
