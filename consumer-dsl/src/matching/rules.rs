//! Matching rules by category.
//!
//! PLACEHOLDER: keeps the JSON as written until the engine lands.

use serde_json::Value;

use crate::DslError;
use crate::model::PactSpec;

/// The matching rules of a request, response or message, by category
/// (`body`, `header`, `query`, `path`, `method`, `status`, `metadata`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MatchingRules {
    raw: Option<Value>,
}

impl MatchingRules {
    /// Parses the `matchingRules` attribute of a request/response/message of
    /// the given specification: V2's flat `{"$.body.x": {...}}` map or the
    /// V3/V4 categorised form.
    pub fn from_pact_json(value: &Value, spec: PactSpec) -> Result<Self, DslError> {
        let _ = spec;
        Ok(MatchingRules {
            raw: Some(value.clone()),
        })
    }

    /// The V4 JSON form.
    pub fn to_v4_json(&self) -> Value {
        self.raw
            .clone()
            .unwrap_or(Value::Object(Default::default()))
    }

    /// True when there is no rule in any category.
    pub fn is_empty(&self) -> bool {
        self.raw.is_none()
    }
}
