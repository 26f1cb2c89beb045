//! Checks of the Accord interaction types: what a verifier needs to run an
//! `A2A/Task` or `MCP/ToolCall` at all.

use super::lint::{LintProblem, Severity};
use crate::model::Interaction;

/// Problems of interaction `i`.
pub(super) fn check_accord(i: usize, interaction: &Interaction, problems: &mut Vec<LintProblem>) {
    let at = format!("$.interactions[{i}]");
    match interaction {
        Interaction::A2aTask(t) => {
            for (suffix, part) in t.task.part_expectations() {
                let Some(schema) = &part.schema else { continue };
                if let Err(why) = crate::schema::compile(schema) {
                    problems.push(LintProblem::new(
                        Severity::Error,
                        "INVALID_SCHEMA",
                        format!("{at}{suffix}.schema"),
                        format!("not a usable JSON Schema 2020-12: {why}"),
                    ));
                }
            }
        }
        Interaction::McpToolCall(c) => {
            let schema = c.call.result.as_ref().and_then(|r| r.schema.as_ref());
            if let Some(Err(why)) = schema.map(crate::schema::compile) {
                problems.push(LintProblem::new(
                    Severity::Error,
                    "INVALID_SCHEMA",
                    format!("{at}.result.schema"),
                    format!("not a usable JSON Schema 2020-12: {why}"),
                ));
            }
            let (code, message) = match (&c.call.result, &c.call.error) {
                (None, None) => (
                    "MCP_NO_EXPECTATION",
                    "a tool call expects neither a result nor an error: nothing could be checked",
                ),
                (Some(_), Some(_)) => (
                    "MCP_RESULT_AND_ERROR",
                    "a tool call expects both a result and a protocol error; give one",
                ),
                _ => return,
            };
            problems.push(LintProblem::new(
                Severity::Error,
                code,
                format!("{at}.result"),
                message.into(),
            ));
        }
        _ => {}
    }
}
