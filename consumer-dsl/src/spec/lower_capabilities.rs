//! The A2A interactions against the capabilities the consumer says the
//! agent does not declare: A2A v1.0 (§3.3.4) makes the agent refuse the
//! operations that need them, so a contract expecting them to succeed
//! contradicts its own agent-card expectations.

use super::lower::Ctx;
use crate::model::accord::{A2aOperation, A2aTask, AgentCapabilitiesExpectation};
use crate::{Contract, DslError, Interaction};

/// Refuses an operation expected to succeed that needs a capability the
/// `agent_card` sets to false.
pub(crate) fn check(cx: &Ctx<'_>, contract: &Contract) -> Result<(), DslError> {
    let Some(caps) = contract.agent_card.as_ref().and_then(|c| c.capabilities) else {
        return Ok(());
    };
    for (i, it) in contract.interactions.iter().enumerate() {
        let Interaction::A2aTask(a) = it else {
            continue;
        };
        for (field, op) in succeeding_operations(&a.task) {
            check_one(cx, &format!("interactions[{i}]{field}"), &caps, op)?;
        }
    }
    Ok(())
}

fn check_one(
    cx: &Ctx<'_>,
    path: &str,
    caps: &AgentCapabilitiesExpectation,
    op: A2aOperation,
) -> Result<(), DslError> {
    match op.required_capability() {
        Some((name, reason)) if caps.get(name) == Some(false) => Err(cx.err(
            path,
            format!(
                "agent_card says `{name}` is not declared, so A2A v1.0 refuses {} with {}: expect that error or drop `{name}: false`",
                op.as_str(),
                reason.as_str()
            ),
        )),
        _ => Ok(()),
    }
}

/// The operations of an interaction that are expected to succeed, with
/// the field (relative to the interaction) that asks for each.
fn succeeding_operations(t: &A2aTask) -> Vec<(String, A2aOperation)> {
    let mut ops = Vec::new();
    if t.error.is_none() {
        let send = if t.streaming {
            A2aOperation::SendStreamingMessage
        } else {
            A2aOperation::SendMessage
        };
        ops.push((".send".to_string(), send));
    }
    if t.push.as_ref().is_some_and(|p| p.error.is_none()) {
        ops.push((
            ".push".to_string(),
            A2aOperation::CreateTaskPushNotificationConfig,
        ));
    }
    for (i, f) in t.follow_ups.iter().enumerate() {
        if f.expect.is_some() {
            ops.push((format!(".follow_ups[{i}]"), f.operation));
        }
    }
    ops
}
