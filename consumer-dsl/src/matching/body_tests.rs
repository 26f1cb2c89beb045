use serde_json::json;

use super::*;

#[test]
fn absent_null_and_empty_bodies() {
    let none = Category::default();
    let json_body = Body::json(json!({"a": 1}));
    let empty = Body::text("", None);
    let table = [
        (Body::Missing, json_body.clone(), true),
        (Body::Null, Body::Missing, true),
        (Body::Null, json_body.clone(), false),
        (empty.clone(), Body::Missing, true),
        (empty, json_body.clone(), false),
        (json_body.clone(), Body::Missing, false),
        (json_body.clone(), Body::Null, false),
        (json_body.clone(), json_body, true),
    ];
    for (e, a, ok) in table {
        assert_eq!(
            match_body(&e, &a, &none, true).is_empty(),
            ok,
            "{e:?} vs {a:?}"
        );
    }
}

#[test]
fn content_type_decides_the_comparator() {
    let none = Category::default();
    let xml = Body::text("<a/>", Some("application/xml"));
    let json_body = Body::json(json!({"a": 1}));
    let m = match_body(&xml, &json_body, &none, true);
    assert_eq!(m[0].kind, MismatchKind::BodyType);
    let t1 = Body::text("hello", Some("text/plain"));
    let t2 = Body::text("hullo", Some("text/plain"));
    assert_eq!(match_body(&t1, &t2, &none, true).len(), 1);
    let json_text = Body::text("{\"a\": 1}", Some("application/json"));
    assert!(match_body(&json_body, &json_text, &none, true).is_empty());
}

#[test]
fn content_type_rule_checks_magic_bytes() {
    let mut rules = crate::matching::MatchingRules::default();
    rules
        .add_rule("body", "$", MatchingRule::ContentType("image/png".into()))
        .expect("valid");
    let body = |b: &[u8]| Body::Present {
        content: BodyContent::Bytes(b.to_vec()),
        content_type: Some("image/png".into()),
    };
    let cat = rules.body().cloned().unwrap_or_default();
    let png = body(b"\x89PNG\r\n\x1a\nrest");
    let not_empty = {
        let mut r = crate::matching::MatchingRules::default();
        r.add_rule("body", "$", MatchingRule::NotEmpty)
            .expect("valid");
        r.body().cloned().unwrap_or_default()
    };
    assert!(match_body(&png, &body(b"other bytes"), &not_empty, true).is_empty());
    let m = match_body(&png, &body(b""), &not_empty, true);
    assert_eq!(m[0].message, "Expected [] (0 bytes) to not be empty");
    assert!(match_body(&png, &png, &cat, true).is_empty());
    assert_eq!(match_body(&png, &body(b"GIF89a..."), &cat, true).len(), 1);
}

#[test]
fn content_type_rule_accepts_parameters_suffixes_and_plain_text() {
    let table = [
        ("image/png; q=1", "image/png", true),
        ("IMAGE/PNG", "image/png", true),
        ("image/jpeg", "image/png", false),
        ("text/plain", "application/json", true),
        ("text/plain", "application/xml", true),
        ("text/plain", "application/octet-stream", false),
        ("application/vnd.siren+json", "application/json", true),
        ("application/atom+xml", "application/xml", true),
        ("text/xml", "application/xml", true),
        ("application/json", "text/plain", false),
    ];
    for (wanted, detected, ok) in table {
        assert_eq!(
            content_type_fits(wanted, detected),
            ok,
            "{wanted} / {detected}"
        );
    }
    assert_eq!(detect(b"{\"a\": 1}"), "application/json");
    assert_eq!(detect(b"\x1f\x8b\x08rest"), "application/gzip");
    assert_eq!(
        detect(&[0xff, 0xfe, 0x00, 0x01]),
        "application/octet-stream"
    );
}
