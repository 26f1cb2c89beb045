//! Lowering `a2a:` interactions: the message sent, the expected events,
//! the expected error, cancel and push scenarios and follow-ups.

use serde_json::{Map, Value};

use super::PactPath;
use super::ast::{A2aSpec, PartSpec, ResponseName, SendSpec};
use super::lower::{Ctx, body_rules};
use super::lower_a2a_flow::{cancel, error, follow_up, push};
use super::lower_a2a_steps::{last_state, steps};
use super::lower_delegation::delegation;
use super::template::{Compiled, Template};
use crate::DslError;
use crate::model::accord::{
    A2aMessage, A2aTask, A2aTaskInteraction, CancelScenario, Part, PartContent, ResponseKind, Role,
    SendConfiguration, SendRequest, TaskState, TaskStep,
};
use crate::model::{Interaction, InteractionMeta};

/// An `a2a:` interaction.
pub(crate) fn task(
    cx: &Ctx<'_>,
    path: &str,
    meta: InteractionMeta,
    a: &A2aSpec,
) -> Result<Interaction, DslError> {
    let Some(send) = &a.send else {
        return Err(cx.err(path, "an a2a interaction needs `send` (the message)"));
    };
    check_shape(cx, path, a)?;
    check_observable(cx, path, a, send)?;
    let steps = steps(cx, &format!("{path}.expect"), &a.expect)?;
    let terminal_state = terminal_state(cx, path, a, &steps)?;
    let skill = skill(cx, path, a, send)?;
    let cancel = a
        .cancel
        .as_ref()
        .map(|c| cancel(cx, &format!("{path}.cancel"), c))
        .transpose()?;
    let ended = end_state(cancel.as_ref(), terminal_state, &steps);
    let mut request = send_request(cx, &format!("{path}.send"), send)?;
    let delegation = delegation(cx, path, a.delegation.as_ref(), &mut request)?;
    let task = A2aTask {
        skill,
        request,
        streaming: send.stream,
        a2a_version: a2a_version(cx, path, a, send)?,
        response: match a.returns {
            Some(ResponseName::Message) => ResponseKind::Message,
            _ => ResponseKind::Task,
        },
        steps,
        terminal_state,
        error: a
            .error
            .as_ref()
            .map(|e| error(cx, &format!("{path}.error"), e))
            .transpose()?,
        cancel,
        push: a
            .push
            .as_ref()
            .map(|p| push(cx, &format!("{path}.push"), p))
            .transpose()?,
        follow_ups: a
            .follow_ups
            .iter()
            .enumerate()
            .map(|(i, f)| follow_up(cx, &format!("{path}.follow_ups[{i}]"), f, ended))
            .collect::<Result<_, _>>()?,
        delegation,
        extra: Map::new(),
    };
    Ok(Interaction::A2aTask(A2aTaskInteraction { meta, task }))
}

/// The state the task is in once the sequence and its cancel are over:
/// the state the cancel leads to, the terminal state, or the last state
/// expected.
fn end_state(
    cancel: Option<&CancelScenario>,
    terminal: Option<TaskState>,
    steps: &[TaskStep],
) -> Option<TaskState> {
    cancel
        .and_then(|c| c.expect_state)
        .or(terminal)
        .or(last_state(steps))
}

/// The required terminal state: as written, or the last expected state
/// when it is terminal.
fn terminal_state(
    cx: &Ctx<'_>,
    path: &str,
    a: &A2aSpec,
    steps: &[TaskStep],
) -> Result<Option<TaskState>, DslError> {
    if let Some(t) = a.terminal.filter(|t| !t.0.is_terminal()) {
        return Err(cx.err(
            &format!("{path}.terminal"),
            format!(
                "{} is not a terminal state (COMPLETED, FAILED, CANCELED, REJECTED)",
                t.0
            ),
        ));
    }
    Ok(a.terminal
        .map(|t| t.0)
        .or(last_state(steps).filter(|s| s.is_terminal())))
}

