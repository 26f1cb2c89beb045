//! The enum values a consumer switches on (`mcpTools[].resultFields[].enum`),
//! checked in every served result of the tool: a value outside them is a
//! value the consumer has no branch for (BREAKING_ENUM_REMOVAL, layer
//! compatibility), whatever the `outputSchema` says.

use accord_dsl::matching::{DocPath, PathToken};
use accord_dsl::model::accord::McpToolExpectation;
use serde_json::Value;

use crate::finding::{Finding, Layer, codes};

/// The findings for `structured`, a served result of `tool`.
pub fn judge_enums(relied: &[McpToolExpectation], tool: &str, structured: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    let fields = relied
        .iter()
        .filter(|t| t.name == tool)
        .flat_map(|t| &t.result_fields)
        .filter(|f| !f.values.is_empty());
    for field in fields {
        let Ok(path) = DocPath::parse(&field.path) else {
            continue;
        };
        let mut found = Vec::new();
        values_at(
            structured,
            path.tokens(),
            "$.structuredContent".to_owned(),
            &mut found,
        );
        for (at, v) in found.into_iter().filter(|(_, v)| !field.values.contains(v)) {
            let detail = format!(
                "`{tool}` answered {v} at {at}, not one of the values the consumer switches on"
            );
            out.push(
                Finding::new(
                    Layer::Compatibility,
                    codes::BREAKING_ENUM_REMOVAL,
                    at,
                    detail,
                )
                .values(Some(Value::Array(field.values.clone())), Some(v.clone())),
            );
        }
    }
    out
}

/// Every value a path selects, with its concrete location.
fn values_at<'a>(
    v: &'a Value,
    tokens: &[PathToken],
    at: String,
    out: &mut Vec<(String, &'a Value)>,
) {
    let Some((first, rest)) = tokens.split_first() else {
        out.push((at, v));
        return;
    };
    match (first, v) {
        (PathToken::Field(name), Value::Object(m)) => {
            if let Some(next) = m.get(name) {
                values_at(next, rest, format!("{at}.{name}"), out);
            }
        }
        (PathToken::Index(i), Value::Array(items)) => {
            if let Some(next) = items.get(*i) {
                values_at(next, rest, format!("{at}[{i}]"), out);
            }
        }
        (PathToken::StarIndex | PathToken::Star, Value::Array(items)) => {
            for (i, next) in items.iter().enumerate() {
                values_at(next, rest, format!("{at}[{i}]"), out);
            }
        }
        (PathToken::Star, Value::Object(m)) => {
            for (k, next) in m {
                values_at(next, rest, format!("{at}.{k}"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn relied() -> Vec<McpToolExpectation> {
        serde_json::from_value(json!([{"name": "lookup", "resultFields": [
            {"path": "$.status", "enum": ["draft", "ready"]},
            {"path": "$.steps[*].state", "enum": ["open", "done"]},
            {"path": "$.plan_id", "type": "string"}]}]))
        .unwrap_or_default()
    }

    #[test]
    fn a_value_outside_the_switched_on_values_is_found_where_it_is() {
        let ok = json!({"status": "ready", "plan_id": "p", "steps": [{"state": "open"}]});
        assert!(judge_enums(&relied(), "lookup", &ok).is_empty());
        let odd = json!({"status": "archived", "steps": [{"state": "open"}, {"state": "stalled"}]});
        let found: Vec<String> = judge_enums(&relied(), "lookup", &odd)
            .into_iter()
            .map(|f| format!("{} {}", f.reason_code, f.path))
            .collect();
        assert_eq!(
            found,
            [
                "BREAKING_ENUM_REMOVAL $.structuredContent.status",
                "BREAKING_ENUM_REMOVAL $.structuredContent.steps[1].state"
            ]
        );
        // another tool's fields, and an absent field, are not judged here
        assert!(judge_enums(&relied(), "other", &odd).is_empty());
        assert!(judge_enums(&relied(), "lookup", &json!({})).is_empty());
    }
}
