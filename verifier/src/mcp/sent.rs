//! A judged `tools/call` reply as the engine's `Sent`: the unknown-tool
//! warning graded, a missing tool or an unreadable listing said once (a
//! listing past its budget once for the endpoint), the
//! times of the answer (of a task: to its `CreateTaskResult` and to the
//! `tasks/get` that saw it end).

use super::driver::{Listing, expects_success};
use super::judge::judge;
use super::task::Followed;
use super::wire::{Era, Reply};
use crate::config::UnknownTool;
use crate::driver::Sent;
use crate::finding::{Finding, Layer, codes};
use accord_dsl::model::accord::McpToolCall;

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

/// The judged reply as the engine's `Sent`.
pub(super) fn sent(
    call: &McpToolCall,
    era: Era,
    reply: &Reply,
    listing: Option<&Listing>,
    negative: bool,
    unknown_tool: UnknownTool,
) -> Sent {
    let tool = listing.and_then(|l| l.tool(&call.tool));
    let mut judged = judge(call, era, reply, tool.as_ref(), negative);
    grade_unknown_tool(&mut judged, unknown_tool);
    match listing {
        // the call's other findings follow from the missing tool; a call
        // that expects a refusal may well meet an unlisted tool
        Some(Listing::Read(_)) if tool.is_none() && expects_success(call) && !negative => {
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
    Sent {
        findings: judged.findings,
        warnings: judged.warnings,
        ack: Some(reply.ack),
        total: ended.then_some(reply.total),
        served_unexpectedly: judged.served && call.error.is_none(),
        ..Sent::default()
    }
}
