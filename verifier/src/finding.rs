//! Findings: one broken expectation, on one contract layer, with a stable
//! reason code (catalogue in `../shared/DESIGN.md`). What a finding quotes
//! of the provider is bounded where it is made (`crate::excerpt`).

use serde::Serialize;
use serde_json::Value;

pub use crate::excerpt::{Quote, Text};

/// The contract layer a finding is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Declaration,
    Schema,
    Protocol,
    Authorization,
    Behavior,
    Temporal,
    /// W3C trace context on the provider's downstream calls.
    Trace,
    /// A declaration that no longer promises what the consumer relies on
    /// (a tool's schemas and annotations against `mcpTools`).
    Compatibility,
}

impl Layer {
    /// Lower-case name, as printed and published.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Declaration => "declaration",
            Layer::Schema => "schema",
            Layer::Protocol => "protocol",
            Layer::Authorization => "authorization",
            Layer::Behavior => "behavior",
            Layer::Temporal => "temporal",
            Layer::Trace => "trace",
            Layer::Compatibility => "compatibility",
        }
    }
}

pub mod codes;

/// One broken expectation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub layer: Layer,
    /// Stable reason code (see [`codes`]).
    pub reason_code: &'static str,
    /// Where: a JSON path, a header name, `status`, a counter name, …
    /// (bounded where it is made: a provider's key may be part of it).
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Quote>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Quote>,
    /// Fields the consumer relies on that the provider's answer or
    /// declaration lacks, by name (`["priority"]`), bounded by [`names`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// Fields the answer carries where the contract allows none, by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unexpected: Vec<String>,
    /// A readable sentence.
    pub detail: Text,
    /// Pact's mismatch attribute (`body`, `status`, `header`, …) when the
    /// finding comes from the matcher; kept for Pact's `testResults` form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pact_attribute: Option<&'static str>,
}

impl Finding {
    /// A finding without expected/actual values.
    pub fn new(
        layer: Layer,
        reason_code: &'static str,
        path: impl Into<String>,
        detail: impl Into<String>,
    ) -> Self {
        Finding {
            layer,
            reason_code,
            path: Text::from(path.into()).into(),
            expected: None,
            actual: None,
            missing: Vec::new(),
            unexpected: Vec::new(),
            detail: Text::from(detail.into()),
            pact_attribute: None,
        }
    }

    /// With expected and actual values.
    pub fn values(mut self, expected: Option<Value>, actual: Option<Value>) -> Self {
        self.expected = expected.map(Quote::from);
        self.actual = actual.map(Quote::from);
        self
    }

    /// With the fields that are missing and those not expected, by name.
    pub fn keys<S: AsRef<str>>(mut self, missing: &[S], unexpected: &[S]) -> Self {
        self.missing = names(missing);
        self.unexpected = names(unexpected);
        self
    }

    /// A matcher mismatch as a schema-layer `RESPONSE_MISMATCH`.
    pub fn from_mismatch(m: &accord_dsl::matching::Mismatch) -> Self {
        Finding {
            pact_attribute: Some(m.kind.as_str()),
            ..Finding::new(Layer::Schema, codes::RESPONSE_MISMATCH, &m.path, &m.message)
                .values(m.expected.clone(), m.actual.clone())
                .keys(m.missing(), m.unexpected())
        }
    }

    /// "`priority` is missing; `debug` is not expected", or nothing when
    /// the finding names no field.
    pub fn named_keys(&self) -> Option<String> {
        let mut said = Vec::new();
        for (keys, one, many) in [
            (&self.missing, "is missing", "are missing"),
            (&self.unexpected, "is not expected", "are not expected"),
        ] {
            if keys.is_empty() {
                continue;
            }
            let list: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            let verb = if keys.len() == 1 { one } else { many };
            said.push(format!("{} {verb}", list.join(", ")));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }
}

/// Most field names a finding lists as missing or unexpected; more are
/// counted in a last entry (`… (3 more)`).
pub const MAX_NAMES: usize = 32;

/// Field names as a finding keeps them: at most [`MAX_NAMES`], each
/// bounded like a [`Text`], control characters written as escapes (a
/// provider's key may hold any).
pub fn names<S: AsRef<str>>(keys: &[S]) -> Vec<String> {
    let mut out: Vec<String> = keys
        .iter()
        .take(MAX_NAMES)
        .map(|k| {
            let k = k.as_ref();
            let plain: String = if k.chars().any(char::is_control) {
                k.chars()
                    .flat_map(|c| match c.is_control() {
                        true => c.escape_default().collect::<Vec<char>>(),
                        false => vec![c],
                    })
                    .collect()
            } else {
                k.to_owned()
            };
            Text::from(plain).into()
        })
        .collect();
    if keys.len() > MAX_NAMES {
        out.push(format!("… ({} more)", keys.len() - MAX_NAMES));
    }
    out
}

#[cfg(test)]
mod tests {
    use accord_dsl::matching::{Mismatch, MismatchKind};
    use serde_json::json;

    use super::*;

    #[test]
    fn a_mismatch_becomes_a_schema_finding_keeping_its_pact_attribute() {
        let m = Mismatch::new(MismatchKind::Body, "$.id", "Expected 1 but received 2")
            .values(Some(json!(1)), Some(json!(2)));
        let f = Finding::from_mismatch(&m);
        assert_eq!(f.layer, Layer::Schema);
        assert_eq!(f.reason_code, "RESPONSE_MISMATCH");
        assert_eq!(f.pact_attribute, Some("body"));
        assert_eq!(f.path, "$.id");
        assert_eq!(f.actual.as_deref(), Some(&json!(2)));
        assert!(f.named_keys().is_none());
    }

    #[test]
    fn a_missing_field_is_data_and_named_in_words() {
        let m = accord_dsl::matching::match_json(
            &json!({"labels": [], "priority": "high", "ticket_id": 1}),
            &json!({"labels": [], "ticket_id": 1}),
            &Default::default(),
            true,
        );
        let f = Finding::from_mismatch(&m[0]);
        assert_eq!(f.missing, ["priority"]);
        let wire = serde_json::to_value(&f).expect("json");
        assert_eq!(wire["missing"], json!(["priority"]));
        assert!(wire.get("unexpected").is_none(), "{wire}");
        assert_eq!(wire["expected"], json!(["labels", "priority", "ticket_id"]));
        assert_eq!(wire["actual"], json!(["labels", "ticket_id"]));
        assert_eq!(f.named_keys().as_deref(), Some("`priority` is missing"));
        let two = f.keys(&["a", "b"], &["c\u{0}"]);
        assert_eq!(
            two.named_keys().as_deref(),
            Some("`a`, `b` are missing; `c\\u{0}` is not expected")
        );
    }

    #[test]
    fn names_are_bounded_in_count_and_size() {
        let many: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        let kept = names(&many);
        assert_eq!(kept.len(), MAX_NAMES + 1);
        assert_eq!(kept.last().map(String::as_str), Some("… (8 more)"));
        let long = "x".repeat(5000);
        assert!(names(&[long])[0].len() < 2100);
    }
}
