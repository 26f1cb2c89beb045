//! Pact V4 rule semantics on numbers, text values, status codes and
//! headers; sources cited as in `semantics_tests.rs` ("spec", "pr",
//! "suite").

use serde_json::{Value, json};

use super::check::{check_json, check_str};
use super::rule::MatchingRule;
use super::{MatchingRules, match_headers};
use crate::model::{Headers, PactSpec};

fn rule(v: Value) -> MatchingRule {
    MatchingRule::from_json(&v).expect("valid rule")
}

#[test]
fn number_rules_on_json_values_and_on_text() {
    let (int, dec, num) = (
        rule(json!({"match": "integer"})),
        rule(json!({"match": "decimal"})),
        rule(json!({"match": "number"})),
    );
    // suite V3: in bodies, numbers in string form are not numbers.
    let json_rows = [
        (&int, json!(100), true),
        (&int, json!(-3), true),
        (&int, json!(100.5), false),
        (&int, json!("100"), false),
        (&dec, json!(100.5), true),
        (&dec, json!(100), false),
        (&dec, json!("100.5"), false),
        (&num, json!(100), true),
        (&num, json!(1.5), true),
        (&num, json!("1"), false),
        (&num, json!(true), false),
    ];
    for (r, a, ok) in json_rows {
        assert_eq!(check_json(r, &json!(1), &a).is_ok(), ok, "{r} on {a}");
    }
    // suite V3 "acceptable to coerce values from string form" (query,
    // headers). Decimal asks for decimal places (spec: "a number with
    // decimal places"; pr accepts any float text here, we follow the spec).
    let text_rows = [
        (&int, "100", true),
        (&int, "-100", true),
        (&int, "100.0", false),
        (&int, "1e3", false),
        (&dec, "100.4", true),
        (&dec, "100", false),
        (&num, "100", true),
        (&num, "100.2", true),
        (&num, "abc", false),
        // Text forms: any length of digits is an integer; a sign only in
        // front; no NaN or infinity (pact-jvm's text patterns).
        (&int, "123456789012345678901234567890", true),
        (&int, "+5", false),
        (&int, "-", false),
        (&int, "", false),
        (&dec, "-0.5", true),
        (&dec, ".5", false),
        (&dec, "1.", false),
        (&dec, "1.-5", false),
        (&num, "1e3", true),
        (&num, "-.5", true),
        (&num, "NaN", false),
        (&num, "inf", false),
        (&num, "infinity", false),
    ];
    for (r, a, ok) in text_rows {
        assert_eq!(check_str(r, "1", a).is_ok(), ok, "{r} on {a}");
    }
}

#[test]
fn status_code_classes() {
    let class = |s: Value| rule(json!({"match": "statusCode", "status": s}));
    // pr `match_status_code` / pact_models `HttpStatus`.
    let rows = [
        (class(json!("info")), 101, true),
        (class(json!("success")), 299, true),
        (class(json!("success")), 300, false),
        (class(json!("redirect")), 304, true),
        (class(json!("clientError")), 404, true),
        (class(json!("serverError")), 503, true),
        (class(json!("serverError")), 499, false),
        (class(json!("nonError")), 399, true),
        (class(json!("nonError")), 400, false),
        (class(json!("error")), 400, true),
        (class(json!("error")), 599, true),
        (class(json!([200, 201])), 201, true),
        (class(json!([200, 201])), 204, false),
    ];
    for (r, status, ok) in rows {
        assert_eq!(
            check_json(&r, &json!(200), &json!(status)).is_ok(),
            ok,
            "{r} {status}"
        );
    }
}

fn headers(pairs: &[(&str, &[&str])]) -> Headers {
    pairs
        .iter()
        .map(|(k, vs)| (k.to_string(), vs.iter().map(|v| v.to_string()).collect()))
        .collect()
}

