//! Mismatches: what differs between an expected and an actual value.
//! They are data, not errors.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

/// The part of a request, response or message a mismatch is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MismatchKind {
    Method,
    Path,
    Query,
    Header,
    Body,
    /// The body's content type differs (e.g. JSON expected, XML received).
    #[serde(rename = "body-content-type")]
    BodyType,
    Status,
    Metadata,
}

impl MismatchKind {
    /// Lower-case name, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            MismatchKind::Method => "method",
            MismatchKind::Path => "path",
            MismatchKind::Query => "query",
            MismatchKind::Header => "header",
            MismatchKind::Body => "body",
            MismatchKind::BodyType => "body-content-type",
            MismatchKind::Status => "status",
            MismatchKind::Metadata => "metadata",
        }
    }
}

/// One difference between expected and actual.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    pub kind: MismatchKind,
    /// Where: a JSON path such as `$.items[0].id` for bodies, the header,
    /// parameter or metadata name otherwise.
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// The rule that failed, if a rule decided (`regex '\d+'`, `type`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The keys named as missing or not expected, on a mismatch of an
    /// object's keys (boxed: most mismatches have none).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub keys: Option<Box<KeyNames>>,
    /// A readable sentence.
    pub message: String,
}

/// The keys an object's mismatch names, sorted.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct KeyNames {
    /// Expected keys the actual object lacks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// Keys of the actual object that are not expected, where none may be.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unexpected: Vec<String>,
}

impl Mismatch {
    /// A mismatch without a rule.
    pub fn new(kind: MismatchKind, path: impl Into<String>, message: impl Into<String>) -> Self {
        Mismatch {
            kind,
            path: path.into(),
            expected: None,
            actual: None,
            rule: None,
            keys: None,
            message: message.into(),
        }
    }

    /// With the expected and actual values.
    pub fn values(mut self, expected: Option<Value>, actual: Option<Value>) -> Self {
        self.expected = expected;
        self.actual = actual;
        self
    }

    /// A mismatch from a failed judgement (sentence and optional rule).
    pub fn failed(
        kind: MismatchKind,
        path: impl Into<String>,
        expected: Option<Value>,
        actual: Option<Value>,
        (message, rule): (String, Option<String>),
    ) -> Self {
        Mismatch {
            rule,
            ..Mismatch::new(kind, path, message).values(expected, actual)
        }
    }

    /// Expected keys the actual object lacks (none on most mismatches).
    pub fn missing(&self) -> &[String] {
        self.keys.as_deref().map_or(&[], |k| &k.missing)
    }

    /// Keys not expected where none may be (none on most mismatches).
    pub fn unexpected(&self) -> &[String] {
        self.keys.as_deref().map_or(&[], |k| &k.unexpected)
    }

    /// With the rule that decided.
    pub fn rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.kind.as_str(), self.path, self.message)
    }
}

/// A value as quoted in messages: strings in single quotes, JSON otherwise,
/// with the JSON type in parentheses (`'x' (String)`), shortened if long.
pub fn describe(v: &Value) -> String {
    let text = match v {
        Value::String(s) => format!("'{}'", shorten(s)),
        other => shorten(&other.to_string()),
    };
    format!("{text} ({})", type_name(v))
}

/// The JSON type of a value, as named in messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "Null",
        Value::Bool(_) => "Boolean",
        Value::Number(n) if n.is_f64() => "Decimal",
        Value::Number(_) => "Integer",
        Value::String(_) => "String",
        Value::Array(_) => "Array",
        Value::Object(_) => "Object",
    }
}

fn shorten(s: &str) -> String {
    const MAX: usize = 80;
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", s.get(..cut).unwrap_or(s)),
        None => s.to_string(),
    }
}

/// The one mismatch of a map whose keys differ from the expected ones:
/// the expected keys as the expected value, the actual keys as the actual
/// value, the keys that are missing and those not expected as `missing`
/// and `unexpected`, and a sentence that names them (pact-reference's,
/// then "`priority` is missing").
pub(super) fn key_set_mismatch(
    kind: MismatchKind,
    path: String,
    em: &Map<String, Value>,
    am: &Map<String, Value>,
    missing: &[&str],
    unexpected: &[&str],
) -> Mismatch {
    let head = if em.is_empty() {
        format!(
            "Expected an empty Map but received {}",
            Value::Object(am.clone())
        )
    } else {
        format!(
            "Expected a Map with keys [{}] but received one with keys [{}]",
            sorted_keys(em),
            sorted_keys(am)
        )
    };
    let sorted = |keys: &mut dyn Iterator<Item = &str>| {
        let mut keys: Vec<String> = keys.map(str::to_owned).collect();
        keys.sort_unstable();
        keys
    };
    let missing = sorted(&mut missing.iter().copied());
    let unexpected = sorted(&mut unexpected.iter().copied());
    let mut named = Vec::new();
    for (keys, one, many) in [
        (&missing, "is missing", "are missing"),
        (&unexpected, "is not expected", "are not expected"),
    ] {
        if keys.is_empty() {
            continue;
        }
        let list: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        let verb = if keys.len() == 1 { one } else { many };
        named.push(format!("{} {verb}", list.join(", ")));
    }
    let expected = sorted(&mut em.keys().map(String::as_str));
    let actual = sorted(&mut am.keys().map(String::as_str));
    Mismatch {
        keys: Some(Box::new(KeyNames {
            missing,
            unexpected,
        })),
        ..Mismatch::new(kind, path, format!("{head}: {}", named.join("; ")))
            .values(Some(Value::from(expected)), Some(Value::from(actual)))
    }
}

fn sorted_keys(m: &Map<String, Value>) -> String {
    let mut keys: Vec<&str> = m.keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys.join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_are_described_with_their_type() {
        assert_eq!(describe(&json!("x")), "'x' (String)");
        assert_eq!(describe(&json!(1)), "1 (Integer)");
        assert_eq!(describe(&json!(1.5)), "1.5 (Decimal)");
        assert_eq!(describe(&json!(null)), "null (Null)");
        let long = "y".repeat(200);
        assert!(describe(&json!(long)).chars().count() < 100);
    }

    #[test]
    fn mismatch_displays_kind_path_and_sentence() {
        let m = Mismatch::new(MismatchKind::Body, "$.a", "Expected 1 but received 2");
        assert_eq!(m.to_string(), "body $.a: Expected 1 but received 2");
    }
}
