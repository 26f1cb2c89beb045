//! What the mock answers (pure): an interaction's expected result or
//! protocol error, with the consumer-side generators applied, and the
//! era-independent reply each era then frames.

use accord_dsl::generators::{Generator, GeneratorContext, GeneratorMode, apply_to_json};
use accord_dsl::matching::SearchRegex;
use accord_dsl::model::accord::{ErrorExpectation, McpProgress, McpResultExpectation, McpToolCall};
use serde_json::{Value, json};

use crate::wire::RpcError;

/// The answer to one JSON-RPC request, before an era frames it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Reply {
    /// A JSON-RPC result.
    Result(Value),
    /// A JSON-RPC error; `status` is the HTTP status the contract expects
    /// (else the era decides: 2026-07-28 by the SDK's table, the legacy
    /// transport 200 inside its SSE stream).
    Error {
        error: RpcError,
        status: Option<u16>,
    },
    /// An HTTP refusal in front of JSON-RPC (an authorization layer's 401
    /// or 403), with an OAuth-style body.
    Refused { status: u16, body: Value },
}

/// The HTTP status the 2026-07-28 transport gives a JSON-RPC error code
/// (the Python SDK's `ERROR_CODE_HTTP_STATUS`): 400 for parse, request,
/// params, header-mismatch, capability and version errors, 404 for an
/// unknown method, else 200.
pub(super) fn modern_status(code: i64) -> u16 {
    match code {
        -32700 | -32600 | -32602 | -32020 | -32021 | -32022 => 400,
        -32601 => 404,
        _ => 200,
    }
}

/// A tool execution error (`isError: true`) with one text block.
pub(super) fn tool_error(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": true})
}

/// The reply the interaction of `call` expects. `listed`: whether the
/// mock lists the tool (an expected `-32602` on a tool it does not list is
/// the unknown-tool error).
pub(super) fn expected(call: &McpToolCall, mock_url: &str, listed: bool) -> Reply {
    let ctx = GeneratorContext {
        mock_server_url: Some(mock_url.to_owned()),
        mode: GeneratorMode::Consumer,
        ..GeneratorContext::default()
    };
    match (&call.result, &call.error) {
        (Some(result), _) => Reply::Result(result_of(result, &ctx)),
        (None, Some(error)) => error_of(error, &call.tool, listed, &ctx),
        (None, None) => Reply::Result(json!({"content": [], "isError": false})),
    }
}

/// The `CallToolResult`: the examples with the generators applied (rules
/// and generators are rooted at the result). Without expected content, a
/// `structuredContent` is mirrored in a text block, as the SDKs do; with
/// `contentMatchesStructured`, the text block that carried the example
/// carries the generated value.
fn result_of(expected: &McpResultExpectation, ctx: &GeneratorContext) -> Value {
    let mut result = json!({"content": expected.content.clone().unwrap_or_default(), "isError": expected.is_error});
    if let Some(s) = &expected.structured_content {
        result["structuredContent"] = s.clone();
    }
    apply_to_json(
        &mut result,
        &expected.rules.generators,
        ctx,
        &mut rand::rng(),
    );
    let Some(structured) = result.get("structuredContent").cloned() else {
        return result;
    };
    let text = json!({"type": "text", "text": pretty(&structured)});
    match &expected.content {
        None => result["content"] = json!([text]),
        Some(blocks) if expected.content_matches_structured => {
            let example = expected.structured_content.as_ref();
            let carries = |b: &Value| {
                b["type"] == "text"
                    && b["text"]
                        .as_str()
                        .and_then(|t| serde_json::from_str::<Value>(t).ok())
                        .as_ref()
                        == example
            };
            if let Some(n) = blocks.iter().position(carries) {
                result["content"][n] = text;
            }
        }
        Some(_) => {}
    }
    result
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// The expected protocol error. An expected 401 or 403 without a
/// JSON-RPC code is an authorization layer's refusal.
fn error_of(e: &ErrorExpectation, tool: &str, listed: bool, ctx: &GeneratorContext) -> Reply {
    let code = match (e.code, e.http_status) {
        (Some(code), _) => code,
        (None, Some(status @ (401 | 403))) => {
            let error = if status == 401 {
                "invalid_token"
            } else {
                "insufficient_scope"
            };
            let description = e.message.as_deref().map_or_else(
                || "the contract expects this call to be refused".to_owned(),
                |m| message_matching(m, ctx),
            );
            return Reply::Refused {
                status,
                body: json!({"error": error, "error_description": description}),
            };
        }
        (None, Some(400)) => -32600,
        (None, Some(404)) => -32601,
        (None, _) => -32603,
    };
    let message = match &e.message {
        Some(pattern) => message_matching(pattern, ctx),
        None => default_message(code, tool, listed),
    };
    Reply::Error {
        error: RpcError {
            data: e.data.clone(),
            ..RpcError::new(code, message)
        },
        status: e.http_status,
    }
}

/// The `notifications/progress` of a call whose interaction relies on
/// `progress`, carrying the call's `token`.
pub(super) fn progress_notifications(progress: &[McpProgress], token: &Value) -> Vec<Value> {
    progress
        .iter()
        .map(|p| {
            let mut params = json!({"progressToken": token, "progress": p.progress});
            if let Some(total) = &p.total {
                params["total"] = json!(total);
            }
            if let Some(message) = &p.message {
                params["message"] = json!(message);
            }
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
        })
        .collect()
}

/// The SDKs' message for a code.
fn default_message(code: i64, tool: &str, listed: bool) -> String {
    match code {
        -32602 if !listed => format!("Unknown tool: {tool}"),
        -32602 => "Invalid params".to_owned(),
        -32601 => "Method not found".to_owned(),
        -32600 => "Invalid request".to_owned(),
        -32700 => "Parse error".to_owned(),
        -32603 => "Internal error".to_owned(),
        -32021 => "Missing required client capability".to_owned(),
        _ => format!("Error {code}"),
    }
}

/// A message the expected `pattern` (a regex searched for) finds: the
/// pattern itself when it is plain text, else a generated string.
fn message_matching(pattern: &str, ctx: &GeneratorContext) -> String {
    const SPECIAL: &[char] = &[
        '\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}',
    ];
    if !pattern.contains(SPECIAL) {
        return pattern.to_owned();
    }
    let generator = Generator::Regex {
        regex: pattern.to_owned(),
    };
    let generated = generator
        .generate(&json!(""), ctx, &mut rand::rng())
        .and_then(|v| v.as_str().map(str::to_owned));
    let found = |t: &String| SearchRegex::new(pattern).is_ok_and(|re| re.is_found(t));
    generated
        .filter(found)
        .unwrap_or_else(|| pattern.to_owned())
}

#[cfg(test)]
#[path = "answer_tests.rs"]
mod tests;
