//! Each capability of the spec language, said without code, and the errors
//! for bad input.

use serde_json::json;

use super::{NoSchemaFiles, compile_spec};
use crate::model::accord::{
    A2aErrorReason, A2aOperation, A2aTaskInteraction, CounterChange, Credential,
    McpToolCallInteraction, RepeatJudgement, TaskState, TaskStep,
};
use crate::{Contract, DslError, Interaction};

pub(super) const HEAD: &str = "consumer: orchestrator\nprovider: planning-agent\nprincipals:\n  alice: { tenant: tenant-a }\n  bob: { tenant: tenant-b }\ninteractions:\n";

pub(super) fn compile(interactions: &str) -> Contract {
    let text = format!("{HEAD}{interactions}");
    compile_spec(&text, "test.yaml", &NoSchemaFiles).unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn refuse(text: &str) -> DslError {
    compile_spec(text, "bad.yaml", &NoSchemaFiles).expect_err("must be refused")
}

pub(super) fn a2a(c: &Contract) -> &A2aTaskInteraction {
    match c.interactions.first() {
        Some(Interaction::A2aTask(t)) => t,
        other => panic!("not an A2A task: {other:?}"),
    }
}

pub(super) fn mcp(c: &Contract) -> &McpToolCallInteraction {
    match c.interactions.first() {
        Some(Interaction::McpToolCall(t)) => t,
        other => panic!("not an MCP call: {other:?}"),
    }
}

mod a2a;
mod a2a_follow_up;
mod a2a_protocol;
mod delegation;
mod general;
mod mcp_card;
mod refusals;

/// Asserts that `text` is refused with an error naming every one of `needles`.
pub(super) fn refused_with(text: &str, needles: &[&str]) {
    let msg = refuse(text).to_string();
    for n in needles {
        assert!(msg.contains(n), "`{msg}` lacks `{n}`\nin:\n{text}");
    }
}
