//! Provider states: named fixtures set up before an interaction.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A provider state with its parameters (Pact V3+ `providerStates[]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ProviderState {
    pub name: String,
    /// Parameters; `null` in a file reads as none.
    #[serde(
        default,
        skip_serializing_if = "Map::is_empty",
        deserialize_with = "null_as_empty"
    )]
    pub params: Map<String, Value>,
    /// Attributes this version does not know, kept for the round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Map<String, Value>, D::Error> {
    Ok(Option::<Map<String, Value>>::deserialize(d)?.unwrap_or_default())
}

impl ProviderState {
    /// A state without parameters.
    pub fn named(name: impl Into<String>) -> Self {
        ProviderState {
            name: name.into(),
            params: Map::new(),
            extra: Map::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn null_or_missing_params_read_as_none() {
        for v in [json!({"name": "s", "params": null}), json!({"name": "s"})] {
            let state: ProviderState = serde_json::from_value(v).expect("readable");
            assert_eq!(state, ProviderState::named("s"));
        }
        let v = json!({"name": "s", "params": {"id": 1}});
        let state: ProviderState = serde_json::from_value(v.clone()).expect("readable");
        assert_eq!(serde_json::to_value(&state).ok(), Some(v));
    }

    #[test]
    fn unknown_attributes_survive_a_round_trip() {
        let v = json!({"name": "s", "params": {"id": 1}, "x-owner": "team-a"});
        let state: ProviderState = serde_json::from_value(v.clone()).expect("readable");
        assert_eq!(state.extra.get("x-owner"), Some(&json!("team-a")));
        assert_eq!(serde_json::to_value(&state).ok(), Some(v));
    }
}
