use serde_json::json;

use super::*;

#[test]
fn v2_flat_rules_are_split_into_categories() {
    let v = json!({
        "$.body.animals": {"min": 1, "match": "type"},
        "$.body.animals[*].*": {"match": "type"},
        "$.headers.Accept": {"match": "regex", "regex": "\\w+"},
        "$.query.q": {"regex": "\\d+"},
        "$.path": {"regex": "/\\d+"}
    });
    let rules = MatchingRules::from_pact_json(&v, PactSpec::V2).expect("valid");
    let body = rules.category("body").expect("body");
    assert_eq!(body.entries().len(), 2);
    assert_eq!(body.entries()[0].key, "$.animals");
    assert!(
        rules
            .category("header")
            .expect("header")
            .for_name("accept", true)
            .is_some()
    );
    assert!(
        rules
            .category("query")
            .expect("query")
            .for_name("q", false)
            .is_some()
    );
    assert!(rules.category("path").expect("path").root().is_some());
}

#[test]
fn v3_categorised_rules_round_trip_as_v4() {
    let v = json!({
        "body": {"$.a": {"combine": "OR", "matchers": [{"match": "integer"}, {"match": "null"}]}},
        "path": {"combine": "AND", "matchers": [{"match": "regex", "regex": "/x"}]}
    });
    let rules = MatchingRules::from_pact_json(&v, PactSpec::V3).expect("valid");
    assert_eq!(rules.to_v4_json(), v);
    let list = rules.body().expect("body").entries()[0].rules.clone();
    assert_eq!(list.combine, Combine::Or);
}

#[test]
fn v4_shorthand_rule_lists_are_accepted() {
    let v = json!({"body": {"$.a": [{"match": "type"}], "$.b": {"match": "integer"}}});
    let rules = MatchingRules::from_pact_json(&v, PactSpec::V4).expect("valid");
    assert_eq!(rules.body().expect("body").entries().len(), 2);
}

#[test]
fn errors_name_the_rule_path() {
    let v = json!({"body": {"$.a": {"matchers": [{"match": "nope"}]}}});
    let err = MatchingRules::from_pact_json(&v, PactSpec::V4).expect_err("invalid");
    let text = err.to_string();
    assert!(
        text.contains("$.matchingRules.body['$.a'].matchers[0]"),
        "{text}"
    );
    let bad_path = json!({"body": {"$.a[": {"match": "type"}}});
    assert!(MatchingRules::from_pact_json(&bad_path, PactSpec::V4).is_err());
}

#[test]
fn builder_adds_rules_and_writes_them() {
    let mut rules = MatchingRules::default();
    assert!(rules.is_empty());
    rules
        .add_rule("body", "$.id", MatchingRule::Integer)
        .expect("valid")
        .add_rule(
            "header",
            "X-Id",
            MatchingRule::regex("\\d+").expect("valid"),
        )
        .expect("valid");
    assert!(!rules.is_empty());
    assert_eq!(
        rules.to_v4_json()["body"]["$.id"],
        json!({"combine": "AND", "matchers": [{"match": "integer"}]})
    );
}

#[test]
fn the_most_specific_path_wins() {
    let v = json!({"body": {
        "$.a": {"matchers": [{"match": "type"}]},
        "$.a[*].b": {"matchers": [{"match": "integer"}]}
    }});
    let rules = MatchingRules::from_pact_json(&v, PactSpec::V4).expect("valid");
    let body = rules.body().expect("body");
    let loc = [Seg::Key("a"), Seg::Index(0), Seg::Key("b")];
    assert_eq!(
        body.select_best(&loc).expect("rules").rules,
        vec![MatchingRule::Integer]
    );
    let loc = [Seg::Key("a"), Seg::Index(0), Seg::Key("c")];
    assert_eq!(
        body.select_best(&loc).expect("rules").rules,
        vec![MatchingRule::of_type()]
    );
    assert!(!body.is_defined(&[Seg::Key("z")]));
}

#[test]
fn many_rule_paths_are_read_in_linear_time() {
    // Each entry used to scan every earlier one (quadratic in the number
    // of paths); now one pass.
    let body: serde_json::Map<String, serde_json::Value> = (0..50_000)
        .map(|i| (format!("$.f{i}"), json!({"matchers": [{"match": "type"}]})))
        .collect();
    let rules =
        MatchingRules::from_pact_json(&json!({ "body": body }), PactSpec::V4).expect("valid");
    assert_eq!(rules.body().map(|b| b.entries().len()), Some(50_000));
}

#[test]
fn a_flat_key_repeated_under_another_spelling_replaces_the_earlier_one() {
    let v = json!({
        "$.headers.X": {"match": "type"},
        "$.header.Y": {"match": "integer"},
        "$.header.X": {"match": "regex", "regex": "a"}
    });
    let rules = MatchingRules::from_pact_json(&v, PactSpec::V2).expect("valid");
    let header = rules.category("header").expect("header rules");
    let keys: Vec<&str> = header.entries().iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["Y", "X"]);
    assert_eq!(
        header.for_name("x", true).map(|l| l.rules[0].name()),
        Some("regex")
    );
}
