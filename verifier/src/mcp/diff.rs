//! Two versions of a provider's tool, compared with the same direction-aware
//! rules as a consumer's `mcpTools` (`surface.rs`): the older listing is
//! read as what any consumer may rely on — every argument it accepts (of
//! its type, with its enum values), its required arguments as always sent,
//! its required result fields, its hints — and the newer one must still
//! honour it. A changed `title` or `description` is a warning: it changes
//! how a model picks the tool, not whether a call works.
//!
//! Not called by the verifier's replay: the classification of two
//! declarations (`crate::compat`) is its user.

use accord_dsl::model::accord::{
    JsonType, McpToolExpectation, ToolAnnotationsExpectation, ToolArgument, ToolResultField,
};
use serde_json::Value;

use super::surface::{check_tool, listed_values, resolve};
use crate::finding::{Finding, Layer, codes};

/// The findings and warnings of `new` against `old` (both `tools/list`
/// entries); `None`: the newer version no longer lists it.
pub fn diff_tool(old: &Value, new: Option<&Value>) -> (Vec<Finding>, Vec<Finding>) {
    let relied = relied_on(old);
    let findings = check_tool(&relied, new);
    let mut warnings = Vec::new();
    if let Some(new) = new {
        for key in ["title", "description"] {
            if old.get(key) != new.get(key) {
                let detail = format!("the tool's {key} changed: a model may pick it differently");
                warnings.push(
                    Finding::new(
                        Layer::Compatibility,
                        codes::TOOL_DESCRIPTION_CHANGED,
                        format!("mcpTools[{}].{key}", relied.name),
                        detail,
                    )
                    .values(old.get(key).cloned(), new.get(key).cloned()),
                );
            }
        }
    }
    (findings, warnings)
}

/// What a consumer of `tool` may rely on.
fn relied_on(tool: &Value) -> McpToolExpectation {
    let input = tool.get("inputSchema").cloned().unwrap_or(Value::Null);
    let required = |schema: &Value| -> Vec<String> {
        schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let properties = |schema: &Value| -> Vec<(String, Value)> {
        schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| {
                p.iter()
                    .map(|(k, v)| (k.clone(), resolve(schema, v)))
                    .collect()
            })
            .unwrap_or_default()
    };
    let input_required = required(&input);
    let arguments = properties(&input)
        .into_iter()
        .map(|(name, prop)| ToolArgument {
            always_sent: input_required.contains(&name),
            json_type: single_type(&prop),
            values: prop
                .get("enum")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            name,
        })
        .collect();
    let output = tool.get("outputSchema").cloned().unwrap_or(Value::Null);
    let output_required = required(&output);
    let result_fields = properties(&output)
        .into_iter()
        .filter(|(name, _)| output_required.contains(name))
        .map(|(name, prop)| ToolResultField {
            path: format!("$.{name}"),
            json_type: single_type(&prop),
            // every value it listed may be switched on: one removed breaks
            values: listed_values(&output, &prop, 0).unwrap_or_default(),
        })
        .collect();
    let hint = |name: &str| tool["annotations"].get(name).and_then(Value::as_bool);
    // MCP's defaults; a read-only tool is neither destructive nor
    // anything but idempotent
    let read_only = hint("readOnlyHint").unwrap_or(false);
    McpToolExpectation {
        name: tool["name"].as_str().unwrap_or_default().to_owned(),
        arguments,
        result_fields,
        annotations: Some(ToolAnnotationsExpectation {
            read_only_hint: Some(read_only),
            destructive_hint: Some(!read_only && hint("destructiveHint").unwrap_or(true)),
            idempotent_hint: Some(read_only || hint("idempotentHint").unwrap_or(false)),
            open_world_hint: Some(hint("openWorldHint").unwrap_or(true)),
        }),
        ..McpToolExpectation::default()
    }
}

/// The property's type when it declares exactly one.
fn single_type(prop: &Value) -> Option<JsonType> {
    serde_json::from_value(prop.get("type")?.clone()).ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn v1() -> Value {
        json!({"name": "lookup", "title": "Look up", "description": "Read a plan.",
            "inputSchema": {"type": "object", "required": ["plan_id"],
                "properties": {"plan_id": {"type": "string"}, "mode": {"enum": ["fast", "full"]}}},
            "outputSchema": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string"}}},
            "annotations": {"readOnlyHint": true}})
    }

    fn codes_of(f: &[Finding]) -> Vec<&'static str> {
        f.iter().map(|f| f.reason_code).collect()
    }

    #[test]
    fn the_same_tool_is_compatible_with_itself() {
        let (f, w) = diff_tool(&v1(), Some(&v1()));
        assert_eq!((codes_of(&f), codes_of(&w)), (vec![], vec![]));
    }

    #[test]
    fn a_narrower_input_a_looser_output_or_other_hints_break_a_new_description_warns() {
        let mut v2 = v1();
        v2["inputSchema"]["required"] = json!(["plan_id", "region"]);
        v2["inputSchema"]["properties"]["region"] = json!({"type": "string"});
        v2["inputSchema"]["properties"]["mode"] = json!({"enum": ["fast"]});
        v2["outputSchema"]["required"] = json!([]);
        v2["annotations"] = json!({"readOnlyHint": false});
        v2["description"] = json!("Read or repair a plan.");
        let (f, w) = diff_tool(&v1(), Some(&v2));
        // read-only to writing changes three effective hints: one code
        let mut got = codes_of(&f);
        got.sort_unstable();
        got.dedup();
        assert_eq!(
            got,
            [
                "BREAKING_ENUM_REMOVAL",
                "BREAKING_FIELD_REMOVED",
                "BREAKING_REQUIRED_INPUT_ADDED",
                "RISK_ANNOTATION_CHANGED"
            ]
        );
        assert_eq!(codes_of(&w), ["TOOL_DESCRIPTION_CHANGED"]);
        assert_eq!(codes_of(&diff_tool(&v1(), None).0), ["TOOL_MISSING"]);
    }

    #[test]
    fn a_wider_input_and_a_new_optional_output_are_compatible() {
        let mut v2 = v1();
        v2["inputSchema"]["properties"]["extra"] = json!({"type": "integer"});
        v2["inputSchema"]["properties"]["mode"] = json!({"enum": ["fast", "full", "deep"]});
        v2["outputSchema"]["properties"]["note"] = json!({"type": "string"});
        assert_eq!(codes_of(&diff_tool(&v1(), Some(&v2)).0), Vec::<&str>::new());
    }
}
