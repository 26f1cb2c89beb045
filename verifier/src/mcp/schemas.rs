//! `structuredContent` against JSON Schemas: the tool's declared
//! `outputSchema` (in the dialect its `$schema` names; OUTPUT_SCHEMA_VIOLATION)
//! and the consumer's own `schema` of the expected result (2020-12, as the
//! contract pins; RESPONSE_MISMATCH). Nothing is fetched: a remote `$ref`
//! does not resolve.

use serde_json::{Value, json};

use super::listing::Listed;
use crate::finding::{Finding, Layer, codes};

/// Whether a listed tool's `inputSchema` refuses `arguments` (a schema
/// that does not compile refuses nothing).
pub fn refuses(tool: &Listed, arguments: &Value) -> bool {
    tool.input_validator()
        .is_some_and(|v| !v.is_valid(arguments))
}

/// `structuredContent` against the consumer's own schema.
pub fn consumer_schema(schema: &Value, result: &Value, out: &mut Vec<Finding>) {
    // the broker and the loader refuse a contract whose schema does not compile
    let Ok(validator) = accord_dsl::schema::compile(schema) else {
        return;
    };
    let structured = result.get("structuredContent").unwrap_or(&Value::Null);
    for error in validator.iter_errors(structured).take(20) {
        let at = error.instance_path().to_string();
        let path = format!("$.structuredContent{}", pointer_to_path(&at));
        let detail = format!("the consumer's schema refuses it: {error}");
        out.push(
            Finding::new(Layer::Schema, codes::RESPONSE_MISMATCH, path, detail)
                .values(Some(json!(error.schema_path().to_string())), None),
        );
    }
}

/// `structuredContent` against the tool's declared `outputSchema`, as
/// compiled once for the listed tool (`Err`: why it does not compile).
pub fn output_schema(
    declared: Result<&accord_dsl::schema::Validator, &str>,
    result: &Value,
    out: &mut Vec<Finding>,
) {
    let validator = match declared {
        Ok(v) => v,
        Err(why) => {
            let detail =
                format!("the tool's outputSchema is not a usable JSON Schema 2020-12: {why}");
            out.push(Finding::new(
                Layer::Schema,
                codes::OUTPUT_SCHEMA_VIOLATION,
                "outputSchema",
                detail,
            ));
            return;
        }
    };
    let Some(structured) = result.get("structuredContent") else {
        let detail = "the tool declares an outputSchema but the result has no structuredContent";
        out.push(Finding::new(
            Layer::Schema,
            codes::OUTPUT_SCHEMA_VIOLATION,
            "$.structuredContent",
            detail,
        ));
        return;
    };
    for error in validator.iter_errors(structured).take(20) {
        let at = error.instance_path().to_string();
        let path = format!("$.structuredContent{}", pointer_to_path(&at));
        out.push(
            Finding::new(
                Layer::Schema,
                codes::OUTPUT_SCHEMA_VIOLATION,
                path,
                error.to_string(),
            )
            .values(Some(json!(error.schema_path().to_string())), None),
        );
    }
}

/// `/steps/0/title` → `.steps[0].title`.
pub fn pointer_to_path(pointer: &str) -> String {
    pointer
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let s = s.replace("~1", "/").replace("~0", "~");
            if s.bytes().all(|b| b.is_ascii_digit()) {
                format!("[{s}]")
            } else {
                format!(".{s}")
            }
        })
        .collect()
}
