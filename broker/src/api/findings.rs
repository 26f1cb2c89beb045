//! Accord's layered findings inside a verification result: which contract
//! layer broke, with a stable reason code, on which interaction, and why.
//! Wire type and validation; stored as a JSON array on the verification.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{BrokerError, FieldError};

/// The contract layers a finding can name (DESIGN.md, "Checks, layers and
/// reason codes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Declaration,
    Schema,
    Protocol,
    Authorization,
    Behavior,
    Temporal,
    /// W3C trace context downstream (TRACE_CONTEXT_BROKEN, TRACE_ID_REUSED).
    Trace,
    Compatibility,
}

/// One finding as sent and as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Finding {
    pub layer: Layer,
    pub reason_code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interaction_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interaction_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub expected: Option<Value>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub actual: Option<Value>,
    /// Fields the consumer relies on that the answer or declaration lacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<Vec<String>>,
    /// Fields the answer carries where the contract allows none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unexpected: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Most names a finding's `missing` or `unexpected` may list (the
/// verifier keeps 32 and a count of the rest).
pub const MAX_NAMES: usize = 64;

/// Longest name in `missing` or `unexpected`, in bytes (the verifier
/// bounds a name at 2 KiB and a note of what it left out).
pub const MAX_NAME_BYTES: usize = 2100;

/// A present value, `null` included (an expected `null` is a fact).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// `^[A-Z][A-Z0-9_]*$`: reason codes are stable identifiers.
pub fn is_reason_code(code: &str) -> bool {
    let mut bytes = code.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_uppercase())
        && bytes.all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Checks what serde cannot: every reason code's shape, and the field
/// names a finding lists as bounded text.
pub fn validate(findings: &[Finding]) -> Result<(), BrokerError> {
    let mut errors: Vec<FieldError> = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        if !is_reason_code(&f.reason_code) {
            errors.push(FieldError::new(
                format!("$.findings[{i}].reasonCode"),
                "must match ^[A-Z][A-Z0-9_]*$",
            ));
        }
        for (key, names) in [("missing", &f.missing), ("unexpected", &f.unexpected)] {
            let at = format!("$.findings[{i}].{key}");
            errors.extend(names.as_deref().and_then(|n| bad_names(&at, n)));
        }
    }
    match errors.first() {
        None => Ok(()),
        Some(first) => Err(BrokerError::BadRequest {
            detail: format!("{}: {}", first.field, first.message),
            errors,
        }),
    }
}

/// The first fault of a list of field names: too many, too long, empty,
/// or holding a control character.
fn bad_names(at: &str, names: &[String]) -> Option<FieldError> {
    if names.len() > MAX_NAMES {
        return Some(FieldError::new(
            at,
            format!("must list at most {MAX_NAMES} names"),
        ));
    }
    let (j, why) = names.iter().enumerate().find_map(|(j, n)| {
        let why = if n.is_empty() {
            "must not be empty"
        } else if n.len() > MAX_NAME_BYTES {
            "must be at most 2100 bytes"
        } else if n.chars().any(char::is_control) {
            "must not hold control characters"
        } else {
            return None;
        };
        Some((j, why))
    })?;
    Some(FieldError::new(format!("{at}[{j}]"), why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_codes_are_upper_snake_case() {
        assert!(is_reason_code("RESPONSE_MISMATCH"));
        assert!(is_reason_code("A2"));
        assert!(!is_reason_code("response_mismatch"));
        assert!(!is_reason_code("_X"));
        assert!(!is_reason_code("2X"));
        assert!(!is_reason_code(""));
    }

    #[test]
    fn the_trace_layer_is_accepted() {
        let findings: Vec<Finding> = serde_json::from_value(serde_json::json!([
            {"layer": "trace", "reasonCode": "TRACE_CONTEXT_BROKEN"}
        ]))
        .expect("the trace layer is a layer");
        assert!(validate(&findings).is_ok());
        assert_eq!(findings[0].layer, Layer::Trace);
    }

    #[test]
    fn a_bad_reason_code_is_reported_with_its_index() {
        let findings: Vec<Finding> = serde_json::from_value(serde_json::json!([
            {"layer": "schema", "reasonCode": "RESPONSE_MISMATCH"},
            {"layer": "temporal", "reasonCode": "late"}
        ]))
        .expect("wire form");
        let err = validate(&findings).expect_err("refused");
        assert_eq!(
            err.body()["errors"]["$.findings[1].reasonCode"][0],
            "must match ^[A-Z][A-Z0-9_]*$"
        );
    }

    #[test]
    fn missing_and_unexpected_names_round_trip_and_are_bounded() {
        let f: Finding = serde_json::from_value(serde_json::json!(
            {"layer": "schema", "reasonCode": "RESPONSE_MISMATCH", "missing": ["priority"], "unexpected": ["debug"]}
        ))
        .expect("wire form");
        assert!(validate(std::slice::from_ref(&f)).is_ok());
        let back = serde_json::to_value(&f).expect("json");
        assert_eq!(back["missing"], serde_json::json!(["priority"]));
        assert_eq!(back["unexpected"], serde_json::json!(["debug"]));
        let bad = |v: serde_json::Value| {
            let f: Finding = serde_json::from_value(v).expect("wire form");
            let err = validate(&[f]).expect_err("refused");
            err.body()["errors"].clone()
        };
        let nul = bad(
            serde_json::json!({"layer": "schema", "reasonCode": "X", "missing": ["a", "b\u{0}"]}),
        );
        assert!(nul.get("$.findings[0].missing[1]").is_some(), "{nul}");
        let many: Vec<String> = (0..=MAX_NAMES).map(|i| format!("k{i}")).collect();
        let over =
            bad(serde_json::json!({"layer": "schema", "reasonCode": "X", "unexpected": many}));
        assert!(over.get("$.findings[0].unexpected").is_some(), "{over}");
        let long = "k".repeat(MAX_NAME_BYTES + 1);
        let long =
            bad(serde_json::json!({"layer": "schema", "reasonCode": "X", "missing": [long]}));
        assert!(long.get("$.findings[0].missing[0]").is_some(), "{long}");
    }

    #[test]
    fn a_finding_round_trips_keeping_null_and_dropping_absent_fields() {
        let f: Finding = serde_json::from_value(serde_json::json!(
            {"layer": "authorization", "reasonCode": "CROSS_TENANT_ACCESS", "expected": null, "detail": "x"}
        ))
        .expect("wire form");
        assert_eq!(
            serde_json::to_value(&f).expect("json"),
            serde_json::json!({"layer": "authorization", "reasonCode": "CROSS_TENANT_ACCESS", "expected": null, "detail": "x"})
        );
    }
}
