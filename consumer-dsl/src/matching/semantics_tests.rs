//! Pact V4 rule semantics beyond the pact-specification cases, one table
//! per rule family. Each row cites where the expected outcome comes from:
//! "spec" is pact-specification's version-4 README (matching rules
//! table), "pr" is pact-reference (`rust/pact_matching/src/json.rs`
//! `DoMatch<&Value>`, `matchingrules.rs` `DoMatch<&str>` and
//! `compare_*_with_matchingrule`, `headers.rs`, `lib.rs` `match_keys`),
//! "suite" is pact-compatibility-suite's `features/V*/matching_rules`.

use serde_json::{Value, json};

use super::check::check_json;
use super::rule::MatchingRule;
use super::{Category, MatchingRules, match_json};
use crate::model::PactSpec;

fn body_rules(v: Value) -> Category {
    let r = MatchingRules::from_pact_json(&json!({ "body": v }), PactSpec::V4).expect("valid");
    r.body().cloned().unwrap_or_default()
}

fn rule(v: Value) -> MatchingRule {
    MatchingRule::from_json(&v).expect("valid rule")
}

/// (rules, expected, actual, allow unexpected keys, matches)
type Row = (Value, Value, Value, bool, bool);

fn run_rows(rows: &[Row]) {
    for (rules, e, a, allow, ok) in rows {
        let m = match_json(e, a, &body_rules(rules.clone()), *allow);
        assert_eq!(m.is_empty(), *ok, "{rules} | {e} vs {a}: {m:?}");
    }
}

#[test]
fn array_contains_finds_each_variant_anywhere_under_its_own_rules() {
    let ac = |variants: Value| json!({"$.list": {"matchers": [{"match": "arrayContains", "variants": variants}]}});
    let two = ac(json!([
        {"index": 0, "rules": {"$.id": {"matchers": [{"match": "integer"}]}}},
        {"index": 1, "rules": {}}
    ]));
    let e = json!({"list": [{"id": 1, "kind": "a"}, {"name": "x"}]});
    let rows: Vec<Row> = vec![
        // pr compare_lists_with_matchingrule ArrayContains: any actual item,
        // in any order, with other items allowed.
        (
            two.clone(),
            e.clone(),
            json!({"list": [{"other": 0}, {"name": "x"}, {"id": 7, "kind": "a"}]}),
            false,
            true,
        ),
        // The variant's own rules: `integer` on id, equality elsewhere.
        (
            two.clone(),
            e.clone(),
            json!({"list": [{"name": "x"}, {"id": "7", "kind": "a"}]}),
            false,
            false,
        ),
        (
            two.clone(),
            e.clone(),
            json!({"list": [{"name": "x"}, {"id": 7, "kind": "b"}]}),
            false,
            false,
        ),
        // A variant is matched with the part's key policy (pr clones the
        // context, config included): requests refuse extra keys in it,
        // responses allow them.
        (
            two.clone(),
            e.clone(),
            json!({"list": [{"name": "x", "more": 1}, {"id": 7, "kind": "a"}]}),
            false,
            false,
        ),
        (
            two.clone(),
            e.clone(),
            json!({"list": [{"name": "x", "more": 1}, {"id": 7, "kind": "a"}]}),
            true,
            true,
        ),
        // Variant 1 missing.
        (
            two.clone(),
            e.clone(),
            json!({"list": [{"id": 7, "kind": "a"}]}),
            false,
            false,
        ),
        // Not a list at all (pr: "Type mismatch").
        (two, e, json!({"list": {"id": 7}}), false, false),
    ];
    run_rows(&rows);
}

