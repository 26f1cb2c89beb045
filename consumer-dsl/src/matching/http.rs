//! Requests and responses: method, path, query, headers, status and body.

use serde_json::Value;

use super::body::match_body;
use super::check::{check_json, check_size, check_str, judge, same};
use super::content_type::MediaType;
use super::mismatch::{Mismatch, MismatchKind};
use super::rule::MatchingRule;
use super::rules::{Category, MatchingRules, RuleList};
use crate::model::{Headers, HttpRequest, HttpResponse, PactSpec, Query};

/// Compares an actual request with an expected one (V2+ semantics; see
/// [`match_request_for`] for V1's order-sensitive query strings).
pub fn match_request(expected: &HttpRequest, actual: &HttpRequest) -> Vec<Mismatch> {
    match_request_for(expected, actual, PactSpec::V4)
}

/// Compares requests with the semantics of the given specification.
/// Unexpected body keys are refused: a provider must not be sent more
/// than the consumer said.
pub fn match_request_for(
    expected: &HttpRequest,
    actual: &HttpRequest,
    spec: PactSpec,
) -> Vec<Mismatch> {
    let rules = &expected.matching_rules;
    let mut out = Vec::new();
    if !expected.method.eq_ignore_ascii_case(&actual.method) {
        let msg = format!(
            "Expected method '{}' but received '{}'",
            expected.method, actual.method
        );
        out.push(Mismatch::new(MismatchKind::Method, "method", msg).values(
            Some(expected.method.as_str().into()),
            Some(actual.method.as_str().into()),
        ));
    }
    out.extend(match_path(&expected.path, &actual.path, rules));
    let empty = Query::new();
    let eq = expected.query.as_ref().unwrap_or(&empty);
    let aq = actual.query.as_ref().unwrap_or(&empty);
    out.extend(compare_params(
        eq,
        aq,
        rules.category("query"),
        MismatchKind::Query,
    ));
    if spec == PactSpec::V1 && out.iter().all(|m| m.kind != MismatchKind::Query) {
        out.extend(query_order(eq, aq));
    }
    out.extend(match_headers(
        expected.headers.as_ref(),
        actual.headers.as_ref(),
        rules,
    ));
    out.extend(body_mismatches(&expected.body, &actual.body, rules, false));
    out
}

/// Compares an actual response with an expected one. Unexpected body keys
/// are allowed (Postel's law).
pub fn match_response(expected: &HttpResponse, actual: &HttpResponse) -> Vec<Mismatch> {
    let rules = &expected.matching_rules;
    let mut out = match_status(expected.status, actual.status, rules);
    out.extend(match_headers(
        expected.headers.as_ref(),
        actual.headers.as_ref(),
        rules,
    ));
    out.extend(body_mismatches(&expected.body, &actual.body, rules, true));
    out
}

fn body_mismatches(
    expected: &crate::model::Body,
    actual: &crate::model::Body,
    rules: &MatchingRules,
    allow_unexpected: bool,
) -> Vec<Mismatch> {
    let empty = Category::default();
    match_body(
        expected,
        actual,
        rules.body().unwrap_or(&empty),
        allow_unexpected,
    )
}

fn match_status(expected: u16, actual: u16, rules: &MatchingRules) -> Vec<Mismatch> {
    let (e, a) = (Value::from(expected), Value::from(actual));
    let verdict = judge(
        rules.category("status").and_then(Category::root),
        |r| check_json(r, &e, &a),
        || {
            same(expected == actual, || {
                format!("Expected status {expected} but received {actual}")
            })
        },
    );
    let kind = MismatchKind::Status;
    verdict
        .err()
        .map(|f| Mismatch::failed(kind, "status", Some(e.clone()), Some(a.clone()), f))
        .into_iter()
        .collect()
}

fn match_path(expected: &str, actual: &str, rules: &MatchingRules) -> Vec<Mismatch> {
    let verdict = judge(
        rules.category("path").and_then(Category::root),
        |r| check_str(r, expected, actual),
        || {
            same(expected == actual, || {
                format!("Expected path '{expected}' but received '{actual}'")
            })
        },
    );
    let (e, a) = (Some(expected.into()), Some(actual.into()));
    verdict
        .err()
        .map(|f| Mismatch::failed(MismatchKind::Path, "path", e, a, f))
        .into_iter()
        .collect()
}

/// Compares multi-valued parameters (query strings, form bodies): every
/// expected name with its values in order, no unexpected names.
pub(super) fn compare_params(
    expected: &Query,
    actual: &Query,
    rules: Option<&Category>,
    kind: MismatchKind,
) -> Vec<Mismatch> {
    let noun = match kind {
        MismatchKind::Query => "query parameter",
        _ => "form post parameter",
    };
    let mut out = Vec::new();
    for (name, evs) in expected {
        let e = Some(evs.join("&").into());
        let Some(avs) = actual.get(name) else {
            let msg = format!("Expected {noun} '{name}' but was missing");
            out.push(Mismatch::new(kind, name.as_str(), msg).values(e, None));
            continue;
        };
        let verdict = judge(
            rules.and_then(|r| r.for_name(name, false)),
            |r| {
                values_size(r, avs)?;
                avs.iter().enumerate().try_for_each(|(i, av)| {
                    let ev = evs.get(i).or(evs.first()).map_or("", String::as_str);
                    check_str(r, ev, av)
                })
            },
            || values_equal(noun, name, evs, avs),
        );
        if let Err(f) = verdict {
            let a = Some(avs.join("&").into());
            out.push(Mismatch::failed(kind, name.as_str(), e, a, f));
        }
    }
    for (name, avs) in actual.iter().filter(|(n, _)| !expected.contains_key(*n)) {
        let msg = format!("Unexpected {noun} '{name}' received");
        out.push(Mismatch::new(kind, name.as_str(), msg).values(None, Some(avs.join("&").into())));
    }
    out
}

