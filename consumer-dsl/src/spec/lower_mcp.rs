//! Lowering `mcp:` interactions: a `tools/call` and its expected result or
//! protocol error.

use serde_json::{Map, Value, json};

use super::PactPath;
use super::ast::{ErrorSpec, LogSpec, McpExpectSpec, McpSpec, ProgressSpec};
use super::lower::{Ctx, body_rules};
use super::lower_a2a_flow::error;
use super::template::Compiled;
use crate::DslError;
use crate::model::accord::{
    ErrorExpectation, LOG_LEVELS, McpLog, McpProgress, McpResultExpectation, McpToolCall,
    McpToolCallInteraction, log_severity,
};
use crate::model::{Interaction, InteractionMeta};

/// An `mcp:` interaction.
pub(crate) fn tool_call(
    cx: &Ctx<'_>,
    path: &str,
    meta: InteractionMeta,
    m: &McpSpec,
) -> Result<Interaction, DslError> {
    let Some(tool) = m.tool.clone().filter(|t| !t.is_empty()) else {
        return Err(cx.err(path, "an mcp interaction needs `tool` (the tool name)"));
    };
    if m.expect.is_some() == m.error.is_some() {
        return Err(cx.err(path, "an mcp interaction has exactly one of `expect` (the tool result) and `error` (a JSON-RPC protocol error)"));
    }
    let mut out = Compiled::default();
    let arguments = match &m.arguments {
        None => Map::new(),
        Some(t) => match t.compile(&PactPath::root().field("arguments"), &mut out) {
            Value::Object(o) => o,
            _ => return Err(cx.err(&format!("{path}.arguments"), "tool arguments are a map")),
        },
    };
    let rules = body_rules(&out)?;
    let error = m
        .error
        .as_ref()
        .map(|e| protocol_error(cx, &format!("{path}.error"), e))
        .transpose()?;
    check_invalid_params(cx, path, &tool, error.as_ref())?;
    let result = m
        .expect
        .as_ref()
        .map(|e| result(cx, &format!("{path}.expect"), e))
        .transpose()?;
    Ok(Interaction::McpToolCall(McpToolCallInteraction {
        meta,
        call: McpToolCall {
            tool,
            arguments,
            rules,
            result,
            error,
            progress: progress(cx, path, &m.progress)?,
            logs: logs(cx, path, &m.logs)?,
            extra: Map::new(),
        },
    }))
}

/// The progress notifications relied on: `progress` must increase (MCP).
fn progress(cx: &Ctx<'_>, path: &str, list: &[ProgressSpec]) -> Result<Vec<McpProgress>, DslError> {
    let values: Vec<f64> = list
        .iter()
        .map(|p| p.progress.as_f64().unwrap_or(f64::NAN))
        .collect();
    let increases = |w: &[f64]| w[1].partial_cmp(&w[0]) == Some(std::cmp::Ordering::Greater);
    if let Some(i) = values.windows(2).position(|w| !increases(w)) {
        return Err(cx.err(
            &format!("{path}.progress[{}]", i + 1),
            "`progress` increases with each notification (MCP)",
        ));
    }
    Ok(list
        .iter()
        .map(|p| McpProgress {
            progress: p.progress.clone(),
            total: p.total.clone(),
            message: p.message.clone(),
        })
        .collect())
}

/// The log messages relied on: each at one of MCP's levels.
fn logs(cx: &Ctx<'_>, path: &str, list: &[LogSpec]) -> Result<Vec<McpLog>, DslError> {
    let mut out = Vec::new();
    for (i, l) in list.iter().enumerate() {
        if log_severity(&l.level).is_none() {
            return Err(cx.err(
                &format!("{path}.logs[{i}].level"),
                format!(
                    "`{}` is not an MCP log level: {}",
                    l.level,
                    LOG_LEVELS.join(", ")
                ),
            ));
        }
        out.push(McpLog {
            level: l.level.clone(),
            logger: l.logger.clone(),
            data: l.data.clone(),
        });
    }
    Ok(out)
}

/// The expected JSON-RPC protocol error: a code, no A2A reason.
fn protocol_error(cx: &Ctx<'_>, path: &str, e: &ErrorSpec) -> Result<ErrorExpectation, DslError> {
    if e.reason.is_some() {
        return Err(cx.err(
            &format!("{path}.reason"),
            "`reason` names A2A errors; an MCP protocol error has a `code` (e.g. -32602)",
        ));
    }
    let data = e.data.clone();
    let without = ErrorSpec {
        data: None,
        ..e.clone()
    };
    Ok(ErrorExpectation {
        data,
        ..error(cx, path, &without)?
    })
}