#[test]
fn each_key_and_each_value_judge_every_entry() {
    let keys = json!({"$": {"matchers": [{"match": "eachKey", "rules": [{"match": "regex", "regex": "[a-z]+"}]}]}});
    let values = json!({"$": {"matchers": [{"match": "eachValue", "rules": [{"match": "regex", "regex": "[a-z]+"}]}]}});
    let e = json!({"one": "a"});
    let rows: Vec<Row> = vec![
        // suite V4 "Supports an EachKey matcher": extra keys are fine in a
        // request, keys must match the regex.
        (
            keys.clone(),
            e.clone(),
            json!({"one": "a", "two": "a"}),
            false,
            true,
        ),
        (
            keys.clone(),
            e.clone(),
            json!({"one": "a", "100": "a"}),
            false,
            false,
        ),
        // suite V4 "Supports an EachValue matcher".
        (
            values.clone(),
            e.clone(),
            json!({"x": "b", "y": "c"}),
            false,
            true,
        ),
        (
            values.clone(),
            e.clone(),
            json!({"x": "b", "y": "100"}),
            false,
            false,
        ),
        // spec: eachValue on a list judges every item.
        (
            json!({"$.l": {"matchers": [{"match": "eachValue", "rules": [{"match": "type"}]}]}}),
            json!({"l": ["a"]}),
            json!({"l": ["b", "c", "d"]}),
            false,
            true,
        ),
        (
            json!({"$.l": {"matchers": [{"match": "eachValue", "rules": [{"match": "type"}]}]}}),
            json!({"l": ["a"]}),
            json!({"l": ["b", 1]}),
            false,
            false,
        ),
    ];
    run_rows(&rows);
}

#[test]
fn values_matches_map_values_and_ignores_keys() {
    let values = json!({"$.m": {"matchers": [{"match": "values"}]}});
    let rows: Vec<Row> = vec![
        // pr compare_maps_with_matchingrule: each actual value against the
        // expected value of the same key, else the first expected value;
        // values cascades as a type rule to the entries (suite V3
        // "Supports a values matcher").
        (
            values.clone(),
            json!({"m": {"a": {"id": 1}}}),
            json!({"m": {"x": {"id": 2}, "y": {"id": 3}}}),
            false,
            true,
        ),
        (
            values.clone(),
            json!({"m": {"a": {"id": 1}}}),
            json!({"m": {"x": {"id": "2"}}}),
            false,
            false,
        ),
        (
            values,
            json!({"m": {"a": 1}}),
            json!({"m": {}}),
            false,
            true,
        ),
    ];
    run_rows(&rows);
}

#[test]
fn type_rules_with_bounds_on_lists_and_objects() {
    let min_max = json!({"$.v": {"matchers": [{"match": "type", "min": 1, "max": 2}]}});
    let rows: Vec<Row> = vec![
        // spec MinMaxType: the length of a collection is bounded.
        (
            min_max.clone(),
            json!({"v": [1]}),
            json!({"v": [5, 6]}),
            false,
            true,
        ),
        (
            min_max.clone(),
            json!({"v": [1]}),
            json!({"v": []}),
            false,
            false,
        ),
        (
            min_max.clone(),
            json!({"v": [1]}),
            json!({"v": [1, 2, 3]}),
            false,
            false,
        ),
        // pr DoMatch<&Value> MinType: only arrays have a size; an object
        // under min/max is a plain type match.
        (
            min_max.clone(),
            json!({"v": {"a": 1}}),
            json!({"v": {"a": 2}}),
            true,
            true,
        ),
        (
            min_max.clone(),
            json!({"v": {"a": 1}}),
            json!({"v": [1]}),
            true,
            false,
        ),
        // pr Type: integers and decimals are both numbers.
        (
            json!({"$.n": {"matchers": [{"match": "type"}]}}),
            json!({"n": 1}),
            json!({"n": 1.5}),
            false,
            true,
        ),
        (
            json!({"$.n": {"matchers": [{"match": "type"}]}}),
            json!({"n": 1.5}),
            json!({"n": 100}),
            false,
            true,
        ),
        (
            json!({"$.n": {"matchers": [{"match": "type"}]}}),
            json!({"n": 1}),
            json!({"n": "1"}),
            false,
            false,
        ),
        // Huge bounds are only numbers: no allocation follows from them.
        (
            json!({"$.v": {"matchers": [{"match": "type", "min": 1_000_000_000_000u64}]}}),
            json!({"v": [1]}),
            json!({"v": [1]}),
            false,
            false,
        ),
    ];
    run_rows(&rows);
}

