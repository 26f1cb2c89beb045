//! Matching rules on JSON response bodies, V2 and V3 (V4 in `bodies_v4`):
//! each rule once against a value of the right shape and once against a
//! wrong one.

use serde_json::{Value, json};

use super::harness::{Expect::Pass, Spec, Table, mismatch};

#[test]
fn v2_body_rules_agree_with_pact() {
    let mut t = Table::new(Spec::V2);
    let rules = json!({ "$.name": [{ "match": "type" }] });
    t.json(
        "v2 type ok",
        json!({"name": "a"}),
        rules.clone(),
        json!({"name": "zz"}),
        Pass,
    );
    t.json(
        "v2 type wrong",
        json!({"name": "a"}),
        rules,
        json!({"name": 3}),
        mismatch("$.name"),
    );
    let rules = json!({ "$.code": [{ "match": "regex", "regex": "^[A-Z]{3}-\\d+$" }] });
    t.json(
        "v2 regex ok",
        json!({"code": "ABC-1"}),
        rules.clone(),
        json!({"code": "XYZ-42"}),
        Pass,
    );
    t.json(
        "v2 regex wrong",
        json!({"code": "ABC-1"}),
        rules,
        json!({"code": "xyz"}),
        mismatch("$.code"),
    );
    let rules = json!({ "$.items": [{ "min": 1, "match": "type" }], "$.items[*].id": [{ "match": "type" }] });
    let body = json!({"items": [{"id": 1}]});
    t.json(
        "v2 min ok",
        body.clone(),
        rules.clone(),
        json!({"items": [{"id": 5}, {"id": 6}]}),
        Pass,
    );
    t.json(
        "v2 min too few",
        body.clone(),
        rules.clone(),
        json!({"items": []}),
        mismatch("$.items"),
    );
    t.json(
        "v2 min item wrong",
        body,
        rules,
        json!({"items": [{"id": "x"}]}),
        mismatch("$.items[0].id"),
    );
    let rules = json!({ "$.tags": [{ "max": 2, "match": "type" }] });
    let body = json!({"tags": ["a"]});
    t.json(
        "v2 max ok",
        body.clone(),
        rules.clone(),
        json!({"tags": ["x", "y"]}),
        Pass,
    );
    t.json(
        "v2 max too many",
        body,
        rules,
        json!({"tags": ["x", "y", "z"]}),
        mismatch("$.tags"),
    );
    // a list's min/max bound that list, not the lists below it (the type
    // match cascades, the size does not)
    let rules = json!({ "$.items": [{ "min": 2, "max": 3, "match": "type" }] });
    let body = json!({"items": [{"tags": ["a"]}]});
    t.json(
        "v2 min max of a parent, nested lists of other sizes",
        body.clone(),
        rules.clone(),
        json!({"items": [{"tags": ["x"]}, {"tags": ["y", "z", "w", "v"]}]}),
        Pass,
    );
    t.json(
        "v2 min of a parent, the parent too short",
        body,
        rules,
        json!({"items": [{"tags": ["x", "y"]}]}),
        mismatch("$.items"),
    );
    t.json(
        "v2 extra key",
        json!({"id": 1}),
        json!({}),
        json!({"id": 1, "more": true}),
        Pass,
    );
    t.json(
        "v2 missing key",
        json!({"id": 1, "name": "a"}),
        json!({}),
        json!({"id": 1}),
        // Pact reports a missing key at the object holding it.
        mismatch("$"),
    );
    t.json(
        "v2 equality wrong",
        json!({"id": 1}),
        json!({}),
        json!({"id": 2}),
        mismatch("$.id"),
    );
    t.run("v2-bodies");
}

