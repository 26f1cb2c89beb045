//! Expected parts against actual ones: pure, so every rule is a unit test.
//!
//! | the expected part | the actual part | finding |
//! | --- | --- | --- |
//! | `data` (JSON) | `text`, `url` or `raw` (prose where JSON was promised) | CONTENT_MODE_MISMATCH (schema), alone |
//! | a `mediaType` | another media type (its `mediaType`, else `text/plain` for text, `application/json` for data) | CONTENT_MODE_MISMATCH (schema) |
//! | a `schema` | `data` the JSON Schema 2020-12 refuses | OUTPUT_SCHEMA_VIOLATION (schema), at the value's path |
//! | the example under its rules | another value | RESPONSE_MISMATCH (schema), where the schema did not already refuse |
//!
//! Each expected part must be matched by a distinct actual part; when no
//! actual part matches, the closest one's findings are reported.

use accord_dsl::model::accord::{PartContent, PartExpectation};
use serde_json::{Map, Value, json};

use super::events::whole_numbers;
use crate::finding::{Finding, Layer, codes};
use crate::mcp::schemas::pointer_to_path;

/// The content key of a part (`text`, `data`, `url`, `raw`).
pub fn kind_of(part: &Value) -> Option<&'static str> {
    ["text", "data", "url", "raw"]
        .into_iter()
        .find(|k| part.get(*k).is_some())
}

fn expected_kind(content: &PartContent) -> &'static str {
    match content {
        PartContent::Text(_) => "text",
        PartContent::Data(_) => "data",
        PartContent::Url(_) => "url",
        PartContent::Raw(_) => "raw",
    }
}

/// A part's media type: its `mediaType`, else what its kind implies.
pub fn mode_of(part: &Value) -> Option<String> {
    match part.get("mediaType").and_then(Value::as_str) {
        Some(m) if !m.is_empty() => Some(m.to_owned()),
        _ => match kind_of(part) {
            Some("text") => Some("text/plain".into()),
            Some("data") => Some("application/json".into()),
            _ => None,
        },
    }
}

/// Whether media type `got` is `want` (parameters and case aside;
/// `*/*` and `type/*` in `want` match their range). A mode written
/// without a slash, as many cards do (`"text"`, `"json"`), names a type
/// (`text` is `text/*`) or a subtype (`json` is `*/json`).
pub fn same_mode(want: &str, got: &str) -> bool {
    let base = |m: &str| {
        m.split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    };
    let (want, got) = (base(want), base(got));
    let (kind, sub) = got.split_once('/').unwrap_or((got.as_str(), ""));
    want == got
        || want == "*/*"
        || want.strip_suffix("/*").is_some_and(|range| kind == range)
        || (!want.contains('/') && (want == kind || want == sub))
}

/// One expected part against one actual part; `at` names the part
/// (`steps[2].artifact.parts[0]`).
pub fn judge_part(expected: &PartExpectation, actual: &Value, at: &str) -> Vec<Finding> {
    let want = expected_kind(&expected.content);
    let got = kind_of(actual);
    if got != Some(want) {
        let shown = preview(actual);
        let detail = format!(
            "expected a {want} part, got {}: {shown}",
            got.map_or("a part without content".to_owned(), |g| format!(
                "a {g} part"
            ))
        );
        return vec![
            Finding::new(Layer::Schema, codes::CONTENT_MODE_MISMATCH, at, detail)
                .values(Some(json!(want)), got.map(|g| json!(g))),
        ];
    }
    let mut out = Vec::new();
    if let Some(mode) = &expected.media_type {
        let actual_mode = mode_of(actual).unwrap_or_default();
        if !same_mode(mode, &actual_mode) {
            let detail = format!("expected media type {mode}, got {actual_mode}");
            out.push(
                Finding::new(
                    Layer::Schema,
                    codes::CONTENT_MODE_MISMATCH,
                    format!("{at}.mediaType"),
                    detail,
                )
                .values(Some(json!(mode)), Some(json!(actual_mode))),
            );
        }
    }
    let mut refused = Vec::new();
    if let (Some(schema), Some(data)) = (&expected.schema, actual.get("data")) {
        refused = schema_findings(schema, data, &format!("{at}.data"));
    }
    let taken: Vec<String> = refused.iter().map(|f| f.path.clone()).collect();
    out.extend(refused);
    // numbers as sent (`3.0` under a decimal rule) and whole doubles as
    // integers (`3.0` where the consumer wrote `3` or `$integer`): the
    // reading that agrees more is the one judged
    let as_sent = examples(expected, actual, at);
    let mismatches = if as_sent.is_empty() {
        as_sent
    } else {
        let whole = examples(expected, &whole_numbers(actual), at);
        if whole.len() < as_sent.len() {
            whole
        } else {
            as_sent
        }
    };
    out.extend(
        mismatches
            .into_iter()
            .filter(|f| !taken.iter().any(|t| f.path.starts_with(t.as_str()))),
    );
    out
}

