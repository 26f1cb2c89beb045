//! Finding a field that would carry content (a request or response body,
//! tool arguments or results, messages) anywhere in a drift report, so the
//! report is refused naming it before anything reads or stores it.

use serde_json::Value;

/// Field names (lower case, `_` and `-` removed) that carry content, and
/// the last segment of dotted OpenTelemetry names that do
/// (`gen_ai.input.messages`, `gen_ai.tool.call.arguments`, …).
const PAYLOAD_NAMES: &[&str] = &[
    "request",
    "response",
    "body",
    "requestbody",
    "responsebody",
    "payload",
    "arguments",
    "args",
    "params",
    "result",
    "results",
    "content",
    "structuredcontent",
    "messages",
    "message",
    "input",
    "output",
    "prompt",
    "completion",
    "text",
    "data",
    "artifact",
    "artifacts",
    "parts",
    "headers",
    "instructions",
    "systeminstructions",
];

/// Dotted prefixes of OpenTelemetry attributes that carry content whatever
/// their last segment (`mcp.request.argument.<name>`).
const PAYLOAD_PREFIXES: &[&str] = &["mcp.request.argument", "gen_ai.prompt", "gen_ai.completion"];

/// True when a field called `name` would carry content.
pub fn is_payload_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if PAYLOAD_PREFIXES.iter().any(|p| lower.starts_with(p)) {
        return true;
    }
    let last = lower.rsplit('.').next().unwrap_or(&lower);
    let squeezed: String = last.chars().filter(|c| !matches!(c, '_' | '-')).collect();
    PAYLOAD_NAMES.contains(&squeezed.as_str())
}

/// The JSON path of the first payload-carrying field in `value`, if any.
pub fn find(value: &Value) -> Option<String> {
    find_under(value, "$")
}

/// Where the keys are the sender's own names (profiles), not fields: their
/// values are digests, which the report's type checks.
const NAMED_BY_SENDER: &str = "$.toolsDigests";

fn find_under(value: &Value, path: &str) -> Option<String> {
    match value {
        Value::Object(map) => map.iter().find_map(|(key, v)| {
            let here = format!("{path}.{key}");
            if path != NAMED_BY_SENDER && is_payload_name(key) {
                Some(here)
            } else {
                find_under(v, &here)
            }
        }),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| find_under(v, &format!("{path}[{i}]"))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn bodies_arguments_results_and_messages_are_payload_fields() {
        for name in [
            "request",
            "responseBody",
            "response_body",
            "arguments",
            "structuredContent",
            "messages",
            "gen_ai.input.messages",
            "gen_ai.output.messages",
            "gen_ai.tool.call.arguments",
            "gen_ai.tool.call.result",
            "mcp.request.argument.plan_id",
        ] {
            assert!(is_payload_name(name), "{name}");
        }
    }

    #[test]
    fn signal_names_and_the_otel_operation_names_are_not() {
        for name in [
            "provider",
            "agentCardDigest",
            "toolsDigests",
            "counts",
            "mcp.method.name",
            "gen_ai.tool.name",
            "error.type",
            "outputSchemaViolations",
        ] {
            assert!(!is_payload_name(name), "{name}");
        }
    }

    #[test]
    fn the_first_payload_field_is_named_by_its_json_path() {
        let report = json!({
            "provider": "p",
            "observations": [{"signal": "x"}, {"gen_ai.tool.name": "t", "arguments": {"a": 1}}]
        });
        assert_eq!(
            find(&report).as_deref(),
            Some("$.observations[1].arguments")
        );
        assert_eq!(find(&json!({"counts": {"unknownErrorCodes": 2}})), None);
        let profile_named_input = json!({"toolsDigests": {"input": "sha256:00"}});
        assert_eq!(find(&profile_named_input), None);
    }
}
