//! Checks of the expectations any interaction carries that a verifier could
//! only misjudge: a kind of refusal the interaction cannot provoke, and
//! `repeat` paths that select nothing.

use super::lint::{LintProblem, Severity};
use crate::generators::values_at;
use crate::model::Interaction;
use crate::model::accord::{Credential, RefusalKind};
use crate::model::views::request_view;

/// Problems of interaction `i`'s `negative` and `repeat`.
pub(super) fn check_expectations(
    i: usize,
    interaction: &Interaction,
    problems: &mut Vec<LintProblem>,
) {
    let at = format!("$.interactions[{i}]");
    let mut error = |code: &'static str, path: String, message: String| {
        problems.push(LintProblem::new(Severity::Error, code, path, message));
    };
    if let Some(why) = kind_conflict(interaction) {
        error("NEGATIVE_KIND_CONFLICT", format!("{at}.negative"), why);
    }
    let Some(repeat) = &interaction.meta().expectations.repeat else {
        return;
    };
    let view = request_view(interaction);
    if let Some(key) = &repeat.key {
        let path = format!("{at}.repeat.key");
        match (&view, values_at(&serde_json::Value::Null, key)) {
            (_, None) => error(
                "INVALID_REPEAT_PATH",
                path,
                format!("`{key}` is not a path (e.g. `$.body.requestId`)"),
            ),
            (None, _) => error(
                "INVALID_REPEAT_PATH",
                path,
                format!(
                    "a {} is not sent, so it has no request to keep a key in",
                    interaction.type_name()
                ),
            ),
            (Some(v), _) if values_at(v, key).is_none_or(|found| found.is_empty()) => error(
                "INVALID_REPEAT_PATH",
                path,
                format!(
                    "`{key}` selects nothing in the request ({}); the key must be a value the request carries",
                    view_roots(interaction)
                ),
            ),
            _ => {}
        }
    }
    for (n, field) in repeat.same_fields.iter().enumerate() {
        if values_at(&serde_json::Value::Null, field).is_none() {
            error(
                "INVALID_REPEAT_PATH",
                format!("{at}.repeat.sameFields[{n}]"),
                format!("`{field}` is not a path (e.g. `$.body.id`)"),
            );
        }
    }
}

/// What the request view of this interaction type holds.
fn view_roots(i: &Interaction) -> &'static str {
    match i {
        Interaction::Http(_) => "$.method, $.path, $.query, $.headers, $.body",
        Interaction::A2aTask(_) => "$.message, $.configuration, $.metadata",
        _ => "$.name, $.arguments",
    }
}

/// Why the interaction cannot provoke the refusal its `negative` names.
fn kind_conflict(i: &Interaction) -> Option<String> {
    let e = &i.meta().expectations;
    let kind = e.negative.kind()?;
    let credential = e.auth.as_ref().map(|a| a.credential).unwrap_or_default();
    let unapproved = e.approval.as_ref().is_some_and(|a| !a.granted);
    let a2a = match i {
        Interaction::A2aTask(t) => Some(t),
        _ => None,
    };
    let name = kind.as_str();
    let why = match kind {
        RefusalKind::Unauthenticated
            if !matches!(credential, Credential::None | Credential::Invalid) =>
        {
            "it needs `credential: none` or `invalid`"
        }
        RefusalKind::ExpiredCredential if credential != Credential::Expired => {
            "it needs `credential: expired`"
        }
        RefusalKind::CrossTenant if credential != Credential::Valid => {
            "another tenant's resource is refused to a valid credential; without one the refusal is `unauthenticated`"
        }
        RefusalKind::MissingApproval if !unapproved => "it needs `approval: { granted: false }`",
        RefusalKind::UnsupportedVersion
            if a2a.is_none_or(|t| {
                t.task
                    .a2a_version
                    .as_deref()
                    .is_none_or(|v| v.starts_with("1."))
            }) =>
        {
            "it needs an A2A interaction whose `a2aVersion` is one the agent does not support (e.g. \"0.3\" or \"\")"
        }
        RefusalKind::TerminalTask | RefusalKind::UndeclaredCapability if a2a.is_none() => {
            "it applies to A2A interactions only"
        }
        _ => return None,
    };
    Some(format!("`negative: {name}`: {why}"))
}
