//! `MCP/ToolCall` interactions: a `tools/call` and its expected result or
//! protocol error.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::errors::ErrorExpectation;
use super::rules_serde::BodyRules;
use crate::model::InteractionMeta;

/// An `MCP/ToolCall` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct McpToolCallInteraction {
    /// The attributes every interaction has.
    pub meta: InteractionMeta,
    /// The MCP-specific part.
    pub call: McpToolCall,
}

/// The MCP-specific part of an `MCP/ToolCall` interaction.
///
/// Matching rules and generators are rooted at this object:
/// `$.arguments.plan_id`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpToolCall {
    /// The tool name (`params.name`).
    pub tool: String,
    /// `params.arguments`.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub arguments: Map<String, Value>,
    /// Matching rules and generators (V4, category `body`), rooted at
    /// this object.
    #[serde(flatten)]
    pub rules: BodyRules,
    /// The expected `CallToolResult` (exclusive with `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<McpResultExpectation>,
    /// The expected JSON-RPC protocol error (exclusive with `result`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorExpectation>,
    /// The progress the consumer relies on being told before the answer:
    /// the call is sent with a progress token (`params._meta.progressToken`)
    /// and at least this many `notifications/progress` carrying it arrive
    /// first, their `progress` increasing. The values are examples (the
    /// consumer's mock sends them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub progress: Vec<McpProgress>,
    /// The log messages the consumer relies on being sent during the call
    /// (`notifications/message`, before the answer), in order, at or above
    /// the level the client asked for (`logging/setLevel` in the 2025-11-25
    /// era, the request's `_meta` `io.modelcontextprotocol/logLevel` in
    /// 2026-07-28). `level` and `logger` must be as written; `data` is an
    /// example (the consumer's mock sends it), of the type a message's
    /// `data` must have.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<McpLog>,
    /// Attributes this version does not know, kept for the round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One `notifications/progress` of a call (its `params` without the
/// token, which the caller chooses).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpProgress {
    /// `progress`: how far the call is (a number that increases).
    pub progress: serde_json::Number,
    /// `total`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<serde_json::Number>,
    /// `message`, a human-readable note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One `notifications/message` of a call (its `params`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpLog {
    /// The severity: one of [`LOG_LEVELS`].
    pub level: String,
    /// `logger`, when the consumer relies on its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// `data`: an example of what is logged.
    pub data: Value,
}

/// MCP's log levels (RFC 5424's severities), least severe first.
pub const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// How severe `level` is (its place in [`LOG_LEVELS`]), if it is one.
pub fn log_severity(level: &str) -> Option<usize> {
    LOG_LEVELS.iter().position(|l| *l == level)
}

/// The expected `CallToolResult`. Rules are rooted at the result object:
/// `$.structuredContent.status`, `$.content[0].text`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpResultExpectation {
    /// `isError`: a tool execution error (true) or a success (false).
    #[serde(default)]
    pub is_error: bool,
    /// Example of `structuredContent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Example content blocks (`[{"type": "text", "text": …}]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Vec<Value>>,
    /// A text block must carry the same JSON as `structuredContent`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub content_matches_structured: bool,
    /// The consumer's own JSON Schema (2020-12) that `structuredContent`
    /// must satisfy, besides the tool's declared `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Value>,
    /// With `isError`: whether the consumer treats the failure as retryable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    /// Matching rules and generators (V4, category `body`), rooted at
    /// this object.
    #[serde(flatten)]
    pub rules: BodyRules,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_call_attributes_survive_a_round_trip() {
        let v = json!({"tool": "t", "arguments": {"a": 1}, "futureThing": [1],
            "error": {"code": -32602}});
        let call: McpToolCall = serde_json::from_value(v.clone()).expect("readable");
        assert_eq!(call.extra["futureThing"], json!([1]));
        assert_eq!(call.error.as_ref().and_then(|e| e.code), Some(-32602));
        assert_eq!(serde_json::to_value(&call).expect("serialisable"), v);
    }

    #[test]
    fn progress_notifications_round_trip_as_written() {
        let v = json!({"tool": "t", "result": {"isError": false},
            "progress": [{"progress": 0, "total": 100}, {"progress": 50.5, "message": "half"}]});
        let call: McpToolCall = serde_json::from_value(v.clone()).expect("readable");
        assert_eq!(call.progress.len(), 2);
        assert!(call.extra.is_empty());
        assert_eq!(serde_json::to_value(&call).expect("serialisable"), v);
    }

    #[test]
    fn flattened_rules_are_read_as_rules_not_as_unknown_attributes() {
        let v = json!({"tool": "t", "arguments": {"id": "x"},
            "matchingRules": {"body": {"$.arguments.id": {"combine": "AND", "matchers": [{"match": "type"}]}}},
            "generators": {"body": {"$.arguments.id": {"type": "Uuid"}}},
            "futureThing": 1});
        let call: McpToolCall = serde_json::from_value(v.clone()).expect("readable");
        assert!(!call.rules.matching_rules.is_empty());
        assert!(!call.rules.generators.is_empty());
        assert_eq!(call.extra.keys().collect::<Vec<_>>(), ["futureThing"]);
        assert_eq!(serde_json::to_value(&call).expect("serialisable"), v);
    }
}