/// The `A2A-Version` the send carries. A version other than 1.x (or none,
/// read as 0.3) must be refused by a v1.0 agent: the interaction must
/// expect that error.
fn a2a_version(
    cx: &Ctx<'_>,
    path: &str,
    a: &A2aSpec,
    send: &SendSpec,
) -> Result<Option<String>, DslError> {
    let Some(v) = &send.a2a_version else {
        return Ok(None);
    };
    let v1 = v.split('.').next() == Some("1");
    if !v1 && a.error.is_none() {
        return Err(cx.err(
            &format!("{path}.send.a2a_version"),
            format!(
                "an A2A v1.0 agent refuses version `{v}` (none is read as 0.3): expect `error: {{ reason: VERSION_NOT_SUPPORTED }}`"
            ),
        ));
    }
    Ok(Some(v.clone()))
}

/// The skill, named on the interaction or in `send` (not both differently).
fn skill(
    cx: &Ctx<'_>,
    path: &str,
    a: &A2aSpec,
    send: &SendSpec,
) -> Result<Option<String>, DslError> {
    match (&a.skill, &send.skill) {
        (Some(x), Some(y)) if x != y => Err(cx.err(
            &format!("{path}.send.skill"),
            format!("names skill `{y}` but the interaction names `{x}`"),
        )),
        (x, y) => Ok(x.clone().or_else(|| y.clone())),
    }
}

/// Refuses combinations that cannot happen: a task from a refused send, or
/// task events from an agent that answers with a direct message.
fn check_shape(cx: &Ctx<'_>, path: &str, a: &A2aSpec) -> Result<(), DslError> {
    let task_keys =
        a.terminal.is_some() || a.cancel.is_some() || a.push.is_some() || !a.follow_ups.is_empty();
    if a.error.is_some() && (task_keys || !a.expect.is_empty()) {
        return Err(cx.err(
            &format!("{path}.error"),
            "an expected send error creates no task: drop `expect`, `terminal`, `cancel`, `push` and `follow_ups`, or drop `error`",
        ));
    }
    let replies = a.expect.iter().filter(|s| s.reply.is_some()).count();
    let task_steps = a.expect.len() - replies;
    match a.returns {
        Some(ResponseName::Message) if task_keys || task_steps > 0 => Err(cx.err(
            path,
            "`returns: message` answers with a direct reply: no task states, artifacts, terminal, cancel, push or follow-ups",
        )),
        Some(ResponseName::Task) | None if replies > 0 => Err(cx.err(
            &format!("{path}.expect"),
            "a `reply` step needs `returns: message`",
        )),
        _ => Ok(()),
    }
}

/// A blocking `SendMessage` answers only once the task is terminal or
/// interrupted (A2A v1.0 §3.1.1), and the client learns the task id from
/// that answer: a cancel or follow-up at an earlier state needs `stream`
/// or `return_immediately`.
fn check_observable(
    cx: &Ctx<'_>,
    path: &str,
    a: &A2aSpec,
    send: &SendSpec,
) -> Result<(), DslError> {
    if send.stream || send.return_immediately {
        return Ok(());
    }
    let reached = |s: TaskState| s.is_terminal() || s.is_interrupted();
    let early = |field: String, s: Option<TaskState>| {
        match s {
        Some(s) if reached(s) => Ok(()),
        s => Err(cx.err(
            &field,
            format!(
                "a blocking SendMessage answers only at a terminal or interrupted state, so {} cannot be seen: add `stream: true` or `return_immediately: true` to `send`",
                s.map_or_else(|| "the moment the task is created".to_string(), |s| s.to_string())
            ),
        )),
    }
    };
    if let Some(c) = &a.cancel {
        early(format!("{path}.cancel"), c.at.map(|s| s.0))?;
    }
    for (i, f) in a.follow_ups.iter().enumerate() {
        if let Some(after) = f.after {
            early(format!("{path}.follow_ups[{i}].after"), Some(after.0))?;
        }
    }
    Ok(())
}

