//! Mismatch sentences read like pact-reference's (the compatibility
//! suite compares them verbatim).

use serde_json::{Value, json};

use crate::matching::{Category, MatchingRules, match_json};
use crate::model::PactSpec;

fn rules(body: Value) -> Category {
    let r = MatchingRules::from_pact_json(&json!({ "body": body }), PactSpec::V4).expect("valid");
    r.body().cloned().unwrap_or_default()
}

fn one(rule: Value) -> Category {
    rules(json!({"$.one": {"matchers": [rule]}}))
}

#[test]
fn failed_rules_produce_pact_sentences() {
    let table = [
        (
            one(json!({"match": "include", "value": "a"})),
            json!({"one": "dog"}),
            "$.one",
            "Expected 'dog' to include 'a'",
        ),
        (
            one(json!({"match": "number"})),
            json!({"one": true}),
            "$.one",
            "Expected true (Boolean) to be a number",
        ),
        (
            one(json!({"match": "integer"})),
            json!({"one": 100.1}),
            "$.one",
            "Expected 100.1 (Decimal) to be an integer",
        ),
        (
            one(json!({"match": "integer"})),
            json!({"one": []}),
            "$.one",
            "Expected [] (Array) to be an integer",
        ),
        (
            one(json!({"match": "decimal"})),
            json!({"one": null}),
            "$.one",
            "Expected null (Null) to be a decimal number",
        ),
        (
            one(json!({"match": "null"})),
            json!({"one": ""}),
            "$.one",
            "Expected '' (String) to be a null value",
        ),
        (
            one(json!({"match": "boolean"})),
            json!({"one": ""}),
            "$.one",
            "Expected '' (String) to match a boolean",
        ),
        (
            one(json!({"match": "notEmpty"})),
            json!({"one": ""}),
            "$.one",
            "Expected '' (String) to not be empty",
        ),
        (
            one(json!({"match": "semver"})),
            json!({"one": "1.0"}),
            "$.one",
            "'1.0' is not a valid semantic version",
        ),
        (
            one(json!({"match": "date", "format": "yyyy-MM-dd"})),
            json!({"one": "23/07/19"}),
            "$.one",
            "Expected '23/07/19' to match a date pattern of 'yyyy-MM-dd'",
        ),
        (
            one(json!({"match": "regex", "regex": "\\d{1,4}"})),
            json!({"one": "9999X"}),
            "$.one",
            "Expected '9999X' to match '\\d{1,4}'",
        ),
        (
            one(json!({"match": "type"})),
            json!({"one": 100}),
            "$.one",
            "Expected 100 (Integer) to be the same type as 'a' (String)",
        ),
        (
            one(json!({"match": "equality"})),
            json!({"one": "c"}),
            "$.one",
            "Expected 'c' (String) to be equal to 'a' (String)",
        ),
        (
            one(json!({"match": "type", "min": 1})),
            json!({"one": []}),
            "$.one",
            "Expected [] (size 0) to have minimum size of 1",
        ),
        (
            one(json!({"match": "type", "max": 2})),
            json!({"one": [1, 2, 3]}),
            "$.one",
            "Expected [1, 2, 3] (size 3) to have maximum size of 2",
        ),
        (
            Category::default(),
            json!({"one": "a"}),
            "$",
            "Expected a Map with keys [one, two] but received one with keys [one]: `two` is missing",
        ),
        (
            rules(
                json!({"$": {"matchers": [{"match": "eachKey", "rules": [{"match": "regex", "regex": "[a-z]+"}]}]}}),
            ),
            json!({"one": "a", "two": "b", "100": "d"}),
            "$[100]",
            "Expected '100' to match '[a-z]+'",
        ),
    ];
    for (category, actual, path, sentence) in table {
        let example = if actual["one"].is_array() {
            json!([1])
        } else {
            json!("a")
        };
        let expected = json!({"one": example, "two": "b"});
        let m = match_json(&expected, &actual, &category, false);
        assert!(
            m.iter().any(|m| m.path == path && m.message == sentence),
            "wanted {path} -> {sentence}, got {m:#?}"
        );
    }
}

#[test]
fn not_empty_reports_a_type_mismatch_for_other_types() {
    let category = rules(json!({"$": {"matchers": [{"match": "notEmpty"}]}}));
    let m = match_json(
        &json!({"one": "a", "two": ["b"]}),
        &json!({"one": "a", "two": "b"}),
        &category,
        true,
    );
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].path, "$.two");
    assert_eq!(
        m[0].message,
        "Type mismatch: Expected 'b' (String) to be the same type as [\"b\"] (Array)"
    );
}