#[test]
fn header_rules_judge_each_value_of_a_multi_valued_header() {
    let rules = MatchingRules::from_pact_json(
        &json!({"header": {"X-Id": {"matchers": [{"match": "regex", "regex": "[a-z]\\d"}]}}}),
        PactSpec::V4,
    )
    .expect("valid");
    let e = headers(&[("X-Id", &["a1"])]);
    // pr headers.rs `match_header_maps`: several values under a rule go
    // through `compare_lists_with_matchingrules`, one value at a time.
    let rows: [(&[&str], bool); 4] = [
        (&["b2"], true),
        (&["b2", "c3"], true),
        (&["b2", "33"], false),
        (&["b2, c3"], false),
    ];
    for (values, ok) in rows {
        let a = headers(&[("x-id", values)]);
        let m = match_headers(Some(&e), Some(&a), &rules);
        assert_eq!(m.is_empty(), ok, "{values:?}: {m:?}");
    }
}

#[test]
fn type_rules_bound_the_number_of_query_and_header_values() {
    // pr `compare_lists_with_matchingrule` (MinType/MaxType on the list of
    // values of one query parameter or header).
    let rules = MatchingRules::from_pact_json(
        &json!({
            "query": {"q": {"matchers": [{"match": "type", "min": 2, "max": 3}]}},
            "header": {"X-Q": {"matchers": [{"match": "type", "min": 2}]}}
        }),
        PactSpec::V4,
    )
    .expect("valid");
    let e: crate::model::Query = [("q".to_string(), vec!["1".to_string()])]
        .into_iter()
        .collect();
    let rows: [(&[&str], Option<&str>); 3] = [
        (&["1", "2"], None),
        (
            &["1"],
            Some("Expected [1] (size 1) to have minimum size of 2"),
        ),
        (
            &["1", "2", "3", "4"],
            Some("Expected [1, 2, 3, 4] (size 4) to have maximum size of 3"),
        ),
    ];
    for (values, want) in rows {
        let a = [(
            "q".to_string(),
            values.iter().map(|v| v.to_string()).collect(),
        )]
        .into_iter()
        .collect();
        let m = super::http::compare_params(
            &e,
            &a,
            rules.category("query"),
            super::MismatchKind::Query,
        );
        assert_eq!(m.first().map(|m| m.message.as_str()), want, "{values:?}");
    }
    let eh = headers(&[("X-Q", &["a"])]);
    let one = headers(&[("X-Q", &["a"])]);
    let two = headers(&[("X-Q", &["a", "b"])]);
    assert_eq!(match_headers(Some(&eh), Some(&one), &rules).len(), 1);
    assert!(match_headers(Some(&eh), Some(&two), &rules).is_empty());
}

#[test]
fn regex_and_include_read_non_strings_as_json_text() {
    // pr DoMatch<&Value> Regex/Include: `actual_value.to_string()` for
    // anything but a string.
    let rows = [
        (
            rule(json!({"match": "regex", "regex": "null|\\d+"})),
            Value::Null,
            true,
        ),
        (
            rule(json!({"match": "regex", "regex": "\\d+"})),
            json!(12),
            true,
        ),
        (
            rule(json!({"match": "regex", "regex": "true"})),
            json!(true),
            true,
        ),
        (
            rule(json!({"match": "regex", "regex": "\\d+"})),
            json!(1.5),
            false,
        ),
        (
            rule(json!({"match": "include", "value": "2"})),
            json!([1, 2]),
            true,
        ),
        (
            rule(json!({"match": "include", "value": "ul"})),
            Value::Null,
            true,
        ),
    ];
    for (r, a, ok) in rows {
        assert_eq!(check_json(&r, &json!("x"), &a).is_ok(), ok, "{r} on {a}");
    }
}

#[test]
fn content_type_rule_inside_a_json_body_detects_the_decoded_value() {
    // pr DoMatch<&Value> ContentType: `convert_data` (base64 strings
    // decoded) then `match_content_type` (magic bytes, then text kinds).
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    let r = rule(json!({"match": "contentType", "value": "image/png"}));
    let rows = [
        (json!(png), true),
        (json!("not an image"), false),
        (json!({"a": 1}), false),
    ];
    for (a, ok) in rows {
        assert_eq!(check_json(&r, &json!(""), &a).is_ok(), ok, "{a}");
    }
    let json_rule = rule(json!({"match": "contentType", "value": "application/json"}));
    assert!(check_json(&json_rule, &json!(""), &json!({"a": 1})).is_ok());
}
