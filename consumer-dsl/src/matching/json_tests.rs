use serde_json::{Value, json};

use super::*;
use crate::matching::MatchingRules;
use crate::model::PactSpec;

fn body_rules(v: Value) -> Category {
    let rules = MatchingRules::from_pact_json(&json!({ "body": v }), PactSpec::V4).expect("valid");
    rules.body().cloned().unwrap_or_default()
}

fn run(rules: Value, expected: Value, actual: Value, allow: bool) -> Vec<Mismatch> {
    match_json(&expected, &actual, &body_rules(rules), allow)
}

#[test]
fn without_rules_values_must_be_equal() {
    let table = [
        (json!({"a": 1}), json!({"a": 1}), true, true),
        (json!({"a": 1}), json!({"a": 2}), true, false),
        (json!({"a": 1}), json!({"a": 1, "b": 2}), true, true),
        (json!({"a": 1}), json!({"a": 1, "b": 2}), false, false),
        (json!({"a": 1}), json!({}), true, false),
        (json!([1, 2]), json!([1, 2, 3]), true, false),
        (json!([1, 2]), json!([2, 1]), true, false),
        (json!([]), json!([1]), true, false),
        (json!(null), json!(null), true, true),
        (json!("1"), json!(1), true, false),
    ];
    for (e, a, allow, ok) in table {
        let m = run(json!({}), e.clone(), a.clone(), allow);
        assert_eq!(m.is_empty(), ok, "{e} vs {a} (allow {allow}): {m:?}");
    }
}

#[test]
fn type_rules_cascade_to_children_and_bound_list_sizes() {
    let rules = json!({"$.animals": {"matchers": [{"match": "type", "min": 1}]}});
    let e = json!({"animals": [{"name": "Fred", "age": 3}]});
    let ok = json!({"animals": [{"name": "Mary", "age": 4}, {"name": "Sue", "age": 1}]});
    assert!(run(rules.clone(), e.clone(), ok, false).is_empty());
    // A type rule does not lift the no-unexpected-keys rule of requests
    // (pact-reference `CoreMatchingContext::match_keys`, pact-jvm
    // `MatchingContext.matchKeys`); responses allow extra keys anyway.
    let extra = json!({"animals": [{"name": "Mary", "age": 4, "extra": true}]});
    let m = run(rules.clone(), e.clone(), extra.clone(), false);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].path, "$.animals[0]");
    assert_eq!(
        m[0].message,
        "Expected a Map with keys [age, name] but received one with keys [age, extra, name]: `extra` is not expected"
    );
    assert_eq!(m[0].expected, Some(json!(["age", "name"])));
    assert_eq!(m[0].actual, Some(json!(["age", "extra", "name"])));
    assert_eq!(m[0].unexpected(), ["extra"]);
    assert!(m[0].missing().is_empty());
    assert!(run(rules.clone(), e.clone(), extra, true).is_empty());
    let empty = json!({"animals": []});
    assert_eq!(run(rules.clone(), e.clone(), empty, false).len(), 1);
    let wrong = json!({"animals": [{"name": 1, "age": 3}]});
    let m = run(rules, e, wrong, false);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].path, "$.animals[0].name");
    assert_eq!(m[0].rule.as_deref(), Some("type (min 1)"));
}

#[test]
fn the_most_specific_rule_decides_a_leaf() {
    let rules = json!({
        "$.items": {"matchers": [{"match": "type"}]},
        "$.items[*].id": {"matchers": [{"match": "regex", "regex": "\\d+"}]}
    });
    let e = json!({"items": [{"id": "1"}]});
    assert!(
        run(
            rules.clone(),
            e.clone(),
            json!({"items": [{"id": "22"}, {"id": "3"}]}),
            false
        )
        .is_empty()
    );
    let m = run(
        rules,
        e,
        json!({"items": [{"id": "22"}, {"id": "x"}]}),
        false,
    );
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].path, "$.items[1].id");
}

#[test]
fn values_and_each_key_judge_every_entry() {
    let rules = json!({"$": {"matchers": [
        {"match": "eachKey", "rules": [{"match": "regex", "regex": "[a-z]+"}]},
        {"match": "eachValue", "rules": [{"match": "integer"}]}
    ]}});
    let e = json!({"a": 1});
    assert!(run(rules.clone(), e.clone(), json!({"x": 1, "y": 2}), false).is_empty());
    assert_eq!(
        run(rules.clone(), e.clone(), json!({"X1": 1}), false).len(),
        1
    );
    assert!(!run(rules, e, json!({"x": "1"}), false).is_empty());
    let values = json!({"$": {"matchers": [{"match": "values"}]}});
    assert!(run(values.clone(), json!({"a": 1}), json!({"b": 2}), false).is_empty());
    assert!(!run(values, json!({"a": 1}), json!({"b": "2"}), false).is_empty());
}

