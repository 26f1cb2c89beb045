//! How a spec names the type of an argument or result field: a JSON
//! Schema type name (or `any`), or `{ type, enum }` with the enum values
//! the consumer sends or switches on.

use serde::Deserialize;

use crate::model::accord::JsonType;

/// A JSON type name as a spec writes it: a JSON Schema type, or `any`
/// (no type expected).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeName(Option<JsonType>);

impl TypeName {
    /// `any`: the value may have any JSON type.
    pub const ANY: TypeName = TypeName(None);

    /// The JSON Schema type, `None` for `any`.
    pub fn json_type(self) -> Option<JsonType> {
        self.0
    }
}

impl From<JsonType> for TypeName {
    fn from(t: JsonType) -> Self {
        TypeName(Some(t))
    }
}

impl<'de> Deserialize<'de> for TypeName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const NAMES: &[&str] = &[
            "string", "number", "integer", "boolean", "object", "array", "null", "any",
        ];
        let name = String::deserialize(d)?;
        if name == "any" {
            return Ok(TypeName::ANY);
        }
        let as_type = serde::de::value::StrDeserializer::<D::Error>::new(&name);
        JsonType::deserialize(as_type)
            .map(TypeName::from)
            .map_err(|_| serde::de::Error::unknown_variant(&name, NAMES))
    }
}

/// An argument or result field: its type name, or `{ type, enum }` with
/// the enum values the consumer sends or switches on.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpec {
    pub ty: TypeName,
    pub values: Vec<serde_json::Value>,
}

impl Default for FieldSpec {
    fn default() -> Self {
        FieldSpec::from(TypeName::ANY)
    }
}

impl From<TypeName> for FieldSpec {
    fn from(ty: TypeName) -> Self {
        FieldSpec {
            ty,
            values: Vec::new(),
        }
    }
}

impl From<JsonType> for FieldSpec {
    fn from(t: JsonType) -> Self {
        FieldSpec::from(TypeName::from(t))
    }
}

impl<'de> Deserialize<'de> for FieldSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Full {
            #[serde(rename = "type")]
            ty: Option<TypeName>,
            #[serde(rename = "enum")]
            values: Vec<serde_json::Value>,
        }
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = FieldSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a type name (`string`, `integer`, …, `any`) or `{ type, enum: [values] }`",
                )
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<FieldSpec, E> {
                TypeName::deserialize(serde::de::value::StrDeserializer::<E>::new(s))
                    .map(FieldSpec::from)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<FieldSpec, A::Error> {
                let full = Full::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                if full.values.is_empty() {
                    return Err(serde::de::Error::custom("`enum` lists no values"));
                }
                Ok(FieldSpec {
                    ty: full.ty.unwrap_or(TypeName::ANY),
                    values: full.values,
                })
            }
        }
        d.deserialize_any(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_read_json_schema_types_and_any() {
        let read = |s: &str| yaml_serde::from_str::<TypeName>(s);
        assert_eq!(
            read("integer").ok(),
            Some(TypeName::from(JsonType::Integer))
        );
        assert_eq!(read("any").ok(), Some(TypeName::ANY));
        assert_eq!(read("any").ok().and_then(TypeName::json_type), None);
        let err = read("strng")
            .expect_err("a misspelt type is refused")
            .to_string();
        assert!(err.contains("strng") && err.contains("`any`"), "{err}");
    }
}
