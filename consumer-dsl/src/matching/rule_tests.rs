use super::*;

#[test]
fn every_rule_round_trips_through_v4_json() {
    let table = [
        json!({"match": "equality"}),
        json!({"match": "regex", "regex": "\\d+"}),
        json!({"match": "type"}),
        json!({"match": "type", "min": 1}),
        json!({"match": "type", "max": 3}),
        json!({"match": "type", "min": 1, "max": 3}),
        json!({"match": "include", "value": "x"}),
        json!({"match": "integer"}),
        json!({"match": "decimal"}),
        json!({"match": "number"}),
        json!({"match": "datetime", "format": "yyyy-MM-dd'T'HH:mm:ss"}),
        json!({"match": "date", "format": "yyyy-MM-dd"}),
        json!({"match": "time", "format": "HH:mm"}),
        json!({"match": "null"}),
        json!({"match": "boolean"}),
        json!({"match": "contentType", "value": "image/png"}),
        json!({"match": "values"}),
        json!({"match": "arrayContains", "variants": [{"index": 0, "rules": {"$.a": {"combine": "AND", "matchers": [{"match": "integer"}]}}}]}),
        json!({"match": "statusCode", "status": "success"}),
        json!({"match": "statusCode", "status": [200, 201]}),
        json!({"match": "notEmpty"}),
        json!({"match": "semver"}),
        json!({"match": "eachKey", "rules": [{"match": "regex", "regex": "[a-z]+"}], "value": "one"}),
        json!({"match": "eachValue", "rules": [{"match": "type"}]}),
    ];
    for v in table {
        let rule = MatchingRule::from_json(&v).expect("valid rule");
        assert_eq!(rule.to_json(), v);
    }
}

#[test]
fn v2_rules_without_match_are_inferred() {
    let table = [
        (json!({"regex": "a"}), "regex"),
        (json!({"min": 1}), "type"),
        (json!({"max": 1}), "type"),
        (
            json!({"match": "timestamp", "timestamp": "yyyy"}),
            "datetime",
        ),
        (json!({"match": "real"}), "decimal"),
    ];
    for (v, name) in table {
        assert_eq!(
            MatchingRule::from_json(&v).expect("valid").name(),
            name,
            "{v}"
        );
    }
}

#[test]
fn bad_rules_say_why() {
    let table = [
        (json!({"match": "bogus"}), "unknown matching rule"),
        (json!({"match": "regex"}), "needs a string 'regex'"),
        (json!({"match": "regex", "regex": "("}), "regex"),
        (json!({"match": "type", "min": -1}), "non-negative"),
        (
            json!({"match": "statusCode", "status": "teapot"}),
            "status class",
        ),
        (json!([]), "must be an object"),
    ];
    for (v, why) in table {
        let err = MatchingRule::from_json(&v).expect_err("invalid");
        assert!(err.contains(why), "{v}: {err}");
    }
}

#[test]
fn status_classes_contain_their_codes() {
    assert!(StatusClass::Success.contains(204));
    assert!(!StatusClass::Success.contains(301));
    assert!(StatusClass::NonError.contains(302));
    assert!(StatusClass::Error.contains(503));
    assert!(StatusClass::Codes(vec![418]).contains(418));
}

#[test]
fn a_combine_that_is_not_a_string_is_refused_not_read_as_and() {
    for bad in [json!(42), json!(null), json!(["AND"])] {
        let err = crate::matching::RuleList::from_json(
            &json!({"combine": bad, "matchers": [{"match": "type"}]}),
        )
        .expect_err("refused");
        assert!(err.to_string().contains("combine"), "{err}");
    }
}