/// The `SendMessageRequest`; rules rooted at the request params.
pub(crate) fn send_request(
    cx: &Ctx<'_>,
    path: &str,
    s: &SendSpec,
) -> Result<SendRequest, DslError> {
    let mut out = Compiled::default();
    let parts = sent_parts(cx, path, s, &mut out)?;
    let metadata = match &s.metadata {
        None => None,
        Some(t) => match t.compile(&PactPath::root().field("metadata"), &mut out) {
            Value::Object(m) => Some(m),
            _ => return Err(cx.err(&format!("{path}.metadata"), "metadata is a map")),
        },
    };
    let configured =
        !s.accepted_output_modes.is_empty() || s.history_length.is_some() || s.return_immediately;
    let configuration = configured.then(|| SendConfiguration {
        accepted_output_modes: s.accepted_output_modes.clone(),
        history_length: s.history_length,
        return_immediately: s.return_immediately,
    });
    let rules = body_rules(&out)?;
    Ok(SendRequest {
        message: A2aMessage {
            role: Role::User,
            parts,
            message_id: s.message_id.clone(),
            context_id: s.context_id.clone(),
            task_id: s.task_id.clone(),
            reference_task_ids: s.reference_task_ids.clone(),
            extensions: s.extensions.clone(),
            metadata: None,
        },
        configuration,
        metadata,
        rules,
    })
}

/// The parts of a sent message: `text`, then `data`, then `parts`, with
/// their rules at `$.message.parts[i]`.
fn sent_parts(
    cx: &Ctx<'_>,
    path: &str,
    s: &SendSpec,
    out: &mut Compiled,
) -> Result<Vec<Part>, DslError> {
    let text = s.text.as_ref().map(|t| PartSpec {
        text: Some(t.clone()),
        ..PartSpec::default()
    });
    let data = s.data.as_ref().map(|d| PartSpec {
        data: Some(d.clone()),
        media_type: s.media_type.clone(),
        ..PartSpec::default()
    });
    let specs: Vec<PartSpec> = text
        .into_iter()
        .chain(data)
        .chain(s.parts.iter().cloned())
        .collect();
    if specs.is_empty() {
        return Err(cx.err(
            path,
            "a message needs at least one part: `text`, `data` or `parts`",
        ));
    }
    let root = PactPath::root().field("message").field("parts");
    let mut parts = Vec::new();
    for (i, p) in specs.iter().enumerate() {
        let ppath = format!("{path}.parts[{i}]");
        if p.schema.is_some() {
            return Err(cx.err(
                &ppath,
                "`schema` belongs to expected parts, not to sent ones",
            ));
        }
        let content = part_content(cx, &ppath, p, &root.index(i), out)?;
        parts.push(Part {
            content,
            media_type: p.media_type.clone(),
            filename: p.filename.clone(),
            metadata: None,
        });
    }
    Ok(parts)
}

/// The content of a part: exactly one of `text`, `data`, `url`, `raw`.
pub(crate) fn part_content(
    cx: &Ctx<'_>,
    path: &str,
    p: &PartSpec,
    root: &PactPath,
    out: &mut Compiled,
) -> Result<PartContent, DslError> {
    let present: Vec<(&str, &Template)> = [
        ("text", &p.text),
        ("data", &p.data),
        ("url", &p.url),
        ("raw", &p.raw),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.as_ref().map(|t| (k, t)))
    .collect();
    let [(kind, t)] = present.as_slice() else {
        return Err(cx.err(
            path,
            "a part has exactly one of `text`, `data`, `url`, `raw`",
        ));
    };
    let v = t.compile(&root.field(kind), out);
    let text = |v: Value| match v {
        Value::String(s) => Ok(s),
        _ => Err(cx.err(
            &format!("{path}.{kind}"),
            format!("a `{kind}` part holds a string"),
        )),
    };
    Ok(match *kind {
        "data" => PartContent::Data(v),
        "text" => PartContent::Text(text(v)?),
        "url" => PartContent::Url(text(v)?),
        _ => PartContent::Raw(text(v)?),
    })
}
