//! Table tests of the inline matcher syntax: YAML in, example + V4 rules +
//! generators out.

use serde_json::{Value, json};

use super::path::PactPath;
use super::template::{Compiled, Template};

fn compile(yaml: &str) -> (Value, Value, Value) {
    let t: Template = yaml_serde::from_str(yaml).expect("valid template");
    let mut out = Compiled::default();
    let example = t.compile(&PactPath::root(), &mut out);
    (
        example,
        Value::Object(out.rules_by_path()),
        Value::Object(out.generators_by_path()),
    )
}

fn rules_at(rules: &Value, path: &str) -> Value {
    rules[path]["matchers"].clone()
}

#[test]
fn each_keyword_compiles_to_its_v4_rule_and_example() {
    let table: &[(&str, Value, Value)] = &[
        (
            "{a: {$like: plan-1}}",
            json!({"a": "plan-1"}),
            json!([{"match": "type"}]),
        ),
        (
            "{a: {$like: [1], min: 1, max: 3}}",
            json!({"a": [1]}),
            json!([{"match": "type", "min": 1, "max": 3}]),
        ),
        (
            "{a: {$regex: '^p-\\d+$', example: p-1}}",
            json!({"a": "p-1"}),
            json!([{"match": "regex", "regex": "^p-\\d+$"}]),
        ),
        (
            "{a: {$datetime: \"yyyy-MM-dd'T'HH:mm:ss\", example: '2026-01-01T00:00:00'}}",
            json!({"a": "2026-01-01T00:00:00"}),
            json!([{"match": "datetime", "format": "yyyy-MM-dd'T'HH:mm:ss"}]),
        ),
        (
            "{a: {$date: yyyy-MM-dd, example: '2026-01-01'}}",
            json!({"a": "2026-01-01"}),
            json!([{"match": "date", "format": "yyyy-MM-dd"}]),
        ),
        (
            "{a: {$time: 'HH:mm', example: '10:00'}}",
            json!({"a": "10:00"}),
            json!([{"match": "time", "format": "HH:mm"}]),
        ),
        (
            "{a: {$integer: 7}}",
            json!({"a": 7}),
            json!([{"match": "integer"}]),
        ),
        (
            "{a: {$decimal: 1.5}}",
            json!({"a": 1.5}),
            json!([{"match": "decimal"}]),
        ),
        (
            "{a: {$number: 3}}",
            json!({"a": 3}),
            json!([{"match": "number"}]),
        ),
        (
            "{a: {$boolean: false}}",
            json!({"a": false}),
            json!([{"match": "boolean"}]),
        ),
        (
            "{a: {$null: ~}}",
            json!({"a": null}),
            json!([{"match": "null"}]),
        ),
        (
            "{a: {$include: lan}}",
            json!({"a": "lan"}),
            json!([{"match": "include", "value": "lan"}]),
        ),
        (
            "{a: {$include: lan, example: plan}}",
            json!({"a": "plan"}),
            json!([{"match": "include", "value": "lan"}]),
        ),
        (
            "{a: {$equals: draft}}",
            json!({"a": "draft"}),
            json!([{"match": "equality"}]),
        ),
        (
            "{a: {$enum: [draft, ready]}}",
            json!({"a": "draft"}),
            json!([{"match": "regex", "regex": "^(draft|ready)$"}]),
        ),
        (
            "{a: {$values: {x: 1}}}",
            json!({"a": {"x": 1}}),
            json!([{"match": "values"}]),
        ),
        (
            "{a: {$notEmpty: [x]}}",
            json!({"a": ["x"]}),
            json!([{"match": "notEmpty"}]),
        ),
        (
            "{a: {$semver: 1.2.3}}",
            json!({"a": "1.2.3"}),
            json!([{"match": "semver"}]),
        ),
        (
            "{a: {$eachKey: {$regex: '^[a-z]+$', example: k}, example: {k: 1}}}",
            json!({"a": {"k": 1}}),
            json!([{"match": "eachKey", "rules": [{"match": "regex", "regex": "^[a-z]+$"}]}]),
        ),
        (
            "{a: {$eachValue: {$like: 1}, example: {k: 1}}}",
            json!({"a": {"k": 1}}),
            json!([{"match": "eachValue", "rules": [{"match": "type"}]}]),
        ),
        (
            "{a: {$contentType: application/json, example: '{}'}}",
            json!({"a": "{}"}),
            json!([{"match": "contentType", "value": "application/json"}]),
        ),
        (
            "{a: {$statusCode: success}}",
            json!({"a": 200}),
            json!([{"match": "statusCode", "status": "success"}]),
        ),
        (
            "{a: {$statusCode: [201, 202]}}",
            json!({"a": 201}),
            json!([{"match": "statusCode", "status": [201, 202]}]),
        ),
    ];
    for (yaml, example, rules) in table {
        let (ex, r, _) = compile(yaml);
        assert_eq!(&ex, example, "example of {yaml}");
        assert_eq!(&rules_at(&r, "$.a"), rules, "rules of {yaml}");
    }
}

#[test]
fn each_like_repeats_the_item_and_puts_its_rules_under_the_star() {
    let (ex, r, _) = compile("{steps: {$eachLike: {title: {$like: x}}, min: 2}}");
    assert_eq!(ex, json!({"steps": [{"title": "x"}, {"title": "x"}]}));
    assert_eq!(
        rules_at(&r, "$.steps"),
        json!([{"match": "type", "min": 2}])
    );
    assert_eq!(rules_at(&r, "$.steps[*].title"), json!([{"match": "type"}]));
}

