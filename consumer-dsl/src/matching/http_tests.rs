use serde_json::json;

use super::*;
use crate::pact::parts::{request_from_json, response_from_json};

fn req(v: serde_json::Value) -> HttpRequest {
    request_from_json(&v, PactSpec::V3, "test").expect("valid request")
}

fn resp(v: serde_json::Value) -> HttpResponse {
    response_from_json(&v, PactSpec::V3, "test").expect("valid response")
}

#[test]
fn header_rules_and_forms() {
    let table = [
        (json!({"Accept": "a, b"}), json!({"accept": "a,b"}), true),
        (json!({"Accept": "a, b"}), json!({"Accept": "b, a"}), false),
        (json!({"X-Kind": "a"}), json!({"X-Kind": "A"}), false),
        (
            json!({"Accept": "application/json;charset=utf-8"}),
            json!({"Accept": "application/json; charset=UTF-8"}),
            true,
        ),
        (json!({"Accept": "a"}), json!({}), false),
        (json!({}), json!({"X": "1"}), true),
        (
            json!({"Content-Type": "application/json"}),
            json!({"Content-Type": "application/json;charset=UTF-8"}),
            true,
        ),
        (
            json!({"Content-Type": "application/json;charset=utf-16"}),
            json!({"Content-Type": "application/json;charset=UTF-8"}),
            false,
        ),
    ];
    let accept = "text/html, application/xml, */*";
    let extra = [
        (
            json!({"Accept": accept}),
            json!({"Accept": "text/html, application/xml;q=0.9, */*;q=0.8"}),
            true,
        ),
        (
            json!({"Accept": accept}),
            json!({"Accept": "text/html, */*;q=0.8"}),
            false,
        ),
    ];
    for (e, a, ok) in table.into_iter().chain(extra) {
        let m = match_response(&resp(json!({"headers": e})), &resp(json!({"headers": a})));
        assert_eq!(m.is_empty(), ok, "{m:?}");
    }
}

#[test]
fn query_values_keep_their_order_and_unexpected_names_fail() {
    let table = [
        ("a=1&b=2", "b=2&a=1", true),
        ("a=1&a=2", "a=2&a=1", false),
        ("a=1", "a=1&c=3", false),
        ("a=1&c=3", "a=1", false),
    ];
    for (e, a, ok) in table {
        let e = request_from_json(&json!({"query": e}), PactSpec::V2, "t").expect("valid");
        let a = request_from_json(&json!({"query": a}), PactSpec::V2, "t").expect("valid");
        assert_eq!(match_request(&e, &a).is_empty(), ok);
    }
}

#[test]
fn v1_query_order_counts() {
    let e = request_from_json(&json!({"query": "a=1&b=2"}), PactSpec::V1, "t").expect("valid");
    let a = request_from_json(&json!({"query": "b=2&a=1"}), PactSpec::V1, "t").expect("valid");
    assert_eq!(match_request_for(&e, &a, PactSpec::V1).len(), 1);
    assert!(match_request_for(&e, &a, PactSpec::V2).is_empty());
}

#[test]
fn method_is_case_insensitive_and_path_exact_unless_a_rule_says() {
    assert!(
        match_request(
            &req(json!({"method": "get", "path": "/a"})),
            &req(json!({"method": "GET", "path": "/a"}))
        )
        .is_empty()
    );
    assert_eq!(
        match_request(&req(json!({"path": "/a"})), &req(json!({"path": "/a/"}))).len(),
        1
    );
    let with_rule = req(
        json!({"path": "/a/1", "matchingRules": {"path": {"matchers": [{"match": "regex", "regex": "/a/\\d+"}]}}}),
    );
    assert!(match_request(&with_rule, &req(json!({"path": "/a/99"}))).is_empty());
}

#[test]
fn status_rule_accepts_a_class() {
    let e = resp(
        json!({"status": 200, "matchingRules": {"status": {"matchers": [{"match": "statusCode", "status": "success"}]}}}),
    );
    assert!(match_response(&e, &resp(json!({"status": 201}))).is_empty());
    assert_eq!(match_response(&e, &resp(json!({"status": 500}))).len(), 1);
    assert_eq!(
        match_response(&resp(json!({"status": 200})), &resp(json!({"status": 201})))[0].kind,
        MismatchKind::Status
    );
}

#[test]
fn request_bodies_refuse_unexpected_keys_responses_allow_them() {
    let e = json!({"headers": {"Content-Type": "application/json"}, "body": {"a": 1}});
    let a = json!({"headers": {"Content-Type": "application/json"}, "body": {"a": 1, "b": 2}});
    assert_eq!(match_request(&req(e.clone()), &req(a.clone())).len(), 1);
    assert!(match_response(&resp(e), &resp(a)).is_empty());
}
