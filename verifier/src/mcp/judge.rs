//! Judging one `tools/call` reply against the interaction's expectation:
//! pure, so every rule is a unit test.
//!
//! | expected | got | finding |
//! | --- | --- | --- |
//! | a result | not a JSON-RPC response | MALFORMED_RESPONSE (protocol) |
//! | a success | `isError: true`, or a -32602 protocol error | VALID_INPUT_REJECTED (schema) |
//! | a success | another protocol error | RESPONSE_MISMATCH (schema) |
//! | a tool error (`isError: true`) | a protocol error | TOOL_ERROR_AS_PROTOCOL_ERROR (protocol) |
//! | a tool error | `isError: false` | ERROR_DISGUISED_AS_SUCCESS (schema) |
//! | any result | the example and its rules do not match | RESPONSE_MISMATCH (schema), at `$.structuredContent…` / `$.content…` |
//! | `contentMatchesStructured` | no text block carries the same JSON | STRUCTURED_CONTENT_DISAGREES (schema) |
//! | any success, the tool declares `outputSchema` | no `structuredContent`, or one the schema refuses | OUTPUT_SCHEMA_VIOLATION (schema) |
//! | a success with the consumer's `schema` | a `structuredContent` it refuses (where the outputSchema did not already) | RESPONSE_MISMATCH (schema) |
//! | 2026-07-28 | `resultType` other than `complete` (a task is followed first: `follow.rs`) | RESULT_TYPE_UNSUPPORTED (protocol) |
//! | 2026-07-28 | a task that did not end with a result or error (`task.rs`) | its one finding: COMPLETION_LATE (temporal), TASK_NOT_COMPLETED, RESULT_TYPE_UNSUPPORTED or MALFORMED_RESPONSE (protocol) |
//! | a protocol error | one with another code, status or message | ERROR_CODE_MISMATCH (protocol) |
//! | a protocol error -32602 | `isError: true` (what the Python and TypeScript SDKs answer for an unknown tool) | ERROR_CODE_MISMATCH as a warning |
//! | a protocol error | another tool result | ERROR_CODE_MISMATCH, or ERROR_DISGUISED_AS_SUCCESS for `isError: false` |
//! | `progress` | fewer `notifications/progress` with the call's token before the answer, or `progress` not increasing (`progress.rs`) | PROGRESS_NOT_REPORTED (behavior) |
//! | `logs` | an expected `notifications/message` (level, logger, type of `data`) missing before the answer, in order (`logs.rs`) | LOG_MESSAGE_NOT_SENT (behavior) |

use accord_dsl::model::accord::{ActualError, ErrorExpectation, McpResultExpectation, McpToolCall};
use serde_json::{Map, Value};

use super::listing::Listed;
use super::schemas::{consumer_schema, output_schema};
use super::wire::{Era, Reply, RpcError};
use crate::finding::{Finding, Layer, codes};

/// The findings and warnings of one reply, and whether it served the call.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Judged {
    pub findings: Vec<Finding>,
    pub warnings: Vec<Finding>,
    /// A successful result (not `isError`) came back.
    pub served: bool,
    /// The one warning that is about the answer to an unknown tool, graded
    /// by `--mcp-unknown-tool`.
    pub unknown_tool: Option<UnknownToolAnswer>,
}

/// Which answer to an unknown tool came where the contract expected the
/// other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownToolAnswer {
    /// `isError: true` (the SDKs) where -32602 was expected.
    Sdk,
    /// -32602 (the spec) where `isError: true` was expected.
    Spec,
}

impl Judged {
    fn fail(&mut self, layer: Layer, code: &'static str, path: &str, detail: impl Into<String>) {
        self.findings.push(Finding::new(layer, code, path, detail));
    }
}