/// The expected `CallToolResult`; rules rooted at the result.
fn result(cx: &Ctx<'_>, path: &str, e: &McpExpectSpec) -> Result<McpResultExpectation, DslError> {
    let root = PactPath::root();
    let mut out = Compiled::default();
    let structured_content = e
        .structured
        .as_ref()
        .map(|t| t.compile(&root.field("structuredContent"), &mut out));
    let content = content(cx, path, e, &mut out)?;
    if cx.mcp_version < "2026-07-28" && structured_content.as_ref().is_some_and(|v| !v.is_object())
    {
        return Err(cx.err(
            &format!("{path}.structured"),
            format!(
                "MCP {} carries an object in `structuredContent` (any JSON value needs 2026-07-28)",
                cx.mcp_version
            ),
        ));
    }
    if e.content_matches_structured && structured_content.is_none() {
        return Err(cx.err(
            &format!("{path}.content_matches_structured"),
            "needs `structured`",
        ));
    }
    if e.retryable.is_some() && !e.is_error {
        return Err(cx.err(
            &format!("{path}.retryable"),
            "`retryable` qualifies a tool error (`is_error: true`)",
        ));
    }
    if e.schema.is_some() && e.is_error {
        return Err(cx.err(
            &format!("{path}.schema"),
            "`schema` describes the structured result of a success, not a tool error",
        ));
    }
    let rules = body_rules(&out)?;
    Ok(McpResultExpectation {
        schema: super::lower_a2a_steps::schema(cx, path, &e.schema)?,
        is_error: e.is_error,
        structured_content,
        content,
        content_matches_structured: e.content_matches_structured,
        retryable: e.retryable,
        rules,
    })
}

/// The expected content blocks: `text` (one text block) or `content`,
/// rules at `$.content[i]`.
fn content(
    cx: &Ctx<'_>,
    path: &str,
    e: &McpExpectSpec,
    out: &mut Compiled,
) -> Result<Option<Vec<Value>>, DslError> {
    let root = PactPath::root().field("content");
    let blocks = match (&e.text, &e.content) {
        (Some(_), Some(_)) => {
            return Err(cx.err(
                path,
                "write `text` (one text block) or `content` (the blocks), not both",
            ));
        }
        (Some(t), None) => {
            let text = t.compile(&root.index(0).field("text"), out);
            vec![json!({"type": "text", "text": text})]
        }
        (None, Some(blocks)) => blocks
            .iter()
            .enumerate()
            .map(|(i, b)| b.compile(&root.index(i), out))
            .collect(),
        (None, None) => return Ok(None),
    };
    for (i, block) in blocks.iter().enumerate() {
        check_block(block).map_err(|why| cx.err(&format!("{path}.content[{i}]"), why))?;
    }
    Ok(Some(blocks))
}

/// Since MCP 2025-11-25 (SEP-1303) arguments that fail a tool's
/// `inputSchema` are a tool error (`isError: true`), not `-32602`. A tool
/// listed in `mcp_tools` for every caller (no profile) exists, so `-32602`
/// on it can only mean invalid arguments: expect the tool error instead.
fn check_invalid_params(
    cx: &Ctx<'_>,
    path: &str,
    tool: &str,
    error: Option<&ErrorExpectation>,
) -> Result<(), DslError> {
    let listed = cx
        .mcp_tools
        .iter()
        .any(|t| t.name == tool && t.profile.is_none());
    if listed && error.and_then(|e| e.code) == Some(-32602) {
        return Err(cx.err(
            &format!("{path}.error.code"),
            format!(
                "`{tool}` is in mcp_tools, so -32602 could only reject its arguments, which MCP {} reports as a tool error: write `expect: {{ is_error: true }}`",
                cx.mcp_version
            ),
        ));
    }
    Ok(())
}

/// MCP content block types and the fields each one requires.
const BLOCKS: [(&str, &[&str]); 5] = [
    ("text", &["text"]),
    ("image", &["data", "mimeType"]),
    ("audio", &["data", "mimeType"]),
    ("resource_link", &["uri", "name"]),
    ("resource", &["resource"]),
];

/// A content block is an object whose `type` is an MCP block type, with
/// that type's required fields.
fn check_block(block: &Value) -> Result<(), String> {
    let kind = block
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some((_, required)) = BLOCKS.iter().find(|(k, _)| *k == kind) else {
        let kinds: Vec<&str> = BLOCKS.iter().map(|(k, _)| *k).collect();
        return Err(format!(
            "a content block has a `type`: one of {}",
            kinds.join(", ")
        ));
    };
    match required.iter().find(|f| block.get(**f).is_none()) {
        Some(f) => Err(format!("a `{kind}` block needs `{f}`")),
        None => Ok(()),
    }
}
