//! Bodies: absent, null and empty bodies, then the comparator the content
//! type calls for (JSON, XML, form, text, bytes).

use std::borrow::Cow;

use serde_json::Value;

use super::check::{check_list, check_str};
use super::content_type::{ContentKind, content_kind};
use super::json::JsonMatcher;
use super::mismatch::{Mismatch, MismatchKind};
use super::rule::MatchingRule;
use super::rules::Category;
use super::xml::match_xml;
use crate::model::{Body, BodyContent};
use crate::pact::parts::parse_query_string;

/// Compares two bodies under the body rules.
pub fn match_body(
    expected: &Body,
    actual: &Body,
    rules: &Category,
    allow_unexpected: bool,
) -> Vec<Mismatch> {
    let actual_content = match actual {
        Body::Present { content, .. } if !is_empty(content) => Some(content),
        _ => None,
    };
    match (expected, actual_content) {
        (Body::Missing, _) | (Body::Null, None) => Vec::new(),
        (Body::Present { content, .. }, None) if is_empty(content) => Vec::new(),
        (Body::Null, Some(_)) | (Body::Present { .. }, Some(_)) if expected_empty(expected) => {
            vec![Mismatch::new(
                MismatchKind::Body,
                "$",
                "Expected an empty body but received one",
            )]
        }
        (Body::Present { .. }, None) => vec![Mismatch::new(
            MismatchKind::Body,
            "$",
            "Expected a body but it was missing",
        )],
        (Body::Present { content, .. }, Some(ac)) => {
            let ek = kind_of(content, expected.content_type());
            let ak = kind_of(ac, actual.content_type());
            compare_present((content, ek), (ac, ak), rules, allow_unexpected)
        }
        (Body::Null, Some(_)) => Vec::new(),
    }
}

fn expected_empty(b: &Body) -> bool {
    match b {
        Body::Null => true,
        Body::Present { content, .. } => is_empty(content),
        Body::Missing => false,
    }
}

fn is_empty(c: &BodyContent) -> bool {
    match c {
        BodyContent::Text(t) => t.is_empty(),
        BodyContent::Bytes(b) => b.is_empty(),
        BodyContent::Json(_) => false,
    }
}

/// The comparator a body needs: its content type, else its content.
fn kind_of(content: &BodyContent, content_type: Option<&str>) -> ContentKind {
    if let Some(ct) = content_type {
        return content_kind(ct);
    }
    match content {
        BodyContent::Json(_) => ContentKind::Json,
        BodyContent::Text(t) if t.trim_start().starts_with('<') => ContentKind::Xml,
        BodyContent::Text(_) => ContentKind::Text,
        BodyContent::Bytes(b) => sniff(b),
    }
}

fn sniff(bytes: &[u8]) -> ContentKind {
    match std::str::from_utf8(bytes) {
        Ok(t) if t.trim_start().starts_with('<') => ContentKind::Xml,
        Ok(t) if serde_json::from_str::<Value>(t).is_ok() => ContentKind::Json,
        Ok(_) => ContentKind::Text,
        Err(_) => ContentKind::Binary,
    }
}

fn text(c: &BodyContent) -> Cow<'_, str> {
    match c {
        BodyContent::Text(t) => Cow::Borrowed(t),
        BodyContent::Bytes(b) => String::from_utf8_lossy(b),
        BodyContent::Json(Value::String(s)) => Cow::Borrowed(s),
        BodyContent::Json(v) => Cow::Owned(v.to_string()),
    }
}

fn compare_present(
    (ec, ek): (&BodyContent, ContentKind),
    (ac, ak): (&BodyContent, ContentKind),
    rules: &Category,
    allow_unexpected: bool,
) -> Vec<Mismatch> {
    if let Some(m) = content_type_rule(rules, ac) {
        return m;
    }
    if ek != ak && !(is_textual(ek) && is_textual(ak)) {
        let msg = format!("Expected a body of type {ek:?} but received {ak:?}");
        return vec![Mismatch::new(MismatchKind::BodyType, "$", msg)];
    }
    match ek {
        ContentKind::Json => compare_json(ec, ac, rules, allow_unexpected),
        ContentKind::Xml => match_xml(&text(ec), &text(ac), rules, allow_unexpected),
        ContentKind::Form => compare_form(&text(ec), &text(ac), rules),
        ContentKind::Text => compare_text(&text(ec), &text(ac), rules),
        ContentKind::Binary => compare_bytes(ec, ac),
    }
}

