//! Lowering `delegation:` of an `a2a:` interaction into the model's
//! [`Delegation`], and writing the same record into the send's
//! `message.metadata.delegation`, where it travels to the agent (the
//! consumer's mock judges that the orchestrator sends it; the verifier
//! sends it to the agent under test).

use std::collections::BTreeMap;

use serde_json::Map;

use super::ast::{DelegationFields, DelegationSpec};
use super::lower::Ctx;
use crate::DslError;
use crate::model::accord::{
    CredentialRule, DELEGATION_METADATA_KEY, Delegation, DelegationBudget, SendRequest, TraceRule,
};

/// The record of `{path}.delegation`, written into the request's message
/// metadata as well. A hand-written `send.metadata.delegation` beside it is
/// refused: the record would travel in two places, possibly different.
pub(crate) fn delegation(
    cx: &Ctx<'_>,
    path: &str,
    spec: Option<&DelegationSpec>,
    request: &mut SendRequest,
) -> Result<Option<Delegation>, DslError> {
    let Some(spec) = spec else {
        return Ok(None);
    };
    let at = format!("{path}.delegation");
    if request
        .metadata
        .as_ref()
        .is_some_and(|m| m.contains_key(DELEGATION_METADATA_KEY))
    {
        return Err(cx.err(
            &format!("{path}.send.metadata.{DELEGATION_METADATA_KEY}"),
            format!(
                "the delegation record is written from `{at}` into the message's metadata (message.metadata.delegation); drop this hand-written one from `{path}.send.metadata`"
            ),
        ));
    }
    let d = record(cx, &at, &spec.0)?;
    let metadata = request.message.metadata.get_or_insert_with(Map::new);
    metadata.insert(DELEGATION_METADATA_KEY.into(), d.to_metadata());
    Ok(Some(d))
}

fn record(cx: &Ctx<'_>, at: &str, f: &DelegationFields) -> Result<Delegation, DslError> {
    if f.mode.as_deref().is_some_and(|m| m.trim().is_empty()) {
        return Err(cx.err(
            &format!("{at}.mode"),
            "the mode is the policy's name (e.g. DRAFT_ONLY), not empty",
        ));
    }
    let (allowed_tools, forbidden_tools) = tools(cx, at, f)?;
    Ok(Delegation {
        mode: f.mode.clone(),
        allowed_tools,
        forbidden_tools,
        forbidden_agents: agents(cx, at, f)?,
        budget: budget(cx, at, f)?,
        max_depth: f.max_depth,
        max_fan_out: f.max_fan_out,
        deadline_ms: f.deadline_ms,
        trace_context: f.trace.map(|_| TraceRule::Propagate),
        credential: f.credential.map(|_| CredentialRule::NotForwarded),
        extra: Map::new(),
    })
}

/// `tools:` — the allowed set (if any) and the forbidden tools.
fn tools(
    cx: &Ctx<'_>,
    at: &str,
    f: &DelegationFields,
) -> Result<(Option<Vec<String>>, Vec<String>), DslError> {
    let Some(t) = &f.tools else {
        return Ok((None, Vec::new()));
    };
    if t.0.allowed.is_none() && t.0.forbidden.is_empty() {
        return Err(nothing(cx, &format!("{at}.tools"), "allowed or forbidden"));
    }
    if let Some(allowed) = &t.0.allowed {
        names(cx, &format!("{at}.tools.allowed"), allowed)?;
    }
    names(cx, &format!("{at}.tools.forbidden"), &t.0.forbidden)?;
    Ok((t.0.allowed.clone(), t.0.forbidden.clone()))
}

/// `agents:` — the forbidden agents.
fn agents(cx: &Ctx<'_>, at: &str, f: &DelegationFields) -> Result<Vec<String>, DslError> {
    let Some(a) = &f.agents else {
        return Ok(Vec::new());
    };
    if a.0.forbidden.is_empty() {
        return Err(nothing(cx, &format!("{at}.agents"), "forbidden"));
    }
    names(cx, &format!("{at}.agents.forbidden"), &a.0.forbidden)?;
    Ok(a.0.forbidden.clone())
}

fn budget(
    cx: &Ctx<'_>,
    at: &str,
    f: &DelegationFields,
) -> Result<Option<DelegationBudget>, DslError> {
    let Some(b) = &f.budget else {
        return Ok(None);
    };
    let b = &b.0;
    if b.tool_calls.is_none() && b.cost_units.is_none() && b.costs.is_empty() {
        return Err(nothing(
            cx,
            &format!("{at}.budget"),
            "tool_calls, cost_units or costs",
        ));
    }
    let tools: Vec<String> = b.costs.keys().cloned().collect();
    names(cx, &format!("{at}.budget.costs"), &tools)?;
    Ok(Some(DelegationBudget {
        tool_calls: b.tool_calls,
        cost_units: b.cost_units,
        costs: b
            .costs
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect::<BTreeMap<_, _>>(),
    }))
}

/// Tool and agent names are not blank.
fn names(cx: &Ctx<'_>, at: &str, list: &[String]) -> Result<(), DslError> {
    match list.iter().position(|n| n.trim().is_empty()) {
        Some(i) => Err(cx.err(
            &format!("{at}[{i}]"),
            "a tool or agent is named: an empty name matches no call",
        )),
        None => Ok(()),
    }
}

fn nothing(cx: &Ctx<'_>, at: &str, keys: &str) -> DslError {
    cx.err(
        at,
        format!("constrains nothing: give {keys}, or drop it (an absent key allows everything)"),
    )
}

/// The spec's field path of a lint path under `delegation` (the contract's
/// camelCase names to the spec's keys), for refusals at compile time.
pub(crate) fn spec_path(lint_path: &str) -> String {
    const NAMES: [(&str, &str); 9] = [
        (".allowedTools", ".tools.allowed"),
        (".forbiddenTools", ".tools.forbidden"),
        (".forbiddenAgents", ".agents.forbidden"),
        (".toolCalls", ".tool_calls"),
        (".costUnits", ".cost_units"),
        (".maxDepth", ".max_depth"),
        (".maxFanOut", ".max_fan_out"),
        (".deadlineMs", ".deadline_ms"),
        (".traceContext", ".trace"),
    ];
    NAMES
        .iter()
        .fold(lint_path.to_owned(), |p, (from, to)| p.replace(from, to))
}
