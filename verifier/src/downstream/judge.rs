//! Pure: one interaction's downstream calls against its delegation record,
//! the trace it started and the credentials the verifier holds. One fault,
//! one finding: each rule reports once per interaction, at the first call
//! that broke it; a call found forbidden is not also reported as outside
//! its dependency's contract, nor counted as a re-delegation.

use std::time::Instant;

use accord_dsl::model::accord::{CredentialRule, Delegation, TraceRule};
use serde_json::json;

use super::{DownstreamCall, DownstreamEntry};
use crate::canary::Canaries;
use crate::finding::{Finding, Layer, codes};

/// What an interaction's downstream calls are judged against.
#[derive(Debug)]
pub struct Judged<'a> {
    pub delegation: Option<&'a Delegation>,
    /// The interaction's trace id (32 hex).
    pub trace_id: &'a str,
    /// The ids of the tasks and contexts it created.
    pub task_ids: &'a [String],
    /// Every credential the verifier held for the interaction.
    pub canaries: &'a Canaries,
    /// The provider under test is an MCP server (MCP forbids token
    /// passthrough: its credential rule holds without a delegation).
    pub mcp_server: bool,
    /// The MCP tool the interaction called claims `readOnlyHint`.
    pub read_only_tool: Option<&'a str>,
    /// When the interaction's first send went out.
    pub sent_at: Instant,
    /// When its cancel was acknowledged (an interaction with `cancel`).
    pub cancel_acked: Option<Instant>,
}

/// The findings and the observed chain of `calls`.
pub fn judge(j: &Judged<'_>, calls: &[DownstreamCall]) -> (Vec<Finding>, Vec<DownstreamEntry>) {
    let mut out = Out::default();
    let mut tally = Tally::default();
    for call in calls {
        // a forbidden call, or a read-only tool's write, is that one finding
        let forbidden = j
            .delegation
            .and_then(|d| forbidden(d, call))
            .or_else(|| read_only(j, call));
        match forbidden {
            Some(f) => out.push(f),
            None => {
                if let Some(why) = &call.mismatch {
                    let detail = format!(
                        "{} {} is not allowed by the provider's own contract with `{}`: {why}",
                        call.kind(),
                        call.name(),
                        call.dependency
                    );
                    let path = format!("dependencies.{}", call.dependency);
                    out.once(Finding::new(
                        Layer::Behavior,
                        codes::DOWNSTREAM_CONTRACT_BROKEN,
                        path,
                        detail,
                    ));
                }
                if let Some(d) = j.delegation {
                    out.extend(depth(d, call, &mut tally));
                }
            }
        }
        if let Some(d) = j.delegation {
            out.extend(budget(d, call, &mut tally));
            out.extend(deadline(d, call, j.sent_at));
        }
        out.extend(credential(j, call));
        out.extend(trace(j, call));
        out.extend(after_cancel(j, call));
    }
    let chain = calls.iter().map(|c| entry(j, c)).collect();
    (out.0, chain)
}

/// Findings, each (code, path) once.
#[derive(Default)]
struct Out(Vec<Finding>);

impl Out {
    fn once(&mut self, f: Finding) {
        let seen = self
            .0
            .iter()
            .any(|g| g.reason_code == f.reason_code && g.path == f.path);
        if !seen {
            self.0.push(f);
        }
    }

    fn push(&mut self, f: Finding) {
        self.once(f);
    }

    fn extend(&mut self, fs: impl IntoIterator<Item = Finding>) {
        for f in fs {
            self.once(f);
        }
    }
}

/// What the calls so far added up to.
#[derive(Default)]
struct Tally {
    tool_calls: u64,
    cost: u64,
    sends: u64,
}

fn forbidden(d: &Delegation, call: &DownstreamCall) -> Option<Finding> {
    let finding = |path: String, detail: String| {
        Finding::new(
            Layer::Behavior,
            codes::DELEGATION_FORBIDDEN_ACTION,
            path,
            detail,
        )
    };
    if let Some(tool) = call.tool() {
        if let Some(i) = d.forbidden_tools.iter().position(|t| t == tool) {
            let detail = format!(
                "the provider called the forbidden tool `{tool}` on `{}`",
                call.dependency
            );
            return Some(finding(format!("delegation.forbiddenTools[{i}]"), detail));
        }
        if !d.tool_allowed(tool) {
            let detail = format!(
                "the provider called `{tool}` on `{}`, which is not among the allowed tools",
                call.dependency
            );
            return Some(finding("delegation.allowedTools".into(), detail));
        }
    }
    if call.is_a2a_send() {
        let i = d.forbidden_agents.iter().position(|a| {
            a == &call.dependency || call.header("host").is_some_and(|h| a.contains(h))
        })?;
        let detail = format!(
            "the provider delegated to the forbidden agent `{}`",
            call.dependency
        );
        return Some(finding(format!("delegation.forbiddenAgents[{i}]"), detail));
    }
    None
}