fn is_textual(k: ContentKind) -> bool {
    matches!(k, ContentKind::Text | ContentKind::Binary)
}

fn compare_json(
    ec: &BodyContent,
    ac: &BodyContent,
    rules: &Category,
    allow: bool,
) -> Vec<Mismatch> {
    match (parse_json(ec, "expected"), parse_json(ac, "actual")) {
        (Ok(e), Ok(a)) => {
            let mut m = JsonMatcher::new(rules, allow, MismatchKind::Body);
            m.compare(&mut Vec::new(), &e, &a);
            m.mismatches
        }
        (Err(m), _) | (_, Err(m)) => vec![Mismatch::new(MismatchKind::Body, "$", m)],
    }
}

fn parse_json<'c>(c: &'c BodyContent, which: &str) -> Result<Cow<'c, Value>, String> {
    match c {
        BodyContent::Json(v) => Ok(Cow::Borrowed(v)),
        other => serde_json::from_str(&text(other))
            .map(Cow::Owned)
            .map_err(|e| format!("The {which} body is not valid JSON: {e}")),
    }
}

fn bytes_of(c: &BodyContent) -> Cow<'_, [u8]> {
    match c {
        BodyContent::Bytes(b) => Cow::Borrowed(b.as_slice()),
        other => Cow::Owned(text(other).into_owned().into_bytes()),
    }
}

fn compare_text(expected: &str, actual: &str, rules: &Category) -> Vec<Mismatch> {
    let failure = match rules.select_best(&[]) {
        Some(list) => check_list(list, |r| check_str(r, expected, actual))
            .err()
            .map(|f| (f.message, Some(f.rule))),
        None if expected == actual => None,
        None => Some((
            format!("Expected body '{expected}' but received '{actual}'"),
            None,
        )),
    };
    failure
        .map(|(msg, rule)| {
            let mut m = Mismatch::new(MismatchKind::Body, "$", msg)
                .values(Some(expected.into()), Some(actual.into()));
            m.rule = rule;
            vec![m]
        })
        .unwrap_or_default()
}

fn compare_form(expected: &str, actual: &str, rules: &Category) -> Vec<Mismatch> {
    let e = parse_query_string(expected, false);
    let a = parse_query_string(actual, false);
    super::http::compare_params(&e, &a, Some(rules), MismatchKind::Body)
}

fn compare_bytes(ec: &BodyContent, ac: &BodyContent) -> Vec<Mismatch> {
    if bytes_of(ec) == bytes_of(ac) {
        return Vec::new();
    }
    let msg = format!(
        "Expected a body of {} bytes equal to the example but received {} different bytes",
        bytes_of(ec).len(),
        bytes_of(ac).len()
    );
    vec![Mismatch::new(MismatchKind::Body, "$", msg)]
}

/// A `contentType` rule at the root judges the actual content by its bytes.
fn content_type_rule(rules: &Category, ac: &BodyContent) -> Option<Vec<Mismatch>> {
    let list = rules.select_best(&[])?;
    let wanted = list.rules.iter().find_map(|r| match r {
        MatchingRule::ContentType(ct) => Some(ct),
        _ => None,
    })?;
    let ok = match ac {
        BodyContent::Json(_) => content_kind(wanted) == ContentKind::Json,
        BodyContent::Text(t) => sniff(t.as_bytes()) == content_kind(wanted),
        BodyContent::Bytes(b) => match magic(b) {
            Some(m) => m.eq_ignore_ascii_case(wanted),
            None => sniff(b) == content_kind(wanted),
        },
    };
    if ok {
        return Some(Vec::new());
    }
    let msg = format!("Expected the body to have content type '{wanted}'");
    let rule = format!("contentType '{wanted}'");
    Some(vec![Mismatch::new(MismatchKind::Body, "$", msg).rule(rule)])
}

/// Content types recognised by their first bytes.
fn magic(b: &[u8]) -> Option<&'static str> {
    const TABLE: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "image/png"),
        (b"\xff\xd8\xff", "image/jpeg"),
        (b"GIF8", "image/gif"),
        (b"%PDF-", "application/pdf"),
        (b"PK\x03\x04", "application/zip"),
    ];
    TABLE
        .iter()
        .find(|(m, _)| b.starts_with(m))
        .map(|(_, ct)| *ct)
}

#[cfg(test)]
mod tests {
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
        assert!(match_body(&png, &png, &cat, true).is_empty());
        assert_eq!(match_body(&png, &body(b"GIF89a..."), &cat, true).len(), 1);
    }
}
