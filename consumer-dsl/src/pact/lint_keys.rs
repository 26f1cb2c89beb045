//! `UNKNOWN_ATTRIBUTE` (warning): a key that Accord does not know, inside an
//! object whose keys are all defined (an HTTP request or response, an MCP
//! call, an `mcpTools` entry, the `agentCard`, an A2A task's `delegation`). Such keys are kept, as
//! Pact's robustness rule asks, but a typo (`"statsu"`) would otherwise pass
//! unnoticed and check nothing; a close known name is suggested.

use serde_json::{Map, Value};

use super::lint::{LintProblem, Severity};
use super::parts::{REQUEST_KEYS, RESPONSE_KEYS};
use crate::model::{Contract, Interaction};

const MCP_CALL: &[&str] = &[
    "tool",
    "arguments",
    "matchingRules",
    "generators",
    "result",
    "error",
    "progress",
    "logs",
];
const MCP_TOOL: &[&str] = &[
    "name",
    "title",
    "description",
    "profile",
    "arguments",
    "resultFields",
    "annotations",
    "approval",
];
const DELEGATION: &[&str] = &[
    "mode",
    "allowedTools",
    "forbiddenTools",
    "forbiddenAgents",
    "budget",
    "maxDepth",
    "maxFanOut",
    "deadlineMs",
    "traceContext",
    "credential",
];
const AGENT_CARD: &[&str] = &[
    "skills",
    "defaultInputModes",
    "defaultOutputModes",
    "capabilities",
    "interfaces",
    "extensions",
    "securitySchemes",
    "signed",
];

/// The unknown keys of the contract's closed objects.
pub(super) fn check_keys(contract: &Contract, problems: &mut Vec<LintProblem>) {
    for (i, interaction) in contract.interactions.iter().enumerate() {
        let at = || format!("$.interactions[{i}]");
        match interaction {
            Interaction::Http(h) => {
                unknown(&h.request.extra, REQUEST_KEYS, problems, || {
                    format!("{}.request", at())
                });
                unknown(&h.response.extra, RESPONSE_KEYS, problems, || {
                    format!("{}.response", at())
                });
            }
            Interaction::McpToolCall(c) => unknown(&c.call.extra, MCP_CALL, problems, at),
            Interaction::A2aTask(t) => {
                if let Some(d) = &t.task.delegation {
                    unknown(&d.extra, DELEGATION, problems, || {
                        format!("{}.delegation", at())
                    });
                }
            }
            _ => {}
        }
    }
    for (i, tool) in contract.mcp_tools.iter().enumerate() {
        unknown(&tool.extra, MCP_TOOL, problems, || {
            format!("$.mcpTools[{i}]")
        });
    }
    if let Some(card) = &contract.agent_card {
        unknown(&card.extra, AGENT_CARD, problems, || "$.agentCard".into());
    }
}

/// The unknown keys of `extra`, at the path `at` gives (written only
/// when there is one: most objects have none).
fn unknown(
    extra: &Map<String, Value>,
    known: &[&str],
    problems: &mut Vec<LintProblem>,
    at: impl FnOnce() -> String,
) {
    if extra.is_empty() {
        return;
    }
    let at = at();
    for key in extra.keys() {
        let hint = crate::suggest::closest(key, known)
            .map_or_else(String::new, |k| format!("; did you mean `{k}`?"));
        let message = format!(
            "`{key}` is not an attribute Accord knows here: it is kept but checks nothing{hint}"
        );
        problems.push(LintProblem::new(
            Severity::Warning,
            "UNKNOWN_ATTRIBUTE",
            format!("{at}.{key}"),
            message,
        ));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn problems(doc: Value) -> Vec<(String, String)> {
        let c = crate::pact::from_value(&doc, "t").expect("readable");
        let mut out = Vec::new();
        check_keys(&c, &mut out);
        out.into_iter().map(|p| (p.path, p.message)).collect()
    }

    #[test]
    fn a_typo_in_a_response_is_named_with_a_suggestion() {
        let doc = json!({"consumer": {"name": "c"}, "provider": {"name": "p"},
            "interactions": [{"type": "Synchronous/HTTP", "description": "d",
                "request": {"method": "GET", "path": "/"}, "response": {"statsu": 200}}],
            "metadata": {"pactSpecification": {"version": "4.0"}}});
        let found = problems(doc);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "$.interactions[0].response.statsu");
        assert!(
            found[0].1.contains("did you mean `status`?"),
            "{}",
            found[0].1
        );
    }

    #[test]
    fn a_typo_in_a_delegation_record_is_named_with_a_suggestion() {
        let doc = json!({"consumer": {"name": "c"}, "provider": {"name": "p"},
            "interactions": [{"type": "A2A/Task", "description": "d",
                "request": {"message": {"parts": [{"text": "hi"}]}},
                "delegation": {"forbidenTools": ["t"]}}],
            "metadata": {"pactSpecification": {"version": "4.0"}}});
        let found = problems(doc);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "$.interactions[0].delegation.forbidenTools");
        assert!(
            found[0].1.contains("did you mean `forbiddenTools`?"),
            "{}",
            found[0].1
        );
    }

    #[test]
    fn known_keys_and_far_names_get_no_suggestion() {
        let doc = json!({"consumer": {"name": "c"}, "provider": {"name": "p"},
            "interactions": [{"type": "Synchronous/HTTP", "description": "d",
                "request": {"method": "GET", "path": "/", "x-team-note": "keep"}, "response": {"status": 200}}],
            "metadata": {"pactSpecification": {"version": "4.0"}}});
        let found = problems(doc);
        assert_eq!(found.len(), 1);
        assert!(!found[0].1.contains("did you mean"), "{}", found[0].1);
    }
}
