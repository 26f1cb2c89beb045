//! Lowering what follows an A2A send: expected errors, cancel and push
//! scenarios, follow-up operations.

use super::ast::{CancelSpec, ErrorSpec, FollowUpExpectSpec, FollowUpSpec, PushSpec};
use super::lower::{Ctx, auth};
use super::lower_a2a::send_request;
use super::lower_a2a_steps::steps;
use super::lower_expect;
use crate::DslError;
use serde_json::{Map, Value};

use crate::model::accord::{
    A2aOperation, CancelScenario, ErrorExpectation, FollowUp, FollowUpOutcome, PushScenario,
    SendRequest, TaskState, UnknownTaskState,
};

/// An expected error; a reason brings its JSON-RPC code.
pub(crate) fn error(cx: &Ctx<'_>, path: &str, e: &ErrorSpec) -> Result<ErrorExpectation, DslError> {
    let out = ErrorExpectation {
        code: e.code.or(e.reason.map(|r| r.json_rpc_code())),
        reason: e.reason,
        http_status: e.http_status,
        message: e.message.clone(),
        retryable: e.retryable,
        data: None,
    };
    if e.data.is_some() {
        return Err(cx.err(
            &format!("{path}.data"),
            "`data` is the data of an MCP protocol error; A2A errors are told apart by `reason`",
        ));
    }
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
        crate::matching::SearchRegex::new(m).map_err(|err| {
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

/// A follow-up; `ended` is the state the task is in once the main
/// sequence (and its cancel) is over, when the contract says it.
pub(crate) fn follow_up(
    cx: &Ctx<'_>,
    path: &str,
    f: &FollowUpSpec,
    ended: Option<TaskState>,
) -> Result<FollowUp, DslError> {
    if f.expect.is_some() == f.error.is_some() {
        return Err(cx.err(
            path,
            "a follow-up has exactly one of `expect` (the answer) and `error`",
        ));
    }
    check_on_terminal(cx, path, f, f.after.map(|s| s.0).or(ended))?;
    Ok(FollowUp {
        operation: f.op,
        after: f.after.map(|s| s.0),
        auth: auth(cx, path, f.principal.as_deref(), f.credential, &[])?,
        request: follow_up_request(cx, path, f)?,
        params: follow_up_params(cx, &format!("{path}.params"), f.op, &f.params)?,
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
        side_effects: f.side_effects.as_ref().map(lower_expect::side_effects),
        temporal: f
            .within
            .as_ref()
            .map(|w| lower_expect::follow_up_within(cx, path, w))
            .transpose()?,
    })
}

/// A2A v1.0 refuses messages, subscriptions and cancels on a terminal
/// task: a follow-up that expects them to succeed asks for a protocol
/// violation. A send may instead start a new task (`new_task: true`).
fn check_on_terminal(
    cx: &Ctx<'_>,
    path: &str,
    f: &FollowUpSpec,
    state: Option<TaskState>,
) -> Result<(), DslError> {
    let (Some(state), Some(expect)) = (state.filter(|s| s.is_terminal()), &f.expect) else {
        return Ok(());
    };
    let Some(reason) = f.op.refused_on_terminal_task() else {
        return Ok(());
    };
    let sends = is_send(f.op);
    if sends && expect.new_task == Some(true) {
        return Ok(());
    }
    let or_new = if sends {
        ", or `new_task: true` to start a new task in the same context"
    } else {
        ""
    };
    let reason = reason.as_str();
    Err(cx.err(
        &format!("{path}.expect"),
        format!(
            "A2A v1.0 refuses {} on a {state} task with {reason}: write `error: {{ reason: {reason} }}`{or_new}",
            f.op.as_str()
        ),
    ))
}

/// SendMessage or SendStreamingMessage.
fn is_send(op: A2aOperation) -> bool {
    matches!(
        op,
        A2aOperation::SendMessage | A2aOperation::SendStreamingMessage
    )
}

/// The extra params of a follow-up, checked against the names A2A v1.0
/// gives them; a ListTasks `status` is written as its wire name.
fn follow_up_params(
    cx: &Ctx<'_>,
    path: &str,
    op: A2aOperation,
    params: &Map<String, Value>,
) -> Result<Map<String, Value>, DslError> {
    let mut out = params.clone();
    for (k, v) in params {
        let allowed = op.params();
        if !allowed.contains(&k.as_str()) {
            return Err(cx.err(
                &format!("{path}.{k}"),
                match allowed {
                    [] => format!("{} takes no params", op.as_str()),
                    _ => format!("{} takes {}", op.as_str(), allowed.join(", ")),
                },
            ));
        }
        if let Some(fixed) =
            param_value(op, k, v).map_err(|why| cx.err(&format!("{path}.{k}"), why))?
        {
            out.insert(k.clone(), fixed);
        }
    }
    Ok(out)
}

/// Checks a param's value; `Some` replaces it (a state as its wire name).
fn param_value(op: A2aOperation, key: &str, v: &Value) -> Result<Option<Value>, String> {
    match key {
        "status" if op == A2aOperation::ListTasks => {
            let name = v.as_str().unwrap_or_default();
            let state: TaskState = name.parse().map_err(|e: UnknownTaskState| e.to_string())?;
            Ok(Some(Value::from(state.as_str())))
        }
        "pageSize" if !v.as_u64().is_some_and(|n| (1..=100).contains(&n)) => {
            Err("`pageSize` is an integer from 1 to 100".into())
        }
        "historyLength" if v.as_u64().is_none() => {
            Err("`historyLength` is a non-negative integer (0: no history)".into())
        }
        "includeArtifacts" if !v.is_boolean() => Err("`includeArtifacts` is true or false".into()),
        _ => Ok(None),
    }
}

/// The message of a SendMessage / SendStreamingMessage follow-up (and
/// none for the other operations).
fn follow_up_request(
    cx: &Ctx<'_>,
    path: &str,
    f: &FollowUpSpec,
) -> Result<Option<SendRequest>, DslError> {
    if f.send.as_ref().is_some_and(|s| s.a2a_version.is_some()) {
        return Err(cx.err(
            &format!("{path}.send.a2a_version"),
            "a follow-up speaks the pinned A2A version; test another version on an interaction's `send`",
        ));
    }
    match (&f.send, is_send(f.op)) {
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
    if e.new_task.is_some() && !is_send(op) {
        return Err(cx.err(
            &format!("{path}.expect.new_task"),
            "`new_task` belongs to SendMessage and SendStreamingMessage",
        ));
    }
    Ok(FollowUpOutcome {
        state: e.state.map(|s| s.0),
        steps: steps(cx, &format!("{path}.expect.events"), &e.events)?,
        contains_task: e.contains_task,
        new_task: e.new_task,
    })
}
