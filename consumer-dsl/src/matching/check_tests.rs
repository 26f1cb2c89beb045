use serde_json::{Value, json};

use super::*;
use crate::matching::rule::StatusClass;

fn rule(v: Value) -> MatchingRule {
    MatchingRule::from_json(&v).expect("valid rule")
}

#[test]
fn each_rule_accepts_and_refuses_json_values() {
    let table = [
        (json!({"match": "equality"}), json!("a"), json!("a"), true),
        (json!({"match": "equality"}), json!("a"), json!("b"), false),
        (
            json!({"match": "regex", "regex": "\\d+"}),
            json!("1"),
            json!("42"),
            true,
        ),
        (
            json!({"match": "regex", "regex": "\\d+"}),
            json!("1"),
            json!(42),
            true,
        ),
        (
            json!({"match": "regex", "regex": "\\d+"}),
            json!("1"),
            json!("4x"),
            false,
        ),
        (json!({"match": "type"}), json!("a"), json!("zzz"), true),
        (json!({"match": "type"}), json!(1), json!(2.5), true),
        (json!({"match": "type"}), json!("1"), json!(1), false),
        (
            json!({"match": "type", "min": 2}),
            json!([1]),
            json!([1]),
            false,
        ),
        (
            json!({"match": "type", "max": 1}),
            json!([1]),
            json!([1, 2]),
            false,
        ),
        (
            json!({"match": "type", "min": 1, "max": 2}),
            json!([1]),
            json!([1, 2]),
            true,
        ),
        (
            json!({"match": "include", "value": "ll"}),
            json!("x"),
            json!("hello"),
            true,
        ),
        (
            json!({"match": "include", "value": "zz"}),
            json!("x"),
            json!("hello"),
            false,
        ),
        (json!({"match": "integer"}), json!(1), json!(7), true),
        (json!({"match": "integer"}), json!(1), json!(7.5), false),
        (json!({"match": "integer"}), json!(1), json!("7"), false),
        (json!({"match": "decimal"}), json!(1.5), json!(7.25), true),
        (json!({"match": "decimal"}), json!(1.5), json!(7), false),
        (json!({"match": "number"}), json!(1), json!(7.25), true),
        (json!({"match": "number"}), json!(1), json!("7"), false),
        (
            json!({"match": "datetime", "format": "yyyy-MM-dd HH:mm"}),
            json!(""),
            json!("2020-01-01 10:00"),
            true,
        ),
        (
            json!({"match": "datetime", "format": "yyyy-MM-dd HH:mm"}),
            json!(""),
            json!("2020-01-01"),
            false,
        ),
        (
            json!({"match": "date", "format": "yyyy-MM-dd"}),
            json!(""),
            json!("2020-02-29"),
            true,
        ),
        (
            json!({"match": "time", "format": "HH:mm:ss"}),
            json!(""),
            json!("23:59:60x"),
            false,
        ),
        (json!({"match": "null"}), json!(null), json!(null), true),
        (json!({"match": "null"}), json!(null), json!(0), false),
        (json!({"match": "boolean"}), json!(true), json!(false), true),
        (json!({"match": "boolean"}), json!(true), json!("no"), false),
        (json!({"match": "notEmpty"}), json!("a"), json!("b"), true),
        (json!({"match": "notEmpty"}), json!("a"), json!(""), false),
        (json!({"match": "notEmpty"}), json!([1]), json!([]), false),
        (
            json!({"match": "semver"}),
            json!("1.0.0"),
            json!("2.10.3-beta.1"),
            true,
        ),
        (
            json!({"match": "semver"}),
            json!("1.0.0"),
            json!("2.10"),
            false,
        ),
        (
            json!({"match": "statusCode", "status": "success"}),
            json!(200),
            json!(204),
            true,
        ),
        (
            json!({"match": "statusCode", "status": "success"}),
            json!(200),
            json!(404),
            false,
        ),
    ];
    for (r, expected, actual, ok) in table {
        let result = check_json(&rule(r.clone()), &expected, &actual);
        assert_eq!(
            result.is_ok(),
            ok,
            "{r} with {expected} vs {actual}: {result:?}"
        );
    }
}

#[test]
fn text_values_recognise_numbers_and_booleans() {
    let table = [
        (MatchingRule::Integer, "12", true),
        (MatchingRule::Integer, "1.2", false),
        (MatchingRule::Decimal, "1.2", true),
        (MatchingRule::Decimal, "12", false),
        (MatchingRule::Number, "1e3", true),
        (MatchingRule::Boolean, "true", true),
        (MatchingRule::of_type(), "anything", true),
        (
            MatchingRule::StatusCode(StatusClass::ClientError),
            "404",
            true,
        ),
        (MatchingRule::regex("[a-z]+").expect("valid"), "abc", true),
        (MatchingRule::regex("[a-z]+").expect("valid"), "ab1", false),
    ];
    for (r, actual, ok) in table {
        assert_eq!(check_str(&r, "x", actual).is_ok(), ok, "{r} ~ {actual}");
    }
}

#[test]
fn combine_or_passes_when_one_rule_passes_and_and_needs_all() {
    let rules = vec![MatchingRule::Integer, MatchingRule::Null];
    let or = RuleList {
        rules: rules.clone(),
        combine: Combine::Or,
    };
    let and = RuleList {
        rules,
        combine: Combine::And,
    };
    let run = |l: &RuleList, v: Value| check_list(l, |r| check_json(r, &json!(1), &v));
    assert!(run(&or, json!(null)).is_ok());
    assert!(run(&or, json!(3)).is_ok());
    let err = run(&or, json!("x")).expect_err("neither");
    assert_eq!(err.rule, "integer OR null");
    assert!(run(&and, json!(3)).is_err());
}

#[test]
fn failures_read_as_sentences() {
    let err = check_json(&MatchingRule::Integer, &json!(1), &json!("x")).expect_err("string");
    assert_eq!(err, "Expected 'x' (String) to be an integer");
}
