use serde_json::json;

use super::*;
use crate::model::BodyContent;

#[test]
fn v2_query_string_is_decoded_into_names_and_values() {
    let r = request_from_json(
        &json!({"method": "GET", "path": "/", "query": "a=b%3Dc&a=d&e=f+g"}),
        PactSpec::V2,
        "t",
    )
    .expect("valid");
    let q = r.query.expect("query");
    assert_eq!(q["a"], vec!["b=c", "d"]);
    assert_eq!(q["e"], vec!["f g"]);
}

#[test]
fn v1_query_keeps_a_trailing_empty_segment_later_versions_drop_it() {
    let v = json!({"query": "a=b&"});
    let v1 = request_from_json(&v, PactSpec::V1, "t").expect("valid");
    let v2 = request_from_json(&v, PactSpec::V1_1, "t").expect("valid");
    assert_eq!(v1.query.expect("query").len(), 2);
    assert_eq!(v2.query.expect("query").len(), 1);
}

#[test]
fn v4_query_accepts_string_and_list_values() {
    let r = request_from_json(
        &json!({"query": {"a": "1", "b": ["2", "3"]}}),
        PactSpec::V4,
        "t",
    )
    .expect("valid");
    let q = r.query.expect("query");
    assert_eq!(q["a"], vec!["1"]);
    assert_eq!(q["b"], vec!["2", "3"]);
}

#[test]
fn missing_null_and_empty_bodies_stay_distinct() {
    let missing = request_from_json(&json!({}), PactSpec::V3, "t").expect("valid");
    let null = request_from_json(&json!({"body": null}), PactSpec::V3, "t").expect("valid");
    let empty = request_from_json(&json!({"body": ""}), PactSpec::V3, "t").expect("valid");
    assert_eq!(missing.body, Body::Missing);
    assert_eq!(null.body, Body::Null);
    assert!(matches!(
        empty.body,
        Body::Present { content: BodyContent::Text(ref t), .. } if t.is_empty()
    ));
}

#[test]
fn string_body_is_text_with_a_text_content_type_and_json_otherwise() {
    let text = response_from_json(
        &json!({"headers": {"Content-Type": "text/plain"}, "body": "hi"}),
        PactSpec::V3,
        "t",
    )
    .expect("valid");
    assert!(matches!(
        text.body,
        Body::Present {
            content: BodyContent::Text(_),
            ..
        }
    ));
    let json = response_from_json(&json!({"body": "hi"}), PactSpec::V3, "t").expect("valid");
    assert_eq!(json.body.as_json(), Some(&json!("hi")));
    let xml = response_from_json(&json!({"body": "<a/>"}), PactSpec::V3, "t").expect("valid");
    assert!(matches!(
        xml.body,
        Body::Present {
            content: BodyContent::Text(_),
            ..
        }
    ));
}

#[test]
fn v4_body_reads_content_type_and_base64() {
    let r = response_from_json(
        &json!({"body": {"content": "aGk=", "contentType": "text/plain", "encoded": "base64"}}),
        PactSpec::V4,
        "t",
    )
    .expect("valid");
    assert_eq!(r.body, Body::text("hi", Some("text/plain")));
    let j = response_from_json(
        &json!({"body": {"content": {"a": 1}, "contentType": "application/json", "encoded": false}}),
        PactSpec::V4,
        "t",
    )
    .expect("valid");
    assert_eq!(j.body.as_json(), Some(&json!({"a": 1})));
}

#[test]
fn headers_take_strings_or_lists() {
    let r = response_from_json(
        &json!({"headers": {"A": "x, y", "B": ["1", "2"]}}),
        PactSpec::V4,
        "t",
    )
    .expect("valid");
    let h = r.headers.expect("headers");
    assert_eq!(h["A"], vec!["x, y"]);
    assert_eq!(h["B"], vec!["1", "2"]);
}

#[test]
fn bad_shapes_name_the_json_path() {
    let err = request_from_json_at(
        &json!({"headers": {"Accept": {"x": 1}}}),
        PactSpec::V3,
        "f.json",
        "$.request",
    )
    .expect_err("object header value");
    assert!(
        err.to_string().contains("$.request.headers.Accept"),
        "{err}"
    );
    let err = response_from_json(&json!({"status": "ok"}), PactSpec::V3, "f").expect_err("status");
    assert!(err.to_string().contains("$.status"), "{err}");
}

#[test]
fn unknown_attributes_are_kept() {
    let r =
        response_from_json(&json!({"status": 200, "x-note": 1}), PactSpec::V3, "t").expect("valid");
    assert_eq!(r.extra.get("x-note"), Some(&json!(1)));
}

#[test]
fn message_reads_v3_metadata_content_type() {
    let m = message_from_json(
        &json!({"metaData": {"contentType": "text/plain"}, "contents": "hello"}),
        PactSpec::V3,
        "t",
    )
    .expect("valid");
    assert_eq!(m.contents, Body::text("hello", Some("text/plain")));
    assert_eq!(m.metadata.get("contentType"), Some(&json!("text/plain")));
}

#[test]
fn v4_message_contents_and_content_rules() {
    let m = message_from_json(
        &json!({
            "contents": {"content": "{\"a\":1}", "contentType": "application/json", "encoded": "json"},
            "metadata": {"topic": "t"},
            "matchingRules": {"content": {"$.a": {"matchers": [{"match": "integer"}]}}}
        }),
        PactSpec::V4,
        "t",
    )
    .expect("valid");
    assert_eq!(m.contents.as_json(), Some(&json!({"a": 1})));
    assert_eq!(
        m.matching_rules
            .body()
            .expect("content rules")
            .entries()
            .len(),
        1
    );
}

#[test]
fn bad_base64_and_bad_rules_name_their_path() {
    let err = response_from_json_at(
        &json!({"body": {"content": "***", "contentType": "image/png", "encoded": "base64"}}),
        PactSpec::V4,
        "f.json",
        "$.response",
    )
    .expect_err("bad base64");
    assert!(err.to_string().contains("$.response.body"), "{err}");
    let err = request_from_json_at(
        &json!({"matchingRules": {"body": {"$.a": {"matchers": [{"match": "nope"}]}}}}),
        PactSpec::V3,
        "f.json",
        "$.request",
    )
    .expect_err("bad rule");
    let text = err.to_string();
    assert!(
        text.starts_with("f.json: $.request.matchingRules.body['$.a'].matchers[0]"),
        "{text}"
    );
}

#[test]
fn a_serialised_json_document_in_a_string_is_read_as_the_document() {
    let r = response_from_json(
        &json!({"headers": {"Content-Type": "application/json"}, "body": "{\"a\": 1}"}),
        PactSpec::V3,
        "t",
    )
    .expect("valid");
    assert_eq!(r.body.as_json(), Some(&json!({"a": 1})));
    let s = response_from_json(
        &json!({"headers": {"Content-Type": "application/json"}, "body": "plain"}),
        PactSpec::V3,
        "t",
    )
    .expect("valid");
    assert_eq!(s.body.as_json(), Some(&json!("plain")));
}
