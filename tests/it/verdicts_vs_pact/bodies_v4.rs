//! V4 matching rules on JSON response bodies (notEmpty, semver, values,
//! eachKey, eachValue, arrayContains, …): each rule once against a value of
//! the right shape and once against a wrong one.

use serde_json::{Value, json};

use super::harness::{Expect::Pass, Spec, Table, mismatch};

#[test]
fn v4_body_rules_agree_with_pact() {
    let mut t = Table::new(Spec::V4);
    let rule = |m: &Value| json!({ "$.v": [m] });
    let mut pair = |name: &str, m: Value, expected: Value, good: Value, bad: Value, bad_path| {
        let body = json!({ "v": expected });
        t.json(
            &format!("v4 {name} ok"),
            body.clone(),
            rule(&m),
            json!({ "v": good }),
            Pass,
        );
        let bad_case = format!("v4 {name} wrong");
        t.json(
            &bad_case,
            body,
            rule(&m),
            json!({ "v": bad }),
            mismatch(bad_path),
        );
    };
    pair(
        "notEmpty string",
        json!({"match": "notEmpty"}),
        json!("a"),
        json!("b"),
        json!(""),
        "$.v",
    );
    pair(
        "notEmpty array",
        json!({"match": "notEmpty"}),
        json!([1]),
        json!([2, 3]),
        json!([]),
        "$.v",
    );
    pair(
        "semver",
        json!({"match": "semver"}),
        json!("1.0.0"),
        json!("10.20.30-rc.1"),
        json!("1.2"),
        "$.v",
    );
    pair(
        "type",
        json!({"match": "type"}),
        json!({"a": 1}),
        json!({"a": 9, "b": 2}),
        json!({"a": "9"}),
        "$.v.a",
    );
    let values = json!({ "$.v": [{"match": "values"}], "$.v.*": [{"match": "type"}] });
    let body = json!({"v": {"a": 1}});
    t.json(
        "v4 values ok",
        body.clone(),
        values.clone(),
        json!({"v": {"x": 5, "y": 6}}),
        Pass,
    );
    t.json(
        "v4 values wrong",
        body,
        values,
        json!({"v": {"x": 5, "y": "6"}}),
        mismatch("$.v.y"),
    );
    let each_key = json!({ "$.v": [{"match": "eachKey", "rules": [{"match": "regex", "regex": "^[a-z]+$"}], "value": {"abc": 1}}] });
    let body = json!({"v": {"abc": 1}});
    t.json(
        "v4 eachKey ok",
        body.clone(),
        each_key.clone(),
        json!({"v": {"abc": 1, "def": 2}}),
        Pass,
    );
    t.json(
        "v4 eachKey wrong",
        body,
        each_key,
        json!({"v": {"abc": 1, "DEF": 2}}),
        mismatch("$.v.DEF"),
    );
    let each_value = json!({ "$.v": [{"match": "eachValue", "rules": [{"match": "type"}], "value": {"a": "x"}}] });
    let body = json!({"v": {"a": "x"}});
    t.json(
        "v4 eachValue ok",
        body.clone(),
        each_value.clone(),
        json!({"v": {"a": "y", "b": "z"}}),
        Pass,
    );
    t.json(
        "v4 eachValue wrong",
        body,
        each_value,
        json!({"v": {"a": "y", "b": 3}}),
        mismatch("$.v.b"),
    );
    let contains = json!({ "$.v": [{"match": "arrayContains", "variants": [
        {"index": 0, "rules": {"$.id": {"matchers": [{"match": "integer"}]}}},
        {"index": 1, "rules": {}}
    ]}] });
    let body = json!({"v": [{"kind": "book", "id": 1}, {"kind": "pen"}]});
    t.json(
        "v4 arrayContains ok",
        body.clone(),
        contains.clone(),
        json!({"v": [{"kind": "pen"}, {"kind": "cup"}, {"kind": "book", "id": 7}]}),
        Pass,
    );
    t.json(
        "v4 arrayContains wrong",
        body,
        contains,
        json!({"v": [{"kind": "book", "id": 7}, {"kind": "cup"}]}),
        mismatch("$.v"),
    );
    t.json(
        "v4 equality wrong",
        json!({"v": "a"}),
        json!({}),
        json!({"v": "b"}),
        mismatch("$.v"),
    );
    t.json(
        "v4 missing key",
        json!({"v": 1, "w": 2}),
        json!({}),
        json!({"v": 1}),
        mismatch("$"),
    );
    t.run("v4-bodies");
}
