//! The matching rules and generators an A2A or MCP object carries, and the
//! `serde(with = ...)` adapters that (de)serialise them through their
//! stable V4 JSON functions.

use serde::{Deserialize, Serialize};

use crate::generators::Generators;
use crate::matching::MatchingRules;

/// Matching rules and generators (V4, category `body`) rooted at the
/// object that holds them, flattened into it as `matchingRules` and
/// `generators` (each left out when empty).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BodyRules {
    /// `matchingRules`.
    #[serde(
        default,
        skip_serializing_if = "MatchingRules::is_empty",
        with = "rules"
    )]
    pub matching_rules: MatchingRules,
    /// `generators`.
    #[serde(
        default,
        skip_serializing_if = "Generators::is_empty",
        with = "generators"
    )]
    pub generators: Generators,
}

impl BodyRules {
    /// True when there are neither rules nor generators.
    pub fn is_empty(&self) -> bool {
        self.matching_rules.is_empty() && self.generators.is_empty()
    }
}

/// Matching rules in their V4 JSON form.
pub(crate) mod rules {
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};
    use serde_json::Value;

    use crate::matching::MatchingRules;
    use crate::model::PactSpec;

    pub(crate) fn serialize<S: Serializer>(r: &MatchingRules, s: S) -> Result<S::Ok, S::Error> {
        r.to_v4_json().serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<MatchingRules, D::Error> {
        let v = Value::deserialize(d)?;
        MatchingRules::from_pact_json(&v, PactSpec::V4).map_err(D::Error::custom)
    }
}

/// Generators in their V4 JSON form.
pub(crate) mod generators {
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};
    use serde_json::Value;

    use crate::generators::Generators;

    pub(crate) fn serialize<S: Serializer>(g: &Generators, s: S) -> Result<S::Ok, S::Error> {
        g.to_v4_json().serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Generators, D::Error> {
        let v = Value::deserialize(d)?;
        Generators::from_pact_json(&v).map_err(D::Error::custom)
    }
}
