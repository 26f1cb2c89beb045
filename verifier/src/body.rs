//! Received bytes as a contract body, by content type (the codec lives in
//! `accord_dsl::model`, which the consumer mock shares), and the keys of
//! an expected object matched under its rules.

pub use accord_dsl::model::{body_from_bytes, body_to_bytes};
use serde_json::{Map, Value};

/// The keys of `want` (an expected object's examples, rooted at the
/// object that holds `rules`) against the same keys of `actual`, under the
/// rules' `body` category; an absent key is `null`. Extra keys of `actual`
/// are allowed. Used for MCP results and A2A parts.
pub fn match_keys(
    want: Map<String, Value>,
    actual: &Value,
    rules: &accord_dsl::model::accord::BodyRules,
) -> Vec<accord_dsl::matching::Mismatch> {
    let got: Map<String, Value> = want
        .keys()
        .map(|k| (k.clone(), actual.get(k).cloned().unwrap_or(Value::Null)))
        .collect();
    let body = rules
        .matching_rules
        .category("body")
        .cloned()
        .unwrap_or_default();
    accord_dsl::matching::match_json(&Value::Object(want), &Value::Object(got), &body, true)
}