#[test]
fn v3_body_rules_agree_with_pact() {
    let mut t = Table::new(Spec::V3);
    let rule = |m: &Value| json!({ "$.v": [m] });
    let mut pair = |name: &str, m: Value, expected: Value, good: Value, bad: Value| {
        let body = json!({ "v": expected });
        t.json(
            &format!("v3 {name} ok"),
            body.clone(),
            rule(&m),
            json!({ "v": good }),
            Pass,
        );
        let bad_case = format!("v3 {name} wrong");
        t.json(
            &bad_case,
            body,
            rule(&m),
            json!({ "v": bad }),
            mismatch("$.v"),
        );
    };
    pair(
        "type",
        json!({"match": "type"}),
        json!("a"),
        json!("b"),
        json!(1),
    );
    pair(
        "regex",
        json!({"match": "regex", "regex": "^\\d{4}$"}),
        json!("2024"),
        json!("1999"),
        json!("19999"),
    );
    pair(
        "integer",
        json!({"match": "integer"}),
        json!(1),
        json!(42),
        json!(4.5),
    );
    pair(
        "decimal",
        json!({"match": "decimal"}),
        json!(1.5),
        json!(0.25),
        json!(2),
    );
    pair(
        "number",
        json!({"match": "number"}),
        json!(1),
        json!(2.5),
        json!("3"),
    );
    pair(
        "include",
        json!({"match": "include", "value": "world"}),
        json!("hello world"),
        json!("world cup"),
        json!("word"),
    );
    pair(
        "null",
        json!({"match": "null"}),
        json!(null),
        json!(null),
        json!("x"),
    );
    pair(
        "boolean",
        json!({"match": "boolean"}),
        json!(true),
        json!(false),
        json!(1),
    );
    pair(
        "date",
        json!({"match": "date", "format": "yyyy-MM-dd"}),
        json!("2024-01-02"),
        json!("2024-02-29"),
        json!("2024/02/29"),
    );
    pair(
        "time",
        json!({"match": "time", "format": "HH:mm:ss"}),
        json!("10:00:00"),
        json!("23:59:01"),
        json!("25:00:00"),
    );
    pair(
        "datetime",
        json!({"match": "timestamp", "format": "yyyy-MM-dd'T'HH:mm:ssXXX"}),
        json!("2024-01-02T10:00:00+01:00"),
        json!("2025-12-31T23:59:59Z"),
        json!("2025-12-31 23:59:59"),
    );
    pair(
        "min array",
        json!({"match": "type", "min": 2}),
        json!([1, 2]),
        json!([3, 4, 5]),
        json!([3]),
    );
    pair(
        "max array",
        json!({"match": "type", "max": 2}),
        json!([1]),
        json!([7, 8]),
        json!([7, 8, 9]),
    );
    // Pact's boolean matcher also takes the strings "true" and "false"
    // (compatibility suite, V3 matching_rules.feature); both verifiers do.
    t.json(
        "v3 boolean as a string",
        json!({"v": true}),
        json!({"$.v": [{"match": "boolean"}]}),
        json!({"v": "false"}),
        Pass,
    );
    let rules = json!({ "$.items": [{"match": "type", "min": 1}], "$.items[*].id": [{"match": "integer"}] });
    let body = json!({"items": [{"id": 1, "name": "a"}]});
    t.json(
        "v3 eachLike ok",
        body.clone(),
        rules.clone(),
        json!({"items": [{"id": 2, "name": "b"}, {"id": 3, "name": "c", "x": 1}]}),
        Pass,
    );
    t.json(
        "v3 eachLike item wrong",
        body.clone(),
        rules.clone(),
        json!({"items": [{"id": 2, "name": "b"}, {"id": 3.5, "name": "c"}]}),
        mismatch("$.items[1].id"),
    );
    t.json(
        "v3 eachLike item missing key",
        body,
        rules,
        json!({"items": [{"id": 2}]}),
        mismatch("$.items[0]"),
    );
    t.json(
        "v3 array length no rule",
        json!({"v": [1, 2]}),
        json!({}),
        json!({"v": [1, 2, 3]}),
        mismatch("$.v"),
    );
    t.json(
        "v3 extra key",
        json!({"id": 1}),
        json!({}),
        json!({"id": 1, "more": {"x": 1}}),
        Pass,
    );
    t.json(
        "v3 missing key",
        json!({"id": 1, "name": "a"}),
        json!({}),
        json!({"id": 1}),
        // Pact reports a missing key at the object holding it.
        mismatch("$"),
    );
    t.run("v3-bodies");
}