fn budget(d: &Delegation, call: &DownstreamCall, t: &mut Tally) -> Vec<Finding> {
    let (Some(b), Some(tool)) = (&d.budget, call.tool()) else {
        return Vec::new();
    };
    t.tool_calls += 1;
    t.cost += d.cost_of(tool);
    let mut out = Vec::new();
    if let Some(max) = b.tool_calls
        && t.tool_calls == u64::from(max) + 1
    {
        let detail = format!(
            "tool call {} (`{tool}`) is past the budget of {max}",
            t.tool_calls
        );
        out.push(
            Finding::new(
                Layer::Behavior,
                codes::DELEGATION_BUDGET_EXCEEDED,
                "delegation.budget.toolCalls",
                detail,
            )
            .values(Some(json!(max)), Some(json!(t.tool_calls))),
        );
    }
    if let Some(max) = b.cost_units
        && t.cost > max
        && t.cost - d.cost_of(tool) <= max
    {
        let detail = format!(
            "`{tool}` brought the cost to {} units, past the budget of {max}",
            t.cost
        );
        out.push(
            Finding::new(
                Layer::Behavior,
                codes::DELEGATION_BUDGET_EXCEEDED,
                "delegation.budget.costUnits",
                detail,
            )
            .values(Some(json!(max)), Some(json!(t.cost))),
        );
    }
    out
}

fn depth(d: &Delegation, call: &DownstreamCall, t: &mut Tally) -> Vec<Finding> {
    if !call.is_a2a_send() {
        return Vec::new();
    }
    t.sends += 1;
    let finding = |path: &str, detail: String| {
        Finding::new(
            Layer::Behavior,
            codes::DELEGATION_DEPTH_EXCEEDED,
            path,
            detail,
        )
    };
    let mut out = Vec::new();
    match d.max_depth {
        Some(0) => out.push(finding(
            "delegation.maxDepth",
            format!(
                "the provider re-delegated to `{}` where maxDepth is 0",
                call.dependency
            ),
        )),
        Some(n) => {
            let carried = match &call.surface {
                super::Surface::A2a {
                    metadata: Some(m), ..
                } => Delegation::from_metadata(m).and_then(|r| r.max_depth),
                _ => None,
            };
            if carried.is_none_or(|c| c > n - 1) {
                let said = carried.map_or("no maxDepth".to_owned(), |c| format!("maxDepth {c}"));
                let detail = format!(
                    "the message re-delegated to `{}` carries {said}; at most {} may go on",
                    call.dependency,
                    n - 1
                );
                out.push(finding("delegation.maxDepth", detail));
            }
        }
        None => {}
    }
    if let Some(max) = d.max_fan_out
        && t.sends == u64::from(max) + 1
    {
        let detail = format!("downstream task {} is past maxFanOut {max}", t.sends);
        out.push(finding("delegation.maxFanOut", detail));
    }
    out
}

fn deadline(d: &Delegation, call: &DownstreamCall, sent_at: Instant) -> Option<Finding> {
    let max = d.deadline_ms?;
    let after = millis(call.at.saturating_duration_since(sent_at));
    (after > max).then(|| {
        let detail = format!(
            "{} {} reached `{}` {after} ms after the send, past the {max} ms deadline",
            call.kind(),
            call.name(),
            call.dependency
        );
        Finding::new(
            Layer::Temporal,
            codes::DELEGATION_DEADLINE_EXCEEDED,
            "delegation.deadlineMs",
            detail,
        )
        .values(Some(json!(max)), Some(json!(after)))
    })
}

