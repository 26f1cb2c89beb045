//! Lowering what follows an A2A send: expected errors, cancel and push
//! scenarios, follow-up operations.

use super::ast::{CancelSpec, ErrorSpec, FollowUpExpectSpec, FollowUpSpec, PushSpec};
use super::lower::{Ctx, auth};
use super::lower_a2a::{send_request, steps};
use crate::DslError;
use crate::model::accord::{
    A2aOperation, CancelScenario, ErrorExpectation, FollowUp, FollowUpOutcome, PushScenario,
    SendRequest, TaskState,
};

/// An expected error; a reason brings its JSON-RPC code.
pub(crate) fn error(cx: &Ctx<'_>, path: &str, e: &ErrorSpec) -> Result<ErrorExpectation, DslError> {
    let out = ErrorExpectation {
        code: e.code.or(e.reason.map(|r| r.json_rpc_code())),
        reason: e.reason,
        http_status: e.http_status,
        message: e.message.clone(),
        retryable: e.retryable,
    };
    if let (Some(code), Some(r)) = (e.code, e.reason)
        && code != r.json_rpc_code()
    {
        return Err(cx.err(
            path,
            format!(
                "{} has the JSON-RPC code {}, not {code}",
                r.as_str(),
                r.json_rpc_code()
            ),
        ));
    }
    if let Some(m) = &e.message {
        regex::Regex::new(m).map_err(|err| {
            cx.err(
                &format!("{path}.message"),
                format!("invalid regular expression: {err}"),
            )
        })?;
    }
    if out.code.is_none() && out.http_status.is_none() && out.message.is_none() {
        return Err(cx.err(
            path,
            "an error expectation needs `code`, `reason`, `http_status` or `message`",
        ));
    }
    Ok(out)
}

pub(crate) fn cancel(cx: &Ctx<'_>, path: &str, c: &CancelSpec) -> Result<CancelScenario, DslError> {
    if let Some(at) = c.at.filter(|s| s.0.is_terminal()) {
        return Err(cx.err(&format!("{path}.at"), format!("cannot wait for {} before cancelling: it is terminal; use a follow-up CancelTask to cancel a finished task", at.0)));
    }
    let error = c
        .error
        .as_ref()
        .map(|e| error(cx, &format!("{path}.error"), e))
        .transpose()?;
    let expect_state = c
        .expect
        .map(|s| s.0)
        .or(error.is_none().then_some(TaskState::Canceled));
    Ok(CancelScenario {
        at: c.at.map(|s| s.0),
        expect_state,
        error,
        observe_ms: c.observe_ms,
    })
}

pub(crate) fn push(cx: &Ctx<'_>, path: &str, p: &PushSpec) -> Result<PushScenario, DslError> {
    Ok(PushScenario {
        token: p.token.clone(),
        scheme: p.scheme.clone(),
        expect_states: p.expect.iter().map(|s| s.0).collect(),
        error: p
            .error
            .as_ref()
            .map(|e| error(cx, &format!("{path}.error"), e))
            .transpose()?,
    })
}

pub(crate) fn follow_up(cx: &Ctx<'_>, path: &str, f: &FollowUpSpec) -> Result<FollowUp, DslError> {
    if f.expect.is_some() == f.error.is_some() {
        return Err(cx.err(
            path,
            "a follow-up has exactly one of `expect` (the answer) and `error`",
        ));
    }
    Ok(FollowUp {
        operation: f.op,
        after: f.after.map(|s| s.0),
        auth: auth(cx, path, f.principal.as_deref(), f.credential, &[])?,
        request: follow_up_request(cx, path, f)?,
        params: f.params.clone(),
        expect: f
            .expect
            .as_ref()
            .map(|e| outcome(cx, path, f.op, e))
            .transpose()?,
        error: f
            .error
            .as_ref()
            .map(|e| error(cx, &format!("{path}.error"), e))
            .transpose()?,
    })
}

/// The message of a SendMessage / SendStreamingMessage follow-up (and
/// none for the other operations).
fn follow_up_request(
    cx: &Ctx<'_>,
    path: &str,
    f: &FollowUpSpec,
) -> Result<Option<SendRequest>, DslError> {
    let sends = matches!(
        f.op,
        A2aOperation::SendMessage | A2aOperation::SendStreamingMessage
    );
    match (&f.send, sends) {
        (Some(s), true) => Ok(Some(send_request(cx, &format!("{path}.send"), s)?)),
        (None, true) => Err(cx.err(
            path,
            format!("{} needs `send` (the message)", f.op.as_str()),
        )),
        (Some(_), false) => Err(cx.err(
            &format!("{path}.send"),
            format!("{} sends no message", f.op.as_str()),
        )),
        (None, false) => Ok(None),
    }
}

fn outcome(
    cx: &Ctx<'_>,
    path: &str,
    op: A2aOperation,
    e: &FollowUpExpectSpec,
) -> Result<FollowUpOutcome, DslError> {
    if e.contains_task.is_some() && op != A2aOperation::ListTasks {
        return Err(cx.err(
            &format!("{path}.expect.contains_task"),
            "`contains_task` belongs to ListTasks",
        ));
    }
    Ok(FollowUpOutcome {
        state: e.state.map(|s| s.0),
        steps: steps(cx, &format!("{path}.expect.events"), &e.events)?,
        contains_task: e.contains_task,
        new_task: e.new_task,
    })
}