#[test]
fn generators_land_at_the_matcher_path() {
    let table: &[(&str, Value)] = &[
        (
            "{a: {$fromState: '${plan_id}', example: plan-1}}",
            json!({"type": "ProviderState", "expression": "${plan_id}", "dataType": "STRING"}),
        ),
        ("{a: {$uuid: ~}}", json!({"type": "Uuid"})),
        (
            "{a: {$randomInt: 5, min: 1, max: 9}}",
            json!({"type": "RandomInt", "min": 1, "max": 9}),
        ),
        (
            "{a: {$randomDecimal: 1.5, digits: 3}}",
            json!({"type": "RandomDecimal", "digits": 3}),
        ),
        (
            "{a: {$randomHex: ab12}}",
            json!({"type": "RandomHexadecimal", "digits": 4}),
        ),
        (
            "{a: {$randomString: abc, size: 10}}",
            json!({"type": "RandomString", "size": 10}),
        ),
        (
            "{a: {$boolean: true, generate: true}}",
            json!({"type": "RandomBoolean"}),
        ),
        (
            "{a: {$regex: '^x+$', example: xx, generate: true}}",
            json!({"type": "Regex", "regex": "^x+$"}),
        ),
        (
            "{a: {$date: yyyy-MM-dd, example: '2026-01-01', generate: true}}",
            json!({"type": "Date", "format": "yyyy-MM-dd"}),
        ),
        (
            "{a: {$mockServerUrl: 'http://localhost:1234/plans/1', regex: '.*/plans/1$'}}",
            json!({"type": "MockServerURL", "example": "http://localhost:1234/plans/1", "regex": ".*/plans/1$"}),
        ),
    ];
    for (yaml, generator) in table {
        let (_, _, g) = compile(yaml);
        assert_eq!(&g["$.a"], generator, "generator of {yaml}");
    }
}

#[test]
fn array_contains_compiles_each_variant_rooted_at_the_item() {
    let (ex, r, _) =
        compile("{links: {$arrayContains: [{rel: self, href: {$like: /x}}, {rel: next}]}}");
    assert_eq!(
        ex,
        json!({"links": [{"rel": "self", "href": "/x"}, {"rel": "next"}]})
    );
    let variants = &r["$.links"]["matchers"][0]["variants"];
    assert_eq!(
        variants[0]["rules"]["$.href"]["matchers"],
        json!([{"match": "type"}])
    );
    assert_eq!(variants[1]["index"], json!(1));
}

#[test]
fn a_doubled_dollar_writes_a_literal_key() {
    let (ex, r, _) = compile("{$$ref: '#/defs/x'}");
    assert_eq!(ex, json!({"$ref": "#/defs/x"}));
    assert_eq!(r, json!({}));
}

#[test]
fn bad_matchers_are_refused_with_the_reason() {
    let table: &[(&str, &str)] = &[
        ("{a: {$lik: x}}", "unknown matcher `$lik`"),
        (
            "{a: {$like: x, mn: 1}}",
            "unknown key `mn` for $like; allowed: min, max",
        ),
        ("{a: {$regex: '^a$', example: b}}", "does not match"),
        ("{a: {$regex: '(', example: b}}", "invalid regex"),
        ("{a: {$regex: '^a$'}}", "needs an `example`"),
        (
            "{a: {$regex: plan, example: plan-1}}",
            "matches the whole value",
        ),
        ("{a: {$like: 1, $regex: x}}", "exactly one $keyword"),
        ("{a: {$integer: 1.5}}", "integer"),
        ("{a: {$semver: one}}", "not a semantic version"),
        ("{a: {$fromState: plan, example: x}}", "placeholder"),
        ("{a: {$eachLike: 1, min: 3, max: 2}}", "greater than max"),
        ("{a: {$eachLike: 1, examples: 1000}}", "at most"),
        ("{a: {$statusCode: nice}}", "unknown class"),
        ("{a: {$enum: []}}", "non-empty list"),
        ("{a: {$eachKey: x, example: {}}}", "takes a matcher"),
    ];
    for (yaml, reason) in table {
        let err = yaml_serde::from_str::<Template>(yaml)
            .expect_err(yaml)
            .to_string();
        assert!(err.contains(reason), "{yaml}: `{err}` lacks `{reason}`");
        assert!(err.contains("line 1"), "{yaml}: `{err}` has no position");
    }
}

#[test]
fn json_input_with_matchers_compiles_like_yaml() {
    let t = Template::from_json(json!({"a": {"$like": 1}})).expect("valid");
    let y: Template = yaml_serde::from_str("{a: {$like: 1}}").expect("valid");
    assert_eq!(t, y);
    assert!(!t.is_literal());
}

#[test]
fn nested_each_like_cannot_blow_up_the_example() {
    let yaml = "{a: {$eachLike: {$eachLike: {$eachLike: {$eachLike: x, examples: 100}, examples: 100}, examples: 100}, examples: 100}}";
    let err = yaml_serde::from_str::<Template>(yaml)
        .expect_err("too big")
        .to_string();
    assert!(err.contains("more than 100000"), "{err}");
    let ok: Template =
        yaml_serde::from_str("{a: {$eachLike: {$eachLike: x, examples: 100}, examples: 100}}")
            .expect("10 000 values are fine");
    fn count(v: &Value) -> u64 {
        match v {
            Value::Array(a) => 1 + a.iter().map(count).sum::<u64>(),
            Value::Object(o) => 1 + o.values().map(count).sum::<u64>(),
            _ => 1,
        }
    }
    assert_eq!(ok.expanded_size(), count(&ok.example()));
    assert_eq!(ok.expanded_size(), 10_102);
}
