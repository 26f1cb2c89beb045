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
    ] {
        let m = compare(&good, bad, &Category::default(), true);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].path, "$");
    }
}

/// A `multipart/mixed` body: parts with a content type and no name.
fn mixed(boundary: &str, parts: &[(&str, &str)]) -> Vec<u8> {
    let mut out = String::new();
    for (ct, content) in parts {
        out.push_str(&format!(
            "--{boundary}\r\nContent-Type: {ct}\r\n\r\n{content}\r\n"
        ));
    }
    out.push_str(&format!("--{boundary}--\r\n"));
    out.into_bytes()
}

fn paths(m: &[Mismatch]) -> Vec<&str> {
    m.iter().map(|m| m.path.as_str()).collect()
}

#[test]
fn named_parts_in_another_order_match() {
    let e = body(
        "AAA",
        &[
            ("meta", "application/json", r#"{"id": 1}"#),
            ("note", "text/plain", "hello"),
        ],
    );
    let a = body(
        "zzz-other-boundary",
        &[
            ("note", "text/plain", "hello"),
            ("meta", "application/json", r#"{"id": 1}"#),
        ],
    );
    let m = compare(&e, &a, &Category::default(), false);
    assert!(m.is_empty(), "{m:?}");
}

#[test]
fn unnamed_parts_pair_by_position() {
    let parts = [
        ("text/plain", "the message"),
        ("application/json", r#"{"a": 1}"#),
    ];
    let e = mixed("AAA", &parts);
    let m = compare(
        &e,
        &mixed("zzz-other-boundary", &parts),
        &Category::default(),
        false,
    );
    assert!(m.is_empty(), "{m:?}");
    // The same parts the other way round pair the wrong way.
    let swapped = [parts[1], parts[0]];
    let m = compare(
        &e,
        &mixed("zzz-other-boundary", &swapped),
        &Category::default(),
        true,
    );
    assert_eq!(paths(&m), ["$[0]", "$[1]"], "{m:?}");
}

#[test]
fn an_unnamed_part_whose_content_differs_is_a_mismatch_at_its_position() {
    let e = mixed("AAA", &[("text/plain", "first"), ("text/plain", "second")]);
    let a = mixed(
        "zzz-other-boundary",
        &[("text/plain", "first"), ("text/plain", "changed")],
    );
    let m = compare(&e, &a, &Category::default(), true);
    assert_eq!(paths(&m), ["$[1]"], "{m:?}");
    assert_eq!(m[0].kind, MismatchKind::Body, "{m:?}");
    let json_e = mixed("AAA", &[("application/json", r#"{"id": 1}"#)]);
    let json_a = mixed(
        "zzz-other-boundary",
        &[("application/json", r#"{"id": 2}"#)],
    );
    let m = compare(&json_e, &json_a, &Category::default(), true);
    assert_eq!(paths(&m), ["$[0].id"], "{m:?}");
}

#[test]
fn a_missing_or_extra_unnamed_part_is_a_mismatch_even_where_extra_keys_are_allowed() {
    let two = mixed("AAA", &[("text/plain", "first"), ("text/plain", "second")]);
    let one = mixed("zzz-other-boundary", &[("text/plain", "first")]);
    let m = compare(&two, &one, &Category::default(), true);
    assert_eq!(paths(&m), ["$[1]"], "{m:?}");
    assert!(m[0].message.contains("missing"), "{}", m[0].message);
    assert!(m[0].message.contains("without a name"), "{}", m[0].message);
    let e = mixed("AAA", &[("text/plain", "first")]);
    let three = mixed(
        "zzz-other-boundary",
        &[
            ("text/plain", "first"),
            ("text/plain", "x"),
            ("text/plain", "y"),
        ],
    );
    let m = compare(&e, &three, &Category::default(), true);
    assert_eq!(paths(&m), ["$[1]", "$[2]"], "{m:?}");
    assert!(m[0].message.starts_with("Unexpected"), "{}", m[0].message);
}

#[test]
fn a_missing_named_part_is_a_mismatch_beside_unnamed_ones() {
    let e = {
        let mut b = body("AAA", &[("note", "text/plain", "hi")]);
        // Drop the closing delimiter and append an unnamed part.
        b.truncate(b.len() - "--AAA--\r\n".len());
        b.extend_from_slice(b"--AAA\r\nContent-Type: text/plain\r\n\r\nplain\r\n--AAA--\r\n");
        b
    };
    let a = mixed("zzz-other-boundary", &[("text/plain", "plain")]);
    let m = compare(&e, &a, &Category::default(), true);
    assert_eq!(paths(&m), ["$.note"], "{m:?}");
    assert!(m[0].message.contains("'note'"), "{}", m[0].message);
}

#[test]
fn parts_of_a_repeated_name_pair_in_order() {
    let e = body(
        "AAA",
        &[("file", "text/plain", "one"), ("file", "text/plain", "two")],
    );
    let same = body(
        "zzz-other-boundary",
        &[("file", "text/plain", "one"), ("file", "text/plain", "two")],
    );
    assert!(compare(&e, &same, &Category::default(), false).is_empty());
    let first_only = body("zzz-other-boundary", &[("file", "text/plain", "one")]);
    let m = compare(&e, &first_only, &Category::default(), true);
    assert_eq!(paths(&m), ["$.file"], "{m:?}");
    assert!(m[0].message.contains("missing"), "{}", m[0].message);
}

#[test]
fn rules_at_an_unnamed_position_judge_that_part() {
    let e = mixed("AAA", &[("text/plain", "x"), ("text/plain", "id 1")]);
    let a = mixed(
        "zzz-other-boundary",
        &[("text/plain", "x"), ("text/plain", "id 42")],
    );
    let r = rules(json!({"$[1]": {"matchers": [{"match": "regex", "regex": "id \\d+"}]}}));
    assert!(compare(&e, &a, &r, false).is_empty());
    let bad = mixed(
        "zzz-other-boundary",
        &[("text/plain", "x"), ("text/plain", "id ?")],
    );
    assert_eq!(paths(&compare(&e, &bad, &r, false)), ["$[1]"]);
}

#[test]
fn base64_transfer_encoded_parts_are_compared_decoded() {
    let encoded = |b: &str, content: &str| {
        format!(
            "--{b}\r\nContent-Type: application/json\r\nContent-Transfer-Encoding: base64\r\n\r\n{content}\r\n--{b}--\r\n"
        )
        .into_bytes()
    };
    // {"id": 1} and {"id":1}: different bytes, the same JSON.
    let e = encoded("AAA", &base64_encode(br#"{"id": 1}"#));
    let a = encoded("zzz-other-boundary", &base64_encode(br#"{"id":1}"#));
    assert!(compare(&e, &a, &Category::default(), false).is_empty());
    let other = encoded("zzz-other-boundary", &base64_encode(br#"{"id":2}"#));
    let m = compare(&e, &other, &Category::default(), false);
    assert_eq!(paths(&m), ["$[0].id"], "{m:?}");
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

#[test]
fn the_boundary_is_read_from_a_multipart_type_of_any_case() {
    let cases = [
        ("multipart/form-data; boundary=x", Some("x")),
        ("Multipart/Mixed;BOUNDARY=\"a b\"", Some("a b")),
        (
            "  MULTIPART/related ; charset=utf-8; boundary = q ",
            Some("q"),
        ),
        ("multipart/form-data", None),
        ("multipart", None),
        ("multipartx/mixed; boundary=x", None),
        ("text/plain; boundary=x", None),
        ("é/multipart/; boundary=x", None),
        ("", None),
    ];
    for (content_type, expected) in cases {
        assert_eq!(
            boundary(content_type).as_deref(),
            expected,
            "{content_type:?}"
        );
    }
}