#[test]
fn array_contains_finds_each_variant_anywhere() {
    let rules = json!({"$": {"matchers": [{"match": "arrayContains", "variants": [
        {"index": 0, "rules": {"$.id": {"matchers": [{"match": "integer"}]}}},
        {"index": 1, "rules": {}}
    ]}]}});
    let e = json!([{"id": 1}, {"kind": "x"}]);
    assert!(
        run(
            rules.clone(),
            e.clone(),
            json!([{"kind": "x"}, {"z": 0}, {"id": 9}]),
            false
        )
        .is_empty()
    );
    let m = run(rules, e, json!([{"id": "a"}, {"kind": "x"}]), false);
    assert_eq!(m.len(), 1);
    assert!(
        m[0].message.contains("Variant at index 0"),
        "{}",
        m[0].message
    );
}

#[test]
fn hostile_nesting_yields_a_mismatch_not_a_stack_overflow() {
    let mut deep = json!(1);
    for _ in 0..(MAX_DEPTH + 10) {
        deep = json!([deep]);
    }
    let m = run(json!({}), deep.clone(), deep, false);
    assert_eq!(m.len(), 1);
    assert!(m[0].message.contains("deeper"));
}

#[test]
fn mismatch_paths_quote_odd_keys() {
    let m = run(json!({}), json!({"a b": 1}), json!({"a b": 2}), true);
    assert_eq!(m[0].path, "$['a b']");
    assert_eq!(
        m[0].message,
        "Expected 2 (Integer) to be equal to 1 (Integer)"
    );
}

#[test]
fn a_missing_key_is_named_and_recorded_as_data() {
    let e = json!({"ticket_id": 1, "priority": "high", "labels": [], "owner": "a"});
    let a = json!({"ticket_id": 1, "labels": [], "extra": true});
    let m = match_json(&e, &a, &Category::default(), false);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(
        m[0].message,
        "Expected a Map with keys [labels, owner, priority, ticket_id] but received one with keys [extra, labels, ticket_id]: `owner`, `priority` are missing; `extra` is not expected"
    );
    assert_eq!(
        m[0].expected,
        Some(json!(["labels", "owner", "priority", "ticket_id"]))
    );
    assert_eq!(m[0].actual, Some(json!(["extra", "labels", "ticket_id"])));
    assert_eq!(m[0].missing(), ["owner", "priority"]);
    assert_eq!(m[0].unexpected(), ["extra"]);
    let wire = serde_json::to_value(&m[0]).expect("json");
    assert_eq!(wire["missing"], json!(["owner", "priority"]));
    assert_eq!(wire["unexpected"], json!(["extra"]));
    // extra keys allowed (a response): only the missing one is named
    let m = match_json(&e, &a, &Category::default(), true);
    assert_eq!(m[0].missing(), ["owner", "priority"]);
    assert!(m[0].unexpected().is_empty());
    let wire = serde_json::to_value(&m[0]).expect("json");
    assert!(wire.get("unexpected").is_none(), "{wire}");
    assert!(m[0].message.ends_with(": `owner`, `priority` are missing"));
    // an empty map expected
    let m = match_json(&json!({}), &json!({"x": 1}), &Category::default(), false);
    assert_eq!(
        m[0].message,
        r#"Expected an empty Map but received {"x":1}: `x` is not expected"#
    );
    assert_eq!(m[0].actual, Some(json!(["x"])));
    assert_eq!(m[0].unexpected(), ["x"]);
}

#[test]
fn size_bounds_apply_to_the_list_a_rule_names_not_to_lists_below_it() {
    // pr `matches_with(.., cascaded)`: MinType/MaxType of an ancestor's
    // path do not bound a nested list; the type match still cascades
    let min2 = json!({"$.items": {"matchers": [{"match": "type", "min": 2}]}});
    let item = |tags: Value| json!({"id": 1, "tags": tags});
    let rows = [
        (
            min2.clone(),
            json!({"items": [item(json!(["a"]))]}),
            json!({"items": [item(json!(["x"])), item(json!(["y"]))]}),
            false,
            true,
        ),
        // the named list is still bounded
        (
            min2.clone(),
            json!({"items": [item(json!(["a"]))]}),
            json!({"items": [item(json!(["x"]))]}),
            false,
            false,
        ),
        // and the items are still matched by type
        (
            min2.clone(),
            json!({"items": [item(json!(["a"]))]}),
            json!({"items": [item(json!(["x"])), item(json!([1]))]}),
            false,
            false,
        ),
        // a rule naming the nested lists bounds them
        (
            json!({"$.items": {"matchers": [{"match": "type", "min": 1}]},
                   "$.items[*].tags": {"matchers": [{"match": "type", "min": 2}]}}),
            json!({"items": [item(json!(["a"]))]}),
            json!({"items": [item(json!(["x"]))]}),
            false,
            false,
        ),
    ];
    for (rules, e, a, allow, ok) in rows {
        let m = run(rules.clone(), e.clone(), a.clone(), allow);
        assert_eq!(m.is_empty(), ok, "{rules} | {e} vs {a}: {m:?}");
    }
}
