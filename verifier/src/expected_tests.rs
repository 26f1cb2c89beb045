use accord_dsl::model::Body;
use accord_dsl::pact::from_value;
use serde_json::json;

use super::*;

fn values() -> Values {
    json!({"plan_id": "plan-7", "token": "secret-token"})
        .as_object()
        .cloned()
        .unwrap_or_default()
}

fn rules(v: Value) -> MatchingRules {
    MatchingRules::from_pact_json(&v, accord_dsl::PactSpec::V4).expect("valid rules")
}

fn response(expression: &str, rule: &str) -> HttpResponse {
    HttpResponse {
        status: 200,
        body: Body::json(json!({"id": "plan-1", "n": 1})),
        matching_rules: rules(json!({"body": {"$.id": {"matchers": [{"match": rule}]}}})),
        generators: Generators::from_pact_json(&json!({"body": {
            "$.id": {"type": "ProviderState", "expression": expression},
            "$.n": {"type": "RandomInt", "min": 50, "max": 60}}}))
        .expect("valid generators"),
        ..HttpResponse::default()
    }
}

#[test]
fn the_state_value_replaces_the_example_of_an_expected_response() {
    let expected = response("${plan_id}", "equality");
    let (resolved, findings) = http_response(&expected, &values());
    assert!(findings.is_empty(), "{findings:?}");
    // the random generator is not applied to the expected side
    assert_eq!(
        resolved.body.as_json(),
        Some(&json!({"id": "plan-7", "n": 1}))
    );
}

#[test]
fn a_missing_value_under_equality_is_unchecked_and_names_no_value() {
    let expected = response("${missing}", "equality");
    let (resolved, findings) = http_response(&expected, &values());
    assert_eq!(resolved.body.as_json(), expected.body.as_json());
    assert_eq!(findings.len(), 1, "{findings:?}");
    let f = &findings[0];
    assert_eq!(
        (f.layer, f.reason_code, f.path.as_str()),
        (Layer::Schema, codes::EXPECTATION_UNCHECKED, "$.id")
    );
    assert!(f.detail.contains("${missing}"), "{}", f.detail);
    assert!(f.detail.contains("plan_id, token"), "{}", f.detail);
    assert!(!f.detail.contains("secret-token"), "{}", f.detail);
}

#[test]
fn a_missing_value_under_a_type_rule_changes_nothing() {
    let expected = response("${missing}", "type");
    let (_, findings) = http_response(&expected, &values());
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_response_without_state_generators_is_borrowed_as_it_is() {
    let expected = HttpResponse {
        status: 200,
        body: Body::json(json!({"id": 1})),
        ..HttpResponse::default()
    };
    let (resolved, findings) = http_response(&expected, &values());
    assert!(matches!(resolved, Cow::Borrowed(_)) && findings.is_empty());
}

#[test]
fn or_combined_rules_compare_values_only_when_every_one_is_equality() {
    let list = |combine: &str, rules: Value| {
        RuleList::from_json(&json!({"combine": combine, "matchers": rules})).expect("valid")
    };
    let eq = json!({"match": "equality"});
    let ty = json!({"match": "type"});
    assert!(compares_values(&list("AND", json!([ty, eq]))));
    assert!(!compares_values(&list("OR", json!([ty, eq]))));
    assert!(compares_values(&list("OR", json!([eq]))));
    assert!(!compares_values(&list("AND", json!([ty]))));
}

fn contract(interaction: Value) -> accord_dsl::Contract {
    from_value(
        &json!({"consumer": {"name": "c"}, "provider": {"name": "p"},
            "interactions": [interaction],
            "metadata": {"pactSpecification": {"version": "4.0"},
                "accord": {"formatVersion": "1.0", "a2a": "1.0", "mcp": "2026-07-28"}}}),
        "test",
    )
    .expect("a contract")
}

#[test]
fn an_mcp_result_gets_the_state_values_in_structured_content_and_content() {
    let c = contract(
        json!({"type": "MCP/ToolCall", "description": "d", "tool": "t",
        "result": {"structuredContent": {"plan_id": "plan-1"},
            "content": [{"type": "text", "text": "plan-1"}],
            "matchingRules": {"body": {
                "$.structuredContent.plan_id": {"matchers": [{"match": "equality"}]},
                "$.content[0].text": {"matchers": [{"match": "equality"}]}}},
            "generators": {"body": {
                "$.structuredContent.plan_id": {"type": "ProviderState", "expression": "${plan_id}"},
                "$.content[0].text": {"type": "ProviderState", "expression": "${nope}"}}}}}),
    );
    let accord_dsl::Interaction::McpToolCall(mcp) = &c.interactions[0] else {
        panic!("an MCP call");
    };
    let (call, findings) = mcp_call(&mcp.call, &values());
    let result = call.result.as_ref().expect("a result");
    assert_eq!(
        result.structured_content,
        Some(json!({"plan_id": "plan-7"}))
    );
    assert_eq!(
        result.content,
        Some(vec![json!({"type": "text", "text": "plan-1"})])
    );
    let paths: Vec<&str> = findings.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["$.content[0].text"]);
}

#[test]
fn a2a_parts_of_steps_and_follow_ups_get_the_state_values() {
    let part = |example: &str, expression: &str| {
        json!({"data": {"plan_id": example},
            "matchingRules": {"body": {"$.data.plan_id": {"matchers": [{"match": "equality"}]}}},
            "generators": {"body": {"$.data.plan_id": {"type": "ProviderState", "expression": expression}}}})
    };
    let text = json!({"text": "plan-1",
        "generators": {"body": {"$.text": {"type": "ProviderState", "expression": "plan ${plan_id}"}}}});
    let c = contract(json!({"type": "A2A/Task", "description": "d",
        "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "hi"}]}},
        "steps": [{"status": {"state": "TASK_STATE_WORKING", "messageParts": [text]}},
                  {"artifact": {"parts": [part("plan-1", "${plan_id}")]}}],
        "followUps": [{"operation": "GetTask",
            "expect": {"steps": [{"artifact": {"parts": [part("plan-1", "${gone}")]}}]}}]}));
    let accord_dsl::Interaction::A2aTask(a2a) = &c.interactions[0] else {
        panic!("an A2A task");
    };
    let (task, findings) = a2a_task(&a2a.task, &values());
    let parts = task.part_expectations();
    let content: Vec<&PartContent> = parts.iter().map(|(_, p)| &p.content).collect();
    assert_eq!(
        content,
        [
            &PartContent::Text("plan plan-7".into()),
            &PartContent::Data(json!({"plan_id": "plan-7"})),
            &PartContent::Data(json!({"plan_id": "plan-1"})),
        ]
    );
    let paths: Vec<&str> = findings.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        ["followUps[0].expect.steps[0].artifact.parts[0].data.plan_id"]
    );
}
