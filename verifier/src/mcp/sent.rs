//! A judged `tools/call` reply as the engine's `Sent`: the unknown-tool
//! warning graded, a missing tool or an unreadable listing said once (a
//! listing past its budget once for the endpoint), whether the answer
//! explains the counters, the
//! times of the answer (of a task: to its `CreateTaskResult` and to the
//! `tasks/get` that saw it end).

use super::driver::{Listing, expects_success};
use super::judge::judge;
use super::task::Followed;
use super::wire::{Era, Reply};
use crate::config::UnknownTool;
use crate::driver::{Exchange, Sent};
use crate::finding::{Finding, Layer, codes};
use accord_dsl::Interaction;
use accord_dsl::model::accord::McpToolCall;
use serde_json::Value;

/// The unknown-tool warning, graded by `--mcp-unknown-tool`: `spec` fails
/// the SDKs' answer and accepts the spec's, `sdk` accepts the SDKs'.
fn grade_unknown_tool(judged: &mut super::judge::Judged, mode: UnknownTool) {
    use super::judge::UnknownToolAnswer as A;
    let Some(answer) = judged.unknown_tool else {
        return;
    };
    let warning = judged.warnings.pop();
    match (mode, answer) {
        (UnknownTool::Spec, A::Sdk) => judged.findings.extend(warning),
        (UnknownTool::Spec, A::Spec) | (UnknownTool::Sdk, A::Sdk) => {}
        _ => judged.warnings.extend(warning),
    }
}

/// The consumer relies on `tool` existing: a call of the contract expects
/// it to serve, or its `mcpTools` names it. A tool error or a protocol
/// error expected of any other tool may be the consumer's expectation of
/// an unknown tool (-32602, or the SDKs' `isError: true`).
fn relied_on(tool: &str, exchange: &Exchange<'_>) -> bool {
    let serves = |i: &Interaction| match i {
        Interaction::McpToolCall(c) => {
            c.call.tool == tool
                && !c.meta.expectations.refusal_expected()
                && expects_success(&c.call)
        }
        _ => false,
    };
    exchange.mcp_tools.iter().any(|t| t.name == tool) || exchange.interactions.iter().any(serves)
}

/// The answer is a refusal: an HTTP refusal or no JSON-RPC answer, a
/// protocol error, a tool error (a task that did not end is neither).
fn refused(reply: &Reply) -> bool {
    if reply.task.as_ref().is_some_and(|t| !t.ended()) {
        return false;
    }
    match &reply.outcome {
        Ok(Ok(result)) => result.get("isError").and_then(Value::as_bool) == Some(true),
        _ => true,
    }
}

/// The judged reply as the engine's `Sent`.
pub(super) fn sent(
    call: &McpToolCall,
    era: Era,
    reply: &Reply,
    listing: Option<&Listing>,
    negative: bool,
    exchange: &Exchange<'_>,
) -> Sent {
    let tool = listing.and_then(|l| l.tool(&call.tool));
    let mut judged = judge(call, era, reply, tool, negative);
    grade_unknown_tool(&mut judged, exchange.mcp_unknown_tool);
    let success = expects_success(call) && !negative;
    match listing {
        // the call's other findings follow from the missing tool, whatever
        // it expects of it; a call that expects a refusal may well meet an
        // unlisted tool, and one that expects an error of a tool the
        // contract never relies on may be about an unknown tool
        Some(Listing::Read(_))
            if tool.is_none() && !negative && (success || relied_on(&call.tool, exchange)) =>
        {
            judged.warnings.clear();
            judged.findings = vec![Finding::new(
                Layer::Declaration,
                codes::TOOL_MISSING,
                "tool",
                format!("tools/list does not list `{}`", call.tool),
            )];
        }
        // the one finding of the endpoint, to its first reader; nothing
        // that follows from the unread rest is judged
        Some(over @ Listing::TooLarge(_)) => {
            judged.findings.extend(over.take_finding("tools/list"))
        }
        Some(Listing::Unread(why)) => {
            let detail = format!(
                "the tool list could not be read, so the outputSchema and annotations were not checked: {why}"
            );
            let f = Finding::new(
                Layer::Declaration,
                codes::EXPECTATION_UNCHECKED,
                "tool",
                detail,
            );
            // a refused caller may not list the tools either
            if negative {
                judged.warnings.push(f);
            } else {
                judged.findings.push(f);
            }
        }
        _ => {}
    }
    // a task that never ended has no completion time: its finding says so
    let ended = reply.task.as_ref().is_none_or(Followed::ended);
    // served where an error was expected, refused where a success was: the
    // answer's finding explains the counters
    let counters_explained = if success {
        refused(reply)
    } else {
        judged.served
    };
    Sent {
        findings: judged.findings,
        warnings: judged.warnings,
        ack: Some(reply.ack),
        total: ended.then_some(reply.total),
        // (the engine reports a served negative call, whatever error it
        // expected)
        served_unexpectedly: judged.served && !success,
        counters_explained,
        ..Sent::default()
    }
}
