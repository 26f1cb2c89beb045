use accord_dsl::Interaction;
use serde_json::json;

use super::*;

fn interactions(list: Value) -> Vec<McpToolCallInteraction> {
    let doc = json!({"consumer": {"name": "c"}, "provider": {"name": "p"}, "interactions": list,
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}});
    accord_dsl::pact::from_value(&doc, "t")
        .expect("a contract")
        .interactions
        .into_iter()
        .filter_map(|i| match i {
            Interaction::McpToolCall(c) => Some(c),
            _ => None,
        })
        .collect()
}

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("an object")
}

fn indexed(list: &[McpToolCallInteraction]) -> Vec<(usize, &McpToolCallInteraction)> {
    list.iter().enumerate().collect()
}

/// [`select`] of a call with `arguments` and `bearer`, no progress token.
fn select_with<'a>(
    calls: &[(usize, &'a McpToolCallInteraction)],
    arguments: &Map<String, Value>,
    principals: &Principals,
    bearer: Option<&str>,
) -> Selection<'a> {
    let received = Received {
        arguments,
        progress_token: false,
        bearer,
    };
    select(calls, &received, principals)
}

fn lookup() -> Vec<McpToolCallInteraction> {
    interactions(json!([
        {"type": "MCP/ToolCall", "description": "look up", "tool": "lookup",
         "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
         "matchingRules": {"body": {"$.arguments.plan_id": {"combine": "AND",
             "matchers": [{"match": "regex", "regex": "^plan-\\d+$"}]}}},
         "result": {"structuredContent": {"status": "draft"}}},
        {"type": "MCP/ToolCall", "description": "missing plan", "negative": true, "tool": "lookup",
         "arguments": {"tenant_id": "tenant-a"}, "result": {"isError": true}}]))
}

#[test]
fn arguments_that_satisfy_the_rules_select_their_interaction() {
    let list = lookup();
    let open = Principals::default();
    let pick = |a: Value| match select_with(&indexed(&list), &args(a), &open, None) {
        Selection::Matched(i, _) => Some(i),
        _ => None,
    };
    assert_eq!(
        pick(json!({"tenant_id": "tenant-a", "plan_id": "plan-42"})),
        Some(0)
    );
    assert_eq!(
        pick(json!({"tenant_id": "tenant-a"})),
        Some(1),
        "the negative case"
    );
    assert_eq!(
        pick(json!({"tenant_id": "tenant-a", "plan_id": "nope"})),
        None
    );
}

#[test]
fn a_call_that_fits_nothing_names_the_argument_and_the_rule_of_the_closest_interaction() {
    let list = lookup();
    let sent = args(json!({"tenant_id": "tenant-a", "plan_id": "nope"}));
    let Selection::Mismatched(0, closest, mismatches) =
        select_with(&indexed(&list), &sent, &Principals::default(), None)
    else {
        panic!("not a mismatch");
    };
    assert_eq!(mismatches.len(), 1);
    assert_eq!(mismatches[0].path, "$.arguments.plan_id");
    let text = mismatch_text("lookup", &closest.meta.description, &mismatches);
    assert!(text.contains("closest is \"look up\""), "{text}");
    assert!(
        text.contains("argument 'plan_id' failed rule regex"),
        "{text}"
    );
    assert!(text.contains("^plan-\\d+$"), "{text}");
}

#[test]
fn missing_and_unexpected_arguments_are_named_one_by_one() {
    let call: McpToolCall =
        serde_json::from_value(json!({"tool": "t", "arguments": {"a": 1, "b": 2}}))
            .expect("a call");
    let m = argument_mismatches(&call, &args(json!({"a": 1, "c": 3, "d e": 4})));
    let paths: Vec<&str> = m.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(
        paths,
        ["$.arguments.b", "$.arguments.c", "$.arguments['d e']"]
    );
    assert!(m[0].message.starts_with("Missing argument 'b'"));
    assert!(m[1].message.starts_with("Unexpected argument 'c'"));
    let text = mismatch_text("t", "x", &m);
    assert!(
        text.contains("Missing argument 'b': the interaction sends it"),
        "{text}"
    );
    let equal = argument_mismatches(&call, &args(json!({"a": 1, "b": 3})));
    assert!(mismatch_text("t", "x", &equal).contains("argument 'b' failed equality"));
}

#[test]
fn a_principal_needs_its_token_and_a_refusal_case_takes_the_call_without_one() {
    let list = interactions(json!([
        {"type": "MCP/ToolCall", "description": "as alice", "tool": "t", "arguments": {"id": "x"},
         "auth": {"principal": "alice"}, "result": {"isError": false}},
        {"type": "MCP/ToolCall", "description": "anonymous", "negative": true, "tool": "t",
         "arguments": {"id": "x"}, "auth": {"credential": "none"}, "error": {"httpStatus": 401}}]));
    let given = Principals::new(&[("alice".into(), "a-1".into())]);
    let sent = args(json!({"id": "x"}));
    assert!(matches!(
        select_with(&indexed(&list), &sent, &given, Some("a-1")),
        Selection::Matched(0, _)
    ));
    assert!(matches!(
        select_with(&indexed(&list), &sent, &given, None),
        Selection::Matched(1, _)
    ));
    match select_with(&indexed(&list), &sent, &given, Some("wrong")) {
        Selection::Unauthorized(0, _, why) => assert_eq!(why.path, "Authorization"),
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn a_refusal_case_listed_first_does_not_shadow_the_valid_case() {
    let list = interactions(json!([
        {"type": "MCP/ToolCall", "description": "expired", "negative": true, "tool": "t", "arguments": {},
         "auth": {"principal": "alice", "credential": "expired"}, "error": {"httpStatus": 401}},
        {"type": "MCP/ToolCall", "description": "as alice", "tool": "t", "arguments": {},
         "auth": {"principal": "alice"}, "result": {"isError": false}}]));
    let open = Principals::default();
    let sent = Map::new();
    assert!(matches!(
        select_with(&indexed(&list), &sent, &open, Some("t")),
        Selection::Matched(1, _)
    ));
    let given = Principals::new(&[("alice".into(), "a-1".into())]);
    assert!(matches!(
        select_with(&indexed(&list), &sent, &given, Some("old")),
        Selection::Matched(0, _)
    ));
}

#[test]
fn no_interaction_for_the_tool() {
    assert!(matches!(
        select_with(&[], &Map::new(), &Principals::default(), None),
        Selection::NoInteraction
    ));
}

#[test]
fn an_interaction_that_relies_on_progress_needs_a_progress_token() {
    let list = interactions(json!([
        {"type": "MCP/ToolCall", "description": "slow", "tool": "t", "arguments": {},
         "progress": [{"progress": 0}, {"progress": 1}], "result": {"isError": false}}]));
    let none = Map::new();
    let with = |progress_token| Received {
        arguments: &none,
        progress_token,
        bearer: None,
    };
    let open = Principals::default();
    assert!(matches!(
        select(&indexed(&list), &with(true), &open),
        Selection::Matched(0, _)
    ));
    match select(&indexed(&list), &with(false), &open) {
        Selection::Mismatched(0, _, m) => {
            assert_eq!(m[0].path, "$._meta.progressToken");
            assert!(mismatch_text("t", "slow", &m).contains("Missing progress token"));
        }
        other => panic!("not a mismatch: {other:?}"),
    }
}
