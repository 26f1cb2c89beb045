//! Generators: values produced at replay time instead of the example.
//!
//! PLACEHOLDER: being written (issue 2, model part).

use serde_json::Value;

use crate::DslError;

/// The generators of a request, response or message, by category.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Generators {
    raw: Option<Value>,
}

impl Generators {
    /// Parses the `generators` attribute (V3/V4 form).
    pub fn from_pact_json(value: &Value) -> Result<Self, DslError> {
        Ok(Generators {
            raw: Some(value.clone()),
        })
    }

    /// The V4 JSON form.
    pub fn to_v4_json(&self) -> Value {
        self.raw
            .clone()
            .unwrap_or(Value::Object(Default::default()))
    }

    /// True when there is no generator.
    pub fn is_empty(&self) -> bool {
        self.raw.is_none()
    }
}
