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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

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

/// Checks what serde cannot: every reason code's shape.
pub fn validate(findings: &[Finding]) -> Result<(), BrokerError> {
    let errors: Vec<FieldError> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| !is_reason_code(&f.reason_code))
        .map(|(i, _)| {
            FieldError::new(
                format!("$.findings[{i}].reasonCode"),
                "must match ^[A-Z][A-Z0-9_]*$",
            )
        })
        .collect();
    match errors.first() {
        None => Ok(()),
        Some(first) => Err(BrokerError::BadRequest {
            detail: format!("{}: {}", first.field, first.message),
            errors,
        }),
    }
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
