//! Bodies: absent, null and empty bodies, then the comparator the content
//! type calls for (JSON, XML, form, text, bytes).

use std::borrow::Cow;

use serde_json::Value;

use super::check::{check_list, check_str, judge, same};
use super::content_type::{ContentKind, content_kind, content_type_fits, detect, sniff};
use super::json::JsonMatcher;
use super::mismatch::{Mismatch, MismatchKind};
use super::multipart::{boundary, match_multipart};
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
        (Body::Present { .. }, None) => empty_actual(actual, rules),
        (Body::Present { content, .. }, Some(ac)) => {
            let e = Side::new(content, expected.content_type());
            let a = Side::new(ac, actual.content_type());
            compare_present(&e, &a, rules, allow_unexpected)
        }
        (Body::Null, Some(_)) => Vec::new(),
    }
}

/// One present body: its content, comparator and content type as named
/// in messages (declared, or the usual one for the detected kind).
struct Side<'a> {
    content: &'a BodyContent,
    kind: ContentKind,
    content_type: Cow<'a, str>,
}

impl<'a> Side<'a> {
    fn new(content: &'a BodyContent, declared: Option<&'a str>) -> Self {
        let kind = kind_of(content, declared);
        let content_type = match (declared, kind) {
            (Some(ct), _) => Cow::Borrowed(ct),
            (None, ContentKind::Json) => "application/json".into(),
            (None, ContentKind::Xml) => "application/xml".into(),
            (None, ContentKind::Text) => "text/plain".into(),
            (None, ContentKind::Form) => "application/x-www-form-urlencoded".into(),
            (None, ContentKind::Binary) => "application/octet-stream".into(),
        };
        Side {
            content,
            kind,
            content_type,
        }
    }

    /// `[image/jpeg, 30922 bytes, starting with ffd8…]`, as pact-reference
    /// describes binary bodies.
    fn summary(&self) -> String {
        let bytes = bytes_of(self.content);
        let head = bytes.get(..32).unwrap_or(&bytes);
        let len = bytes.len();
        format!(
            "[{}, {len} bytes, starting with {}]",
            self.content_type,
            hex::encode(head)
        )
    }
}

/// An expected body met an absent or empty one: root rules (`notEmpty`)
/// say why if they can, otherwise the body is missing.
fn empty_actual(actual: &Body, rules: &Category) -> Vec<Mismatch> {
    if let Body::Present { content, .. } = actual {
        let side = Side::new(content, actual.content_type());
        if let Some(m) = root_rules(rules, &side).filter(|m| !m.is_empty()) {
            return m;
        }
    }
    let msg = "Expected a body but it was missing";
    vec![Mismatch::new(MismatchKind::Body, "$", msg)]
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

fn text(c: &BodyContent) -> Cow<'_, str> {
    match c {
        BodyContent::Text(t) => Cow::Borrowed(t),
        BodyContent::Bytes(b) => String::from_utf8_lossy(b),
        BodyContent::Json(Value::String(s)) => Cow::Borrowed(s),
        BodyContent::Json(v) => Cow::Owned(v.to_string()),
    }
}

fn compare_present(e: &Side<'_>, a: &Side<'_>, rules: &Category, allow: bool) -> Vec<Mismatch> {
    if let Some(m) = root_rules(rules, a) {
        return m;
    }
    let boundaries = (boundary(&e.content_type), boundary(&a.content_type));
    if let (Some(eb), Some(ab)) = boundaries {
        let (ebytes, abytes) = (bytes_of(e.content), bytes_of(a.content));
        return match_multipart((&ebytes, &eb), (&abytes, &ab), rules, allow);
    }
    if e.kind != a.kind && !(is_textual(e.kind) && is_textual(a.kind)) {
        let msg = format!(
            "Expected a body of '{}' but the actual content type was '{}'",
            e.content_type, a.content_type
        );
        return vec![Mismatch::new(MismatchKind::BodyType, "$", msg)];
    }
    let (ec, ac) = (e.content, a.content);
    match e.kind {
        ContentKind::Json => compare_json(ec, ac, rules, allow),
        ContentKind::Xml => match_xml(&text(ec), &text(ac), rules, allow),
        ContentKind::Form => compare_form(&text(ec), &text(ac), rules),
        ContentKind::Text => compare_text(&text(ec), &text(ac), rules),
        ContentKind::Binary => compare_bytes(e, a),
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
    let verdict = judge(
        rules.select_best(&[]),
        |r| check_str(r, expected, actual),
        || {
            same(expected == actual, || {
                format!(
                    "Expected body '{expected}' to match '{actual}' using equality but did not match"
                )
            })
        },
    );
    let (e, a) = (Some(expected.into()), Some(actual.into()));
    verdict
        .err()
        .map(|f| Mismatch::failed(MismatchKind::Body, "$", e, a, f))
        .into_iter()
        .collect()
}

fn compare_form(expected: &str, actual: &str, rules: &Category) -> Vec<Mismatch> {
    let e = parse_query_string(expected, false);
    let a = parse_query_string(actual, false);
    super::http::compare_params(&e, &a, Some(rules), MismatchKind::Body)
}

fn compare_bytes(e: &Side<'_>, a: &Side<'_>) -> Vec<Mismatch> {
    if bytes_of(e.content) == bytes_of(a.content) {
        return Vec::new();
    }
    let msg = format!(
        "Actual body {} is not equal to the expected body {}",
        a.summary(),
        e.summary()
    );
    vec![Mismatch::new(MismatchKind::Body, "$", msg)]
}

/// Rules at the root of a binary body (or a `contentType` rule on any
/// body) judge the whole content: `contentType` by its detected type,
/// `notEmpty` by its length, others on its text.
fn root_rules(rules: &Category, a: &Side<'_>) -> Option<Vec<Mismatch>> {
    let list = rules.select_best(&[])?;
    let has_ct = list
        .rules
        .iter()
        .any(|r| matches!(r, MatchingRule::ContentType(_)));
    if a.kind != ContentKind::Binary && !has_ct {
        return None;
    }
    let bytes = bytes_of(a.content);
    let verdict = check_list(list, |r| match r {
        MatchingRule::ContentType(wanted) => {
            let detected = detect(&bytes);
            same(content_type_fits(wanted, detected), || {
                format!(
                    "Expected binary contents to have content type '{wanted}' but detected contents was '{detected}'"
                )
            })
        }
        MatchingRule::NotEmpty => same(!bytes.is_empty(), || {
            format!("Expected [] ({} bytes) to not be empty", bytes.len())
        }),
        other => check_str(other, "", &String::from_utf8_lossy(&bytes)),
    });
    let mismatch = verdict
        .err()
        .map(|f| Mismatch::new(MismatchKind::Body, "$", f.message).rule(f.rule));
    Some(mismatch.into_iter().collect())
}

#[cfg(test)]
#[path = "body_tests.rs"]
mod tests;