/// Judges `reply` to a `tools/call` of `call`; `tool` is the tool's entry
/// of `tools/list`, when listed (its `outputSchema` compiled once). A `negative` call that is served is the
/// engine's to report (an authorization finding), not a disguised error.
///
/// One fault, one finding: a refused or disguised call is not also judged
/// for its examples and schema, and a value the output schema refuses is
/// not also a mismatch of the consumer's rule at the same path.
pub fn judge(
    call: &McpToolCall,
    era: Era,
    reply: &Reply,
    tool: Option<&Listed>,
    negative: bool,
) -> Judged {
    let mut out = Judged::default();
    // a task followed to its end carries the call's result or error; one
    // that did not end has nothing else to judge
    if let Some(f) = reply.task.as_ref().and_then(|t| t.finding()) {
        out.findings.push(f);
        return out;
    }
    let outcome = match &reply.outcome {
        Ok(outcome) => outcome,
        Err(why) => {
            refused_by_http(call, reply, why, negative, &mut out);
            return out;
        }
    };
    match (&call.error, &call.result, outcome) {
        (Some(expected), _, Err(rpc)) => protocol_error(expected, reply, rpc, &mut out),
        (Some(expected), _, Ok(result)) => {
            error_answered_by_result(expected, result, negative, &mut out)
        }
        (None, Some(expected), Err(rpc)) => {
            result_answered_by_error(expected, era, rpc, tool.is_none(), &mut out)
        }
        (None, Some(expected), Ok(answer)) => {
            judge_result(expected, era, answer, tool, negative, &mut out)
        }
        (None, None, _) => {}
    }
    // one fault, one finding: progress and logs are judged on an answer
    // that holds
    if out.findings.is_empty()
        && let Some(f) = super::progress::judge(&call.progress, &reply.body, reply.sse)
            .or_else(|| super::logs::judge(&call.logs, &reply.body, reply.sse))
    {
        out.findings.push(f);
    }
    out
}

/// No JSON-RPC response came back. An HTTP refusal (401 from an auth
/// layer, 403, …) is judged by its status: it is what a negative call or an
/// expected `httpStatus` asks for. Anything else is malformed.
fn refused_by_http(call: &McpToolCall, reply: &Reply, why: &str, negative: bool, out: &mut Judged) {
    let refusal = (400..500).contains(&reply.status);
    let wanted = call.error.as_ref().and_then(|e| e.http_status);
    match wanted {
        Some(status) if status == reply.status => {}
        Some(status) if refusal => {
            let detail = format!("expected HTTP status {status}, got {}", reply.status);
            out.fail(Layer::Protocol, codes::ERROR_CODE_MISMATCH, "error", detail);
        }
        _ if refusal && negative => {}
        _ => {
            let detail = format!("HTTP {}: {why}", reply.status);
            out.fail(Layer::Protocol, codes::MALFORMED_RESPONSE, "$", detail);
        }
    }
}

fn protocol_error(expected: &ErrorExpectation, reply: &Reply, rpc: &RpcError, out: &mut Judged) {
    let actual = ActualError {
        code: Some(rpc.code),
        reason: None,
        http_status: Some(reply.status),
        message: Some(rpc.message.clone()),
        data: rpc.data.clone(),
    };
    for why in expected.disagreements(&actual) {
        out.fail(Layer::Protocol, codes::ERROR_CODE_MISMATCH, "error", why);
    }
}

fn error_answered_by_result(
    expected: &ErrorExpectation,
    result: &Value,
    negative: bool,
    out: &mut Judged,
) {
    let code = expected
        .code
        .map_or_else(|| "a".to_owned(), |c| c.to_string());
    if !is_error(result) {
        out.served = true;
        if negative {
            // served: the engine reports it as an authorization finding
            return;
        }
        let detail = format!("expected protocol error {code}, got a successful result");
        out.fail(
            Layer::Schema,
            codes::ERROR_DISGUISED_AS_SUCCESS,
            "result.isError",
            detail,
        );
        return;
    }
    let text = first_text(result).unwrap_or_default();
    let detail =
        format!("expected protocol error {code}, got a tool error result (isError: true): {text}");
    let finding = Finding::new(Layer::Protocol, codes::ERROR_CODE_MISMATCH, "error", detail);
    if expected.code == Some(-32602) {
        // the spec's answer to an unknown tool; both official SDKs answer isError
        out.warnings.push(finding);
        out.unknown_tool = Some(UnknownToolAnswer::Sdk);
    } else {
        out.findings.push(finding);
    }
}

fn result_answered_by_error(
    expected: &McpResultExpectation,
    era: Era,
    rpc: &RpcError,
    unlisted: bool,
    out: &mut Judged,
) {
    let got = format!("protocol error {} `{}`", rpc.code, rpc.message);
    if expected.is_error {
        let detail = format!("expected a tool error result (isError: true), got {got}");
        let finding = Finding::new(
            Layer::Protocol,
            codes::TOOL_ERROR_AS_PROTOCOL_ERROR,
            "error",
            detail,
        );
        // -32602 is the spec's own answer to an unknown tool, and to invalid
        // arguments before 2025-11-25 (SEP-1303 made those a tool error)
        let spec_allows = rpc.code == -32602 && (unlisted || era == Era::Legacy("2025-06-18"));
        if spec_allows {
            out.warnings.push(finding);
            if unlisted {
                out.unknown_tool = Some(UnknownToolAnswer::Spec);
            }
        } else {
            out.findings.push(finding);
        }
    } else if rpc.code == -32602 {
        out.fail(
            Layer::Schema,
            codes::VALID_INPUT_REJECTED,
            "arguments",
            format!("the recorded arguments were refused: {got}"),
        );
    } else {
        out.fail(
            Layer::Schema,
            codes::RESPONSE_MISMATCH,
            "result",
            format!("expected a result, got {got}"),
        );
    }
}

