//! Provider states: named fixtures set up before an interaction.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A provider state with its parameters (Pact V3+ `providerStates[]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ProviderState {
    pub name: String,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub params: Map<String, Value>,
}

impl ProviderState {
    /// A state without parameters.
    pub fn named(name: impl Into<String>) -> Self {
        ProviderState {
            name: name.into(),
            params: Map::new(),
        }
    }
}