/// A `type` rule with `min`/`max` bounds the number of values of a query
/// parameter or header (pact-reference `compare_lists_with_matchingrule`,
/// `DoMatch<&[T]>`): `Expected [1] (size 1) to have minimum size of 2`.
fn values_size<S: AsRef<str>>(rule: &MatchingRule, values: &[S]) -> Result<(), String> {
    let MatchingRule::Type { min, max } = rule else {
        return Ok(());
    };
    check_size(values.len(), *min, *max, || {
        let shown: Vec<&str> = values.iter().map(AsRef::as_ref).collect();
        format!("[{}]", shown.join(", "))
    })
}

fn values_equal(noun: &str, name: &str, evs: &[String], avs: &[String]) -> Result<(), String> {
    if evs.len() != avs.len() {
        return Err(format!(
            "Expected {noun} '{name}' with {} value(s) {evs:?} but received {} {avs:?}",
            evs.len(),
            avs.len()
        ));
    }
    match evs.iter().zip(avs).find(|(e, a)| e != a) {
        Some((e, a)) => Err(format!(
            "Expected {noun} '{name}' with value '{e}' but was '{a}'"
        )),
        None => Ok(()),
    }
}

/// V1 compares query strings as strings: the parameter order counts.
fn query_order(expected: &Query, actual: &Query) -> Option<Mismatch> {
    if expected.keys().eq(actual.keys()) {
        return None;
    }
    let order = |q: &Query| q.keys().cloned().collect::<Vec<_>>().join("&");
    let msg = format!(
        "Expected the query parameters in the order '{}' but received '{}'",
        order(expected),
        order(actual)
    );
    Some(Mismatch::new(MismatchKind::Query, "query", msg))
}

/// Compares headers: names case-insensitively, values by their
/// comma-separated parts (whitespace ignored), `Content-Type` as a media
/// type whose expected parameters must be present; rules by header name.
pub fn match_headers(
    expected: Option<&Headers>,
    actual: Option<&Headers>,
    rules: &MatchingRules,
) -> Vec<Mismatch> {
    let rules = rules.category("header");
    let mut out = Vec::new();
    for (name, evs) in expected.into_iter().flatten() {
        let avs: Vec<&str> = actual
            .into_iter()
            .flatten()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .flat_map(|(_, v)| v.iter().map(String::as_str))
            .collect();
        let list = rules.and_then(|r| r.for_name(name, true));
        out.extend(match_header(name, evs, &avs, list));
    }
    out
}

/// One expected header against the actual values of the same name.
fn match_header(
    name: &str,
    evs: &[String],
    avs: &[&str],
    rules: Option<&RuleList>,
) -> Option<Mismatch> {
    let (ev, av) = (evs.join(", "), avs.join(", "));
    let kind = MismatchKind::Header;
    if avs.is_empty() {
        let msg = format!("Expected a header '{name}' but was missing");
        return Some(Mismatch::new(kind, name, msg).values(Some(ev.into()), None));
    }
    // A rule judges each actual value, against the expected value at the
    // same index or the first (pact-reference `match_header_maps` with
    // `compare_lists_with_matchingrules`).
    let verdict = judge(
        rules,
        |r| {
            values_size(r, avs)?;
            avs.iter().enumerate().try_for_each(|(i, av)| {
                let ev = evs.get(i).or(evs.first()).map_or("", String::as_str);
                check_str(r, ev, av.trim())
            })
        },
        || {
            same(header_equal(name, &ev, &av), || {
                format!("Expected header '{name}' to have value '{ev}' but was '{av}'")
            })
        },
    );
    let (e, a) = (Some(ev.into()), Some(av.into()));
    verdict.err().map(|f| Mismatch::failed(kind, name, e, a, f))
}

fn header_equal(name: &str, expected: &str, actual: &str) -> bool {
    if name.eq_ignore_ascii_case("content-type") {
        return MediaType::parse(expected).accepts(&MediaType::parse(actual));
    }
    if name.eq_ignore_ascii_case("accept") && expected.contains('/') && actual.contains('/') {
        let types = |s: &str| s.split(',').map(MediaType::parse).collect::<Vec<_>>();
        let (e, a) = (types(expected), types(actual));
        return e.len() == a.len() && e.iter().zip(&a).all(|(e, a)| e.accepts(a));
    }
    let parts = |s: &str| {
        s.split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    parts(expected) == parts(actual)
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