/// Downstream work the provider started after it acknowledged the cancel.
fn after_cancel(j: &Judged<'_>, call: &DownstreamCall) -> Option<Finding> {
    let acked = j.cancel_acked?;
    let after = millis(call.at.checked_duration_since(acked)?);
    let detail = format!(
        "{} {} reached `{}` {after} ms after the cancel was acknowledged",
        call.kind(),
        call.name(),
        call.dependency
    );
    Some(Finding::new(
        Layer::Temporal,
        codes::SIDE_EFFECT_AFTER_CANCEL,
        "cancel",
        detail,
    ))
}

fn credential(j: &Judged<'_>, call: &DownstreamCall) -> Vec<Finding> {
    let rule = j
        .delegation
        .and_then(|d| d.credential)
        .is_some_and(|c| c == CredentialRule::NotForwarded);
    if !rule && !j.mcp_server {
        return Vec::new();
    }
    let path = if rule {
        "delegation.credential"
    } else {
        "auth"
    };
    let mut out = Vec::new();
    for (_, value) in &call.headers {
        for who in j.canaries.found_in(value.as_bytes()) {
            let detail = format!(
                "{who} was presented to the dependency `{}` ({} {})",
                call.dependency,
                call.kind(),
                call.name()
            );
            out.push(Finding::new(
                Layer::Authorization,
                codes::CREDENTIAL_FORWARDED,
                path,
                detail,
            ));
        }
    }
    out
}

fn trace(j: &Judged<'_>, call: &DownstreamCall) -> Option<Finding> {
    let propagate = j.delegation.and_then(|d| d.trace_context) == Some(TraceRule::Propagate);
    if !propagate || continues(j, call) {
        return None;
    }
    let parent = call.header("traceparent");
    let id = parent.and_then(crate::trace::trace_id_of);
    let reused = id.and_then(|id| j.task_ids.iter().find(|t| made_from(id, t)));
    let path = "delegation.traceContext";
    Some(match reused {
        Some(task) => Finding::new(
            Layer::Trace,
            codes::TRACE_ID_REUSED,
            path,
            format!(
                "the trace id sent to `{}` is made from the task or context id `{task}`",
                call.dependency
            ),
        ),
        None => {
            let said = parent.map_or("no traceparent".to_owned(), |p| {
                format!("traceparent `{p}`")
            });
            let detail = format!(
                "{} {} reached `{}` with {said}, not continuing trace {}",
                call.kind(),
                call.name(),
                call.dependency,
                j.trace_id
            );
            Finding::new(Layer::Trace, codes::TRACE_CONTEXT_BROKEN, path, detail)
        }
    })
}

/// The trace id is the id's hex (a UUID without dashes) or contains it.
fn made_from(trace_id: &str, task_id: &str) -> bool {
    let hex: String = task_id
        .chars()
        .filter(char::is_ascii_hexdigit)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    hex.len() >= 16 && (trace_id.contains(&hex) || hex.contains(trace_id))
}

fn read_only(j: &Judged<'_>, call: &DownstreamCall) -> Option<Finding> {
    let tool = j.read_only_tool?;
    let write = match &call.surface {
        super::Surface::Http => !matches!(call.method.as_str(), "GET" | "HEAD" | "OPTIONS"),
        super::Surface::Mcp { .. } => call.tool().is_some(),
        super::Surface::A2a { .. } => call.is_a2a_send(),
    };
    write.then(|| {
        let detail = format!(
            "`{tool}` claims readOnlyHint but wrote downstream: {} {} on `{}`",
            call.kind(),
            call.name(),
            call.dependency
        );
        Finding::new(
            Layer::Behavior,
            codes::SIDE_EFFECT_DECLARATION_MISMATCH,
            "annotations.readOnlyHint",
            detail,
        )
    })
}

fn continues(j: &Judged<'_>, call: &DownstreamCall) -> bool {
    call.header("traceparent")
        .and_then(crate::trace::trace_id_of)
        .is_some_and(|id| id == j.trace_id)
}

fn entry(j: &Judged<'_>, call: &DownstreamCall) -> DownstreamEntry {
    DownstreamEntry {
        dependency: call.dependency.clone(),
        kind: call.kind(),
        name: call.name(),
        at_ms: millis(call.at.saturating_duration_since(j.sent_at)),
        traceparent: call.header("traceparent").map(str::to_owned),
        continues_trace: continues(j, call),
    }
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
#[path = "judge_tests.rs"]
mod tests;