fn judge_result(
    expected: &McpResultExpectation,
    era: Era,
    result: &Value,
    tool: Option<&Listed>,
    negative: bool,
    out: &mut Judged,
) {
    if era == Era::Modern
        && let Some(kind) = result
            .get("resultType")
            .and_then(Value::as_str)
            .filter(|k| *k != "complete")
    {
        let detail = format!(
            "resultType `{kind}`: only complete results and tasks of the tasks extension are verified (input_required rounds are not)"
        );
        out.fail(
            Layer::Protocol,
            codes::RESULT_TYPE_UNSUPPORTED,
            "result.resultType",
            detail,
        );
        return;
    }
    let failed = is_error(result);
    let declares = tool.is_some_and(|t| t.get("outputSchema").is_some());
    // a "success" without the structured result the tool declares is no service
    out.served = !failed && (!declares || result.get("structuredContent").is_some());
    match (expected.is_error, failed) {
        (true, false) => {
            if !(negative && out.served) {
                let detail = "expected a tool error result (isError: true), got a success";
                out.fail(
                    Layer::Schema,
                    codes::ERROR_DISGUISED_AS_SUCCESS,
                    "$.isError",
                    detail,
                );
            }
            return;
        }
        (false, true) => {
            let text = first_text(result).unwrap_or_default();
            let detail = format!("the call failed (isError: true): {text}");
            out.fail(
                Layer::Schema,
                codes::VALID_INPUT_REJECTED,
                "$.isError",
                detail,
            );
            return;
        }
        _ => {}
    }
    let mut own = Judged::default();
    if let Some(declared) = tool.and_then(Listed::output_validator).filter(|_| !failed) {
        output_schema(declared, result, &mut own.findings);
    }
    if let Some(mine) = expected.schema.as_ref().filter(|_| !failed) {
        let taken: Vec<String> = own.findings.iter().map(|f| f.path.clone()).collect();
        let mut theirs = Vec::new();
        consumer_schema(mine, result, &mut theirs);
        own.findings
            .extend(theirs.into_iter().filter(|f| !taken.contains(&f.path)));
    }
    let refused: Vec<String> = own.findings.iter().map(|f| f.path.clone()).collect();
    examples(expected, result, out);
    out.findings.retain(|f| !refused.contains(&f.path));
    if expected.content_matches_structured {
        content_agrees(result, out);
    }
    out.findings.append(&mut own.findings);
}

/// `isError`, false when absent.
fn is_error(result: &Value) -> bool {
    result
        .get("isError")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

fn first_text(result: &Value) -> Option<String> {
    let blocks = result.get("content")?.as_array()?;
    let text = blocks.iter().find_map(|b| b.get("text")?.as_str())?;
    Some(text.chars().take(200).collect())
}

/// The expected examples under their rules (rooted at the result object).
fn examples(expected: &McpResultExpectation, result: &Value, out: &mut Judged) {
    let mut want = Map::new();
    if let Some(s) = &expected.structured_content {
        want.insert("structuredContent".into(), s.clone());
    }
    if let Some(c) = &expected.content {
        want.insert("content".into(), Value::Array(c.clone()));
    }
    if want.is_empty() {
        return;
    }
    for m in crate::body::match_keys(want, result, &expected.rules) {
        out.findings.push(Finding::from_mismatch(&m));
    }
}

/// A text block must carry the same JSON as `structuredContent`.
fn content_agrees(result: &Value, out: &mut Judged) {
    let structured = result.get("structuredContent");
    let texts = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|b| b.get("text").and_then(Value::as_str));
    let agrees = structured.is_some_and(|s| {
        texts
            .map(serde_json::from_str::<Value>)
            .any(|parsed| parsed.is_ok_and(|p| p == *s))
    });
    if !agrees {
        let detail = "no text block carries the same JSON as structuredContent";
        out.findings.push(
            Finding::new(
                Layer::Schema,
                codes::STRUCTURED_CONTENT_DISAGREES,
                "$.content",
                detail,
            )
            .values(structured.cloned(), result.get("content").cloned()),
        );
    }
}

#[cfg(test)]
#[path = "judge_tests.rs"]
mod tests;