#[test]
fn not_empty_boolean_null_and_semver() {
    let ne = rule(json!({"match": "notEmpty"}));
    let b = rule(json!({"match": "boolean"}));
    let null = rule(json!({"match": "null"}));
    let semver = rule(json!({"match": "semver"}));
    let rows = [
        // pr DoMatch<&Value> NotEmpty; spec "not null or the empty string".
        (&ne, json!("a"), json!("x"), true),
        (&ne, json!("a"), json!(""), false),
        (&ne, json!(["a"]), json!([]), false),
        (&ne, json!({"a": 1}), json!({}), false),
        (&ne, json!("a"), Value::Null, false),
        (&ne, json!(["a"]), json!(["b"]), true),
        // pr: only emptiness counts for scalars; a different scalar type
        // passes (containers are type-checked by the comparator, below).
        (&ne, json!("a"), json!(5), true),
        // spec Boolean: booleans and the strings "true"/"false".
        (&b, json!(true), json!(false), true),
        (&b, json!(true), json!("true"), true),
        (&b, json!(true), json!("yes"), false),
        (&b, json!(true), json!(1), false),
        (&null, Value::Null, Value::Null, true),
        (&null, Value::Null, json!(""), false),
        // spec Semver; pr requires a string.
        (&semver, json!("1.0.0"), json!("1.2.3-beta.1"), true),
        (&semver, json!("1.0.0"), json!("1.0"), false),
        (&semver, json!("1.0.0"), json!(1), false),
    ];
    for (r, e, a, ok) in rows {
        assert_eq!(check_json(r, &e, &a).is_ok(), ok, "{r}: {e} vs {a}");
    }
}

#[test]
fn an_expected_container_met_by_another_kind_is_a_type_mismatch_whatever_the_rules() {
    // pr json.rs `compare_json`: (Object, _) and (Array, _) mismatch before
    // any rule; suite V4 "Supports a not empty matcher (negative case 2)".
    let cases = [
        (
            json!({"$.two": {"matchers": [{"match": "notEmpty"}]}}),
            json!({"two": ["b"]}),
            json!({"two": "b"}),
            "Type mismatch: Expected 'b' (String) to be the same type as [\"b\"] (Array)",
        ),
        (
            json!({"$.two": {"matchers": [{"match": "regex", "regex": ".*"}]}}),
            json!({"two": {"x": 1}}),
            json!({"two": "s"}),
            "Type mismatch: Expected 's' (String) to be the same type as {\"x\":1} (Object)",
        ),
    ];
    for (rules, e, a, msg) in cases {
        let m = match_json(&e, &a, &body_rules(rules), true);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].path, "$.two");
        assert_eq!(m[0].message, msg);
    }
}

#[test]
fn equality_resets_a_cascaded_type_rule() {
    // suite V3 "Supports an equality matcher to reset cascading rules"
    // (fixture equality-matcher-reset-v3.json).
    let rules = json!({
        "$.one": {"matchers": [{"match": "type"}]},
        "$.one.a.status": {"matchers": [{"match": "equality"}]},
        "$.two": {"matchers": [{"match": "type"}]}
    });
    let e =
        json!({"one": {"a": {"ids": [1], "status": "OK"}}, "two": [{"ids": [1], "status": "OK"}]});
    let a = json!({"one": {"a": {"ids": [100], "status": "Lovely"}}, "two": [{"ids": [1], "status": "BAD"}]});
    let m = match_json(&e, &a, &body_rules(rules), false);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].path, "$.one.a.status");
    assert_eq!(
        m[0].message,
        "Expected 'Lovely' (String) to be equal to 'OK' (String)"
    );
}

#[test]
fn combine_or_passes_when_one_rule_does() {
    let or = json!({"$.v": {"combine": "OR", "matchers": [
        {"match": "regex", "regex": "\\d+"}, {"match": "null"}
    ]}});
    let and = json!({"$.v": {"combine": "AND", "matchers": [
        {"match": "regex", "regex": "\\d+"}, {"match": "include", "value": "7"}
    ]}});
    let rows: Vec<Row> = vec![
        // spec: `combine` OR — any rule; AND — every rule.
        (
            or.clone(),
            json!({"v": "1"}),
            json!({"v": "123"}),
            false,
            true,
        ),
        (
            or.clone(),
            json!({"v": "1"}),
            json!({"v": null}),
            false,
            true,
        ),
        (or, json!({"v": "1"}), json!({"v": "abc"}), false, false),
        (
            and.clone(),
            json!({"v": "1"}),
            json!({"v": "17"}),
            false,
            true,
        ),
        (and, json!({"v": "1"}), json!({"v": "18"}), false, false),
    ];
    run_rows(&rows);
}
