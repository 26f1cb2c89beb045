//! Embedded JSON Schemas (dialect 2020-12, `metadata.accord.jsonSchema`):
//! compiled with the `jsonschema` crate, which first checks the schema
//! against the 2020-12 metaschema. Nothing is fetched: a `$ref` to a remote
//! document does not resolve (the broker and the verifier run offline), so
//! a schema must be whole.

use serde_json::Value;

/// A compiled schema.
pub type Validator = jsonschema::Validator;

/// Compiles `schema`, or says why it is not a usable 2020-12 schema (the
/// dialect a contract pins for the schemas it embeds).
pub fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::draft202012::new(schema).map_err(|e| describe(&e))
}

/// Compiles a schema a provider declares (a tool's `outputSchema`) in the
/// dialect its `$schema` names — the TypeScript SDK declares draft-07 —
/// and 2020-12 when it names none (MCP's default).
pub fn compile_declared(schema: &Value) -> Result<Validator, String> {
    jsonschema::validator_for(schema).map_err(|e| describe(&e))
}

fn describe(e: &jsonschema::ValidationError<'_>) -> String {
    let at = e.instance_path().to_string();
    if at.is_empty() {
        e.to_string()
    } else {
        format!("{e} (at {at} in the schema)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_whose_type_is_a_number_is_refused() {
        let err = compile(&json!({"type": 42})).expect_err("not a schema");
        assert!(err.contains("42"), "{err}");
    }

    #[test]
    fn a_whole_schema_compiles_and_validates() {
        let v = compile(&json!({"type": "object", "required": ["id"],
            "properties": {"id": {"type": "string"}}}))
        .expect("a schema");
        assert!(v.is_valid(&json!({"id": "x"})));
        assert!(!v.is_valid(&json!({"id": 1})));
    }

    #[test]
    fn a_declared_draft_07_schema_is_read_as_draft_07() {
        let tuple = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "type": "array", "items": [{"type": "string"}, {"type": "integer"}]});
        let v = compile_declared(&tuple).expect("a draft-07 schema");
        assert!(v.is_valid(&json!(["a", 1])));
        assert!(!v.is_valid(&json!(["a", "b"])));
    }

    #[test]
    fn a_remote_reference_is_refused_offline() {
        assert!(compile(&json!({"$ref": "https://schemas.example/plan.json"})).is_err());
    }
}
