//! The static cross-check (issue 25): what a live consumer's contract
//! finds in a provider's declaration (an Agent Card, or one `tools/list`
//! result) before any replay — the declaration-layer findings of the very
//! checks a replay runs on what it read (`check_card`, `check_tool`), plus
//! the skills and tools the contract's interactions use (SKILL_MISSING,
//! TOOL_MISSING). The broker stores
//! the result as a static verification; `attribute` uses the same findings
//! to say which consumers a breaking change affects.

use accord_dsl::model::accord::{McpToolCallInteraction, McpToolExpectation};
use accord_dsl::model::{Contract, Interaction};
use serde_json::Value;

use super::Kind;
use super::tools::by_name;
use crate::a2a::card::check_card;
use crate::finding::{Finding, Layer, codes};
use crate::mcp::driver::expects_success;
use crate::mcp::surface::check_tool;

/// Every declaration-layer finding of `contract` against `declared` (of
/// `kind`), as replay's declaration layer gives them for the same card or
/// listing: `check_card` and `check_tool` on the contract's expectations,
/// SKILL_MISSING for a skill a task addresses, TOOL_MISSING for a call
/// that expects the tool to answer (not an error, not a refusal). Empty:
/// the declaration gives the consumer everything it expects and uses. A
/// contract that expects nothing of this kind (an HTTP contract, or tools
/// judged against a card) finds nothing.
pub fn static_check(kind: Kind, declared: &Value, contract: &Contract) -> Vec<Finding> {
    match kind {
        Kind::McpTools => tool_findings(declared, contract, &|_| true, Mode::Replay),
        Kind::AgentCard => card_findings(declared, contract),
    }
}

/// What a call not in `mcpTools` is judged on.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// As replay: TOOL_MISSING only for a call expected to succeed.
    Replay,
    /// As the classification attributes a change: any call uses the tool,
    /// and a required input it does not send breaks it.
    Attribution,
}

/// The findings `attribute` matches changes with, the contract's
/// `mcpTools` expectations limited to those `relevant` names
/// (`mcpTools[name]`).
pub(super) fn findings(
    kind: Kind,
    new: &Value,
    contract: &Contract,
    relevant: &dyn Fn(&str) -> bool,
) -> Vec<Finding> {
    match kind {
        Kind::McpTools => tool_findings(new, contract, relevant, Mode::Attribution),
        Kind::AgentCard => card_findings(new, contract),
    }
}

fn tool_findings(
    new: &Value,
    contract: &Contract,
    relevant: &dyn Fn(&str) -> bool,
    mode: Mode,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let listed = by_name(new);
    let touched = |e: &&McpToolExpectation| relevant(&format!("mcpTools[{}]", e.name));
    for expect in contract.mcp_tools.iter().filter(touched) {
        out.extend(check_tool(
            expect,
            listed.get(expect.name.as_str()).copied(),
        ));
    }
    let declared = |t: &str| contract.mcp_tools.iter().any(|e| e.name == t);
    let judged = |c: &&McpToolCallInteraction| {
        !declared(&c.call.tool)
            && (mode == Mode::Attribution
                || (expects_success(&c.call) && !c.meta.expectations.refusal_expected()))
    };
    let mut seen: Vec<&str> = Vec::new();
    for call in tool_calls(contract).filter(judged) {
        let tool = call.call.tool.as_str();
        let at = format!("mcpTools[{tool}]");
        let Some(listed) = listed.get(tool) else {
            if !seen.contains(&tool) {
                seen.push(tool);
                let detail = format!("an interaction calls `{tool}`; tools/list does not list it");
                out.push(Finding::new(
                    Layer::Declaration,
                    codes::TOOL_MISSING,
                    at,
                    detail,
                ));
            }
            continue;
        };
        if mode == Mode::Attribution {
            required_inputs(listed, call, &at, &mut out);
        }
    }
    out
}

/// A required input of `listed` the call does not send.
fn required_inputs(
    listed: &Value,
    call: &McpToolCallInteraction,
    at: &str,
    out: &mut Vec<Finding>,
) {
    let required = listed["inputSchema"]["required"]
        .as_array()
        .into_iter()
        .flatten();
    for name in required
        .filter_map(Value::as_str)
        .filter(|n| !call.call.arguments.contains_key(*n))
    {
        let detail = format!(
            "`{}` requires the input `{name}`; an interaction calls it without",
            call.call.tool
        );
        out.push(Finding::new(
            Layer::Declaration,
            codes::BREAKING_REQUIRED_INPUT_ADDED,
            format!("{at}.arguments.{name}"),
            detail,
        ));
    }
}

fn card_findings(new: &Value, contract: &Contract) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(expect) = &contract.agent_card {
        out.extend(check_card(expect, new));
    }
    let declared: Vec<&str> = new["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["id"].as_str())
        .collect();
    let mut seen: Vec<&str> = Vec::new();
    for skill in skills_used(contract).filter(|s| !declared.contains(s)) {
        if seen.contains(&skill) {
            continue;
        }
        seen.push(skill);
        let detail =
            format!("an interaction asks for the skill `{skill}`; the card does not list it");
        out.push(Finding::new(
            Layer::Declaration,
            codes::SKILL_MISSING,
            format!("agentCard.skills[{skill}]"),
            detail,
        ));
    }
    out
}

fn tool_calls(contract: &Contract) -> impl Iterator<Item = &McpToolCallInteraction> {
    contract.interactions.iter().filter_map(|i| match i {
        Interaction::McpToolCall(c) => Some(c),
        _ => None,
    })
}

/// The tool calls of the contract's interactions, with their arguments.
pub(super) fn calls(
    contract: &Contract,
) -> impl Iterator<Item = (&str, &serde_json::Map<String, Value>)> {
    contract.interactions.iter().filter_map(|i| match i {
        Interaction::McpToolCall(c) => Some((c.call.tool.as_str(), &c.call.arguments)),
        _ => None,
    })
}

/// The skills the contract's A2A tasks ask for.
pub(super) fn skills_used(contract: &Contract) -> impl Iterator<Item = &str> {
    contract.interactions.iter().filter_map(|i| match i {
        Interaction::A2aTask(t) => t.task.skill.as_deref(),
        _ => None,
    })
}
