//! Attribution: with stand-ins served, interactions run one at a time (the
//! replay holds the run-wide lock), so every call the stand-ins record
//! between an interaction's first send and the end of its judgement is
//! that interaction's. Calls that arrived before it (during its state
//! setup, or between interactions) belong to none: a warning.

use std::time::Instant;

use accord_dsl::{Contract, Interaction};

use super::{Downstream, DownstreamEntry, Judged, judge};
use crate::canary::Canaries;
use crate::finding::{Finding, Layer, codes};

/// An interaction's window on the stand-ins, opened at its first send.
pub(crate) struct Window {
    pub(crate) sent_at: Instant,
    /// Warnings for calls that arrived outside any interaction.
    pub(crate) outside: Vec<Finding>,
}

/// Without stand-ins, an interaction's delegation record cannot be judged:
/// a warning saying so (the record still travels to the agent), never a
/// silent pass.
pub(crate) fn unobserved(interaction: &Interaction) -> Option<Finding> {
    let Interaction::A2aTask(t) = interaction else {
        return None;
    };
    t.task.delegation.as_ref()?;
    Some(Finding::new(
        Layer::Behavior,
        codes::EXPECTATION_UNCHECKED,
        "delegation",
        "the delegation record was not checked: no stand-in was served for the provider's \
         dependencies, so nothing it did downstream was seen (serve them with \
         `--dependency NAME=CONTRACT` or `--dependencies-from-broker`)",
    ))
}

/// Opens the window: what arrived before it is no interaction's.
pub(crate) fn open(downstream: &Downstream) -> Window {
    let early = downstream.log.take();
    let outside = match early.first() {
        None => Vec::new(),
        Some(first) => vec![Finding::new(
            Layer::Behavior,
            codes::DOWNSTREAM_OUTSIDE_INTERACTION,
            format!("dependencies.{}", first.dependency),
            format!(
                "{} downstream call(s) arrived outside any interaction (before this one's first send; the first: {} {} on `{}`): they are attributed to none",
                early.len(),
                first.kind(),
                first.name(),
                first.dependency
            ),
        )],
    };
    Window {
        sent_at: Instant::now(),
        outside,
    }
}

/// Closes the window: the calls that arrived in it, judged.
pub(crate) fn close(
    downstream: &Downstream,
    window: &Window,
    interaction: &Interaction,
    contract: &Contract,
    canaries: &Canaries,
) -> (Vec<Finding>, Vec<DownstreamEntry>) {
    let calls = downstream.log.take();
    let trace = crate::trace::current();
    let trace_id = trace
        .as_ref()
        .map_or(String::new(), |t| t.trace_id().to_owned());
    let task_ids = trace
        .as_ref()
        .map(crate::trace::Trace::task_ids)
        .unwrap_or_default();
    let (delegation, mcp_tool) = match interaction {
        Interaction::A2aTask(it) => (it.task.delegation.as_ref(), None),
        Interaction::McpToolCall(it) => (None, Some(it.call.tool.as_str())),
        _ => (None, None),
    };
    let read_only_tool = mcp_tool.filter(|tool| {
        contract.mcp_tools.iter().any(|t| {
            t.name == *tool
                && t.annotations
                    .as_ref()
                    .and_then(|a| a.read_only_hint)
                    .unwrap_or(false)
        })
    });
    let judged = Judged {
        delegation,
        trace_id: &trace_id,
        task_ids: &task_ids,
        canaries,
        mcp_server: mcp_tool.is_some(),
        read_only_tool,
        sent_at: window.sent_at,
        cancel_acked: trace.as_ref().and_then(crate::trace::Trace::cancel_acked),
    };
    judge(&judged, &calls)
}