/// `data` against the consumer's JSON Schema (the loader refuses a
/// contract whose schema does not compile).
fn schema_findings(schema: &Value, data: &Value, at: &str) -> Vec<Finding> {
    let Ok(validator) = accord_dsl::schema::compile(schema) else {
        return Vec::new();
    };
    validator
        .iter_errors(data)
        .take(20)
        .map(|error| {
            let path = format!(
                "{at}{}",
                pointer_to_path(&error.instance_path().to_string())
            );
            Finding::new(
                Layer::Schema,
                codes::OUTPUT_SCHEMA_VIOLATION,
                path,
                error.to_string(),
            )
            .values(Some(json!(error.schema_path().to_string())), None)
        })
        .collect()
}

/// The example (and `filename`) under the part's rules, rooted at the part.
fn examples(expected: &PartExpectation, actual: &Value, at: &str) -> Vec<Finding> {
    let mut want = Map::new();
    let (key, example) = match &expected.content {
        PartContent::Text(t) => ("text", json!(t)),
        PartContent::Data(d) => ("data", d.clone()),
        PartContent::Url(u) => ("url", json!(u)),
        PartContent::Raw(r) => ("raw", json!(r)),
    };
    want.insert(key.into(), example);
    if let Some(f) = &expected.filename {
        want.insert("filename".into(), json!(f));
    }
    crate::body::match_keys(want, actual, &expected.rules)
        .iter()
        .map(|m| {
            let mut f = Finding::from_mismatch(m);
            f.path = format!("{at}{}", m.path.trim_start_matches('$'));
            f
        })
        .collect()
}

/// Expected parts against actual ones, each matched by a distinct part.
pub fn judge_parts(expected: &[PartExpectation], actual: &[Value], at: &str) -> Vec<Finding> {
    let mut used = vec![false; actual.len()];
    let mut out = Vec::new();
    for (j, want) in expected.iter().enumerate() {
        let here = format!("{at}[{j}]");
        let mut best: Option<(usize, Vec<Finding>)> = None;
        for (i, got) in actual.iter().enumerate().filter(|(i, _)| !used[*i]) {
            let found = judge_part(want, got, &here);
            if best.as_ref().is_none_or(|(_, b)| found.len() < b.len()) {
                best = Some((i, found));
            }
            if best.as_ref().is_some_and(|(_, b)| b.is_empty()) {
                break;
            }
        }
        match best {
            Some((i, found)) => {
                used[i] = true;
                out.extend(found);
            }
            None => {
                let detail = format!(
                    "expected part {j} has no actual part left to match ({} parts)",
                    actual.len()
                );
                out.push(Finding::new(
                    Layer::Schema,
                    codes::RESPONSE_MISMATCH,
                    here,
                    detail,
                ));
            }
        }
    }
    out
}

/// A short, single-line view of a part for a detail sentence.
pub fn preview(part: &Value) -> String {
    let text = part.to_string();
    let mut short: String = text.chars().take(80).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
#[path = "parts_tests.rs"]
mod tests;
