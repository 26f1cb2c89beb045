//! Lowering what an A2A interaction expects back: the task-event steps,
//! artifacts and expected parts (with media type, JSON Schema and rules).

use serde_json::Value;

use super::PactPath;
use super::ast::{ArtifactSpec, PartSpec, SchemaSpec, StepSpec};
use super::lower::{Ctx, body_rules};
use super::lower_a2a::part_content;
use super::template::Compiled;
use crate::DslError;
use crate::model::accord::{
    ArtifactExpectation, MessageStep, PartExpectation, StatusStep, TaskState, TaskStep,
};

pub(crate) fn schema(
    cx: &Ctx<'_>,
    path: &str,
    s: &Option<SchemaSpec>,
) -> Result<Option<Value>, DslError> {
    match s {
        None => Ok(None),
        Some(SchemaSpec::Inline(v)) => Ok(Some(v.clone())),
        Some(SchemaSpec::File(f)) => {
            cx.resolver
                .resolve(f)
                .map(Some)
                .map_err(|source| DslError::SchemaRef {
                    origin: cx.origin.to_string(),
                    path: format!("{path}.schema"),
                    reference: f.clone(),
                    source,
                })
        }
    }
}

/// An expected part; rules rooted at the part object.
pub(crate) fn part_expectation(
    cx: &Ctx<'_>,
    path: &str,
    p: &PartSpec,
) -> Result<PartExpectation, DslError> {
    let mut out = Compiled::default();
    let content = part_content(cx, path, p, &PactPath::root(), &mut out)?;
    let rules = body_rules(&out)?;
    Ok(PartExpectation {
        content,
        media_type: p.media_type.clone(),
        filename: p.filename.clone(),
        schema: schema(cx, path, &p.schema)?,
        rules,
    })
}

fn artifact(cx: &Ctx<'_>, path: &str, a: &ArtifactSpec) -> Result<ArtifactExpectation, DslError> {
    let inline = a.text.is_some() || a.data.is_some() || a.url.is_some();
    let specs: Vec<PartSpec> = match (inline, a.parts.is_empty()) {
        (true, true) => vec![PartSpec { text: a.text.clone(), data: a.data.clone(), url: a.url.clone(), raw: None, media_type: a.media_type.clone(), filename: None, schema: a.schema.clone() }],
        (false, false) if a.media_type.is_none() && a.schema.is_none() => a.parts.clone(),
        (false, true) => return Err(cx.err(path, "an artifact needs its content: `data`, `text`, `url` or `parts`")),
        _ => return Err(cx.err(path, "write the artifact's content either inline (data/text/url, media_type, schema) or as `parts`, not both")),
    };
    let parts = specs
        .iter()
        .enumerate()
        .map(|(i, p)| part_expectation(cx, &format!("{path}.parts[{i}]"), p))
        .collect::<Result<_, _>>()?;
    Ok(ArtifactExpectation {
        name: a.name.clone(),
        parts,
    })
}

/// Expected events; a terminal state ends the list, and nothing follows
/// INPUT_REQUIRED until the client answers.
pub(crate) fn steps(
    cx: &Ctx<'_>,
    path: &str,
    specs: &[StepSpec],
) -> Result<Vec<TaskStep>, DslError> {
    let mut steps: Vec<TaskStep> = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let spath = format!("{path}[{i}]");
        let before = last_state(&steps);
        if let Some(t) = before.filter(|t| t.is_terminal() && s.state.is_some()) {
            return Err(cx.err(&spath, format!("{t} is terminal: no state can follow it")));
        }
        if before == Some(TaskState::InputRequired) && s.state.is_some() {
            return Err(cx.err(
                &spath,
                "after INPUT_REQUIRED the task waits for the client (and the answer or stream ends there): continue with a SendMessage follow-up `after: INPUT_REQUIRED`",
            ));
        }
        if (s.optional || s.message.is_some()) && s.state.is_none() {
            return Err(cx.err(&spath, "`optional` and `message` belong to a `state` step"));
        }
        steps.push(step(cx, &spath, s)?);
    }
    Ok(steps)
}

/// The last state the steps expect.
pub(crate) fn last_state(steps: &[TaskStep]) -> Option<TaskState> {
    steps.iter().rev().find_map(|s| match s {
        TaskStep::Status(st) => Some(st.state),
        _ => None,
    })
}

/// One expected event: exactly one of `state`, `artifact`, `reply`.
fn step(cx: &Ctx<'_>, spath: &str, s: &StepSpec) -> Result<TaskStep, DslError> {
    Ok(match (&s.state, &s.artifact, &s.reply) {
        (Some(st), None, None) => {
            let message = s
                .message
                .as_ref()
                .map(|m| part_expectation(cx, &format!("{spath}.message"), m))
                .transpose()?;
            TaskStep::Status(StatusStep {
                state: st.0,
                message_parts: message.into_iter().collect(),
                optional: s.optional,
            })
        }
        (None, Some(a), None) => TaskStep::Artifact(artifact(cx, &format!("{spath}.artifact"), a)?),
        (None, None, Some(r)) => TaskStep::Message(MessageStep {
            parts: vec![part_expectation(cx, &format!("{spath}.reply"), r)?],
        }),
        _ => {
            return Err(cx.err(
                spath,
                "a step has exactly one of `state`, `artifact`, `reply`",
            ));
        }
    })
}
