//! Checks of the Accord interaction types: what a verifier needs to run an
//! `A2A/Task` or `MCP/ToolCall` at all.

use super::lint::{LintProblem, Severity};
use crate::model::Interaction;

/// Problems of interaction `i`.
pub(super) fn check_accord(i: usize, interaction: &Interaction, problems: &mut Vec<LintProblem>) {
    let at = format!("$.interactions[{i}]");
    match interaction {
        Interaction::A2aTask(t) => {
            meaningless(&at, t, problems);
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
            log_levels(&at, &c.call.logs, problems);
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

/// `MCP_LOG_LEVEL` (error): a relied-on log message at a level MCP does not
/// have: no provider could send it, nor a client ask for it.
fn log_levels(at: &str, logs: &[crate::model::accord::McpLog], problems: &mut Vec<LintProblem>) {
    for (n, log) in logs.iter().enumerate() {
        if crate::model::accord::log_severity(&log.level).is_none() {
            problems.push(LintProblem::new(
                Severity::Error,
                "MCP_LOG_LEVEL",
                format!("{at}.logs[{n}].level"),
                format!(
                    "`{}` is not an MCP log level ({})",
                    log.level,
                    crate::model::accord::LOG_LEVELS.join(", ")
                ),
            ));
        }
    }
}

/// Combinations of an `A2A/Task` that can never be judged as written:
/// warnings, the verifier reports them unchecked.
fn meaningless(
    at: &str,
    t: &crate::model::accord::A2aTaskInteraction,
    problems: &mut Vec<LintProblem>,
) {
    let e = &t.meta.expectations;
    let mut warn = |code: &'static str, path: &str, message: &str| {
        problems.push(LintProblem::new(
            Severity::Warning,
            code,
            format!("{at}{path}"),
            message.into(),
        ));
    };
    let progress = e.temporal.as_ref().and_then(|t| t.first_progress_within_ms);
    if progress.is_some() && !t.task.streaming {
        warn(
            "PROGRESS_UNOBSERVABLE",
            ".temporal.firstProgressWithinMs",
            "a blocking send shows no progress: set `streaming: true` to have the first-progress limit measured",
        );
    }
    let refused = e.refusal_expected() || t.task.error.is_some();
    let probes = e.auth.as_ref().is_some_and(|a| !a.probes.is_empty());
    if refused && probes {
        warn(
            "PROBES_WITHOUT_TASK",
            ".auth.probes",
            "the send must be refused, so no task is created for the probes to access",
        );
    }
}
