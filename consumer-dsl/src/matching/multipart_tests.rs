use serde_json::json;

use super::*;
use crate::PactSpec;
use crate::matching::MatchingRules;

fn body(boundary: &str, parts: &[(&str, &str, &str)]) -> Vec<u8> {
    let mut out = String::new();
    for (name, ct, content) in parts {
        out.push_str(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{name}.bin\"\r\nContent-Type: {ct}\r\n\r\n{content}\r\n"
        ));
    }
    out.push_str(&format!("--{boundary}--\r\n"));
    out.into_bytes()
}

fn rules(v: serde_json::Value) -> Category {
    let all =
        MatchingRules::from_pact_json(&json!({ "body": v }), PactSpec::V4).expect("valid rules");
    all.body().cloned().unwrap_or_default()
}

fn compare(e: &[u8], a: &[u8], rules: &Category, allow: bool) -> Vec<Mismatch> {
    match_multipart((e, "AAA"), (a, "zzz-other-boundary"), rules, allow)
}

#[test]
fn the_same_parts_under_another_boundary_match() {
    let parts = [
        ("meta", "application/json", r#"{"id": 1}"#),
        ("note", "text/plain", "hello"),
    ];
    let m = compare(
        &body("AAA", &parts),
        &body("zzz-other-boundary", &parts),
        &Category::default(),
        false,
    );
    assert!(m.is_empty(), "{m:?}");
}

#[test]
fn a_missing_part_and_a_changed_field_are_mismatches_at_the_part() {
    let e = body(
        "AAA",
        &[
            ("meta", "application/json", r#"{"id": 1}"#),
            ("note", "text/plain", "hi"),
        ],
    );
    let a = body(
        "zzz-other-boundary",
        &[("meta", "application/json", r#"{"id": 2}"#)],
    );
    let m = compare(&e, &a, &Category::default(), true);
    let paths: Vec<&str> = m.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(paths, ["$.meta.id", "$.note"], "{m:?}");
    assert!(m[1].message.contains("missing"), "{}", m[1].message);
}

#[test]
fn rules_below_a_part_judge_its_content() {
    let e = body(
        "AAA",
        &[
            ("meta", "application/json", r#"{"id": 1}"#),
            ("note", "text/plain", "hi"),
        ],
    );
    let a = body(
        "zzz-other-boundary",
        &[
            ("meta", "application/json", r#"{"id": 99}"#),
            ("note", "text/plain", "hello 42"),
        ],
    );
    let r = rules(json!({
        "$.meta.id": {"matchers": [{"match": "integer"}]},
        "$.note": {"matchers": [{"match": "regex", "regex": "hello \\d+"}]}
    }));
    assert!(compare(&e, &a, &r, false).is_empty());
    let bad = body(
        "zzz-other-boundary",
        &[
            ("meta", "application/json", r#"{"id": "x"}"#),
            ("note", "text/plain", "bye"),
        ],
    );
    let m = compare(&e, &bad, &r, false);
    let paths: Vec<&str> = m.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(paths, ["$.meta.id", "$.note"], "{m:?}");
}

#[test]
fn unexpected_parts_are_refused_only_where_unexpected_keys_are() {
    let e = body("AAA", &[("note", "text/plain", "hi")]);
    let a = body(
        "zzz-other-boundary",
        &[("note", "text/plain", "hi"), ("extra", "text/plain", "x")],
    );
    assert!(compare(&e, &a, &Category::default(), true).is_empty());
    let m = compare(&e, &a, &Category::default(), false);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].path, "$.extra");
}

#[test]
fn a_part_of_another_content_type_is_a_mismatch_unless_rules_decide() {
    let e = body("AAA", &[("file", "image/png", "PNG")]);
    let a = body("zzz-other-boundary", &[("file", "image/jpeg", "JPG")]);
    let m = compare(&e, &a, &Category::default(), true);
    assert_eq!(m.len(), 1);
    assert!(m[0].message.contains("image/png"), "{}", m[0].message);
}

#[test]
fn malformed_bodies_are_mismatches_not_panics() {
    let good = body("AAA", &[("note", "text/plain", "hi")]);
    for bad in [
        &b""[..],
        b"--zzz-other-boundary",
        b"--zzz-other-boundary\r\nno end",
        b"--zzz-other-boundary\r\n\r\nx\r\n--zzz-other-boundary--",
    ] {
        let m = compare(&good, bad, &Category::default(), true);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].path, "$");
    }
}

#[test]
fn boundaries_come_from_multipart_content_types_only() {
    assert_eq!(
        boundary("multipart/form-data; boundary=\"a b\""),
        Some("a b".into())
    );
    assert_eq!(boundary("Multipart/Mixed;BOUNDARY=x"), Some("x".into()));
    assert_eq!(boundary("application/json; boundary=x"), None);
    assert_eq!(boundary("multipart/form-data"), None);
}

#[test]
fn whole_requests_with_multipart_bodies_match_across_boundaries() {
    let req = |b: &str| {
        let content = body(b, &[("file", "text/plain", "data")]);
        json!({"method": "POST", "path": "/upload",
               "headers": {"Content-Type": format!("multipart/form-data; boundary={b}")},
               "body": {"content": base64_encode(&content), "contentType": format!("multipart/form-data; boundary={b}"), "encoded": "base64"}})
    };
    let e = crate::pact::parts::request_from_json(&req("AAA"), PactSpec::V4, "e").expect("reads");
    let a = crate::pact::parts::request_from_json(&req("BBB"), PactSpec::V4, "a").expect("reads");
    let m = crate::matching::match_request(&e, &a);
    assert!(m.iter().all(|m| m.kind != MismatchKind::Body), "{m:?}");
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
