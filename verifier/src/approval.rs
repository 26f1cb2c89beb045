//! `approval`: an interaction that commits only with a granted approval.
//! Judged from the counters over all its sends:
//!
//! | approval | the commit counter | finding |
//! | --- | --- | --- |
//! | not granted | grew | APPROVAL_BYPASSED (authorization) |
//! | not granted, the call served | — | APPROVAL_BYPASSED (the engine's refusal judgement) |
//! | granted (and `sideEffects` silent on the counter) | did not grow | SIDE_EFFECT_DECLARATION_MISMATCH (behavior) |
//!
//! The counter is the interaction's `approval.counter`, else (MCP) the one
//! the tool's `mcpTools` entry names; neither is EXPECTATION_UNCHECKED.

use accord_dsl::model::accord::SideEffects;
use accord_dsl::{Contract, Interaction};
use serde_json::json;

use crate::finding::{Finding, Layer, codes};
use crate::observe::Counters;

/// The approval expectation with its counter resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub granted: bool,
    pub counter: String,
}

/// The interaction's approval expectation, if any: its counter, or the
/// finding that no counter is named.
pub fn resolve(
    interaction: &Interaction,
    contract: &Contract,
) -> Option<Result<Resolved, Finding>> {
    let approval = interaction.meta().expectations.approval.as_ref()?;
    let from_tool = match interaction {
        Interaction::McpToolCall(m) => contract
            .mcp_tools
            .iter()
            .find(|t| t.name == m.call.tool)
            .and_then(|t| t.approval.as_ref())
            .map(|a| a.counter.clone()),
        _ => None,
    };
    Some(match approval.counter.clone().or(from_tool) {
        Some(counter) => Ok(Resolved {
            granted: approval.granted,
            counter,
        }),
        None => Err(Finding::new(
            Layer::Authorization,
            codes::EXPECTATION_UNCHECKED,
            "approval.counter",
            "no counter counts the commits this approval guards: name it in `approval.counter` or in the tool's mcpTools `approval`",
        )),
    })
}

/// The finding of the counter's change, if any. Pure.
pub fn judge(
    approval: &Resolved,
    declared: Option<&SideEffects>,
    before: &Counters,
    after: &Counters,
) -> Option<Finding> {
    let c = &approval.counter;
    let delta = after.get(c).copied().unwrap_or(0) - before.get(c).copied().unwrap_or(0);
    if !approval.granted && delta > 0 {
        let detail =
            format!("sent without a granted approval, it committed: counter '{c}' grew by {delta}");
        return Some(
            Finding::new(Layer::Authorization, codes::APPROVAL_BYPASSED, c, detail)
                .values(Some(json!(0)), Some(json!(delta))),
        );
    }
    let silent = declared.is_none_or(|d| !d.contains_key(c));
    if approval.granted && silent && delta < 1 {
        let detail = format!(
            "sent with a granted approval, it did not commit: counter '{c}' changed by {delta}"
        );
        return Some(
            Finding::new(
                Layer::Behavior,
                codes::SIDE_EFFECT_DECLARATION_MISMATCH,
                c,
                detail,
            )
            .values(Some(json!({"min": 1})), Some(json!(delta))),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counters(n: i64) -> Counters {
        [("commits".to_owned(), n)].into_iter().collect()
    }

    fn code(granted: bool, delta: i64, declared: Option<&SideEffects>) -> Option<&'static str> {
        let a = Resolved {
            granted,
            counter: "commits".into(),
        };
        judge(&a, declared, &counters(3), &counters(3 + delta)).map(|f| f.reason_code)
    }

    #[test]
    fn without_approval_nothing_commits_with_it_something_does() {
        assert_eq!(code(false, 1, None), Some("APPROVAL_BYPASSED"));
        assert_eq!(code(false, 0, None), None);
        assert_eq!(code(true, 1, None), None);
        assert_eq!(
            code(true, 0, None),
            Some("SIDE_EFFECT_DECLARATION_MISMATCH")
        );
        // declared side effects of the counter are the engine's to judge
        let declared: SideEffects =
            serde_json::from_value(json!({"commits": 0})).unwrap_or_default();
        assert_eq!(code(true, 0, Some(&declared)), None);
    }

    #[test]
    fn the_counter_comes_from_the_interaction_else_from_the_tool() {
        let doc = |approval: serde_json::Value, tools: serde_json::Value| {
            let v = json!({"consumer": {"name": "c"}, "provider": {"name": "p"}, "mcpTools": tools,
                "interactions": [{"type": "MCP/ToolCall", "description": "d", "tool": "commit",
                    "approval": approval, "result": {"isError": true}}],
                "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}});
            accord_dsl::pact::from_value(&v, "t").ok()
        };
        let resolved = |c: Option<Contract>| {
            c.and_then(|c| resolve(&c.interactions[0], &c))
                .map(|r| r.map(|a| a.counter).map_err(|f| f.reason_code))
        };
        let tool = json!([{"name": "commit", "approval": {"counter": "commits"}}]);
        assert_eq!(
            resolved(doc(json!({"granted": false}), tool.clone())),
            Some(Ok("commits".into()))
        );
        assert_eq!(
            resolved(doc(json!({"granted": false, "counter": "writes"}), tool)),
            Some(Ok("writes".into()))
        );
        assert_eq!(
            resolved(doc(json!({"granted": false}), json!([]))),
            Some(Err("EXPECTATION_UNCHECKED"))
        );
    }
}
