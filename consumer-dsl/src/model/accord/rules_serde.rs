//! `serde(with = ...)` adapters that (de)serialise matching rules and
//! generators through their stable V4 JSON functions.

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
