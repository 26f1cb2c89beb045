//! The can-i-deploy decision (§3.3): true, false, or unknown (None), with
//! the reason texts Pact clients print verbatim. Pure: works on resolved
//! selectors, integrations and rows already loaded.

use std::collections::HashMap;

use crate::contract::pact_view;
use crate::matrix::resolve::{Integration, Resolved};
use crate::matrix::rows::Row;
use crate::matrix::selector::VersionSpec;
use crate::store::matrix::VersionRef;

/// The text when every required verification passed.
pub const SUCCESS: &str = "All required verification results are published and successful";
/// The text when nothing was required.
pub const NOTHING_MISSING: &str = "There are no missing dependencies";

/// A notice's `type` as Pact clients colour it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    Success,
    Error,
    Warning,
    Info,
}

impl NoticeKind {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeKind::Success => "success",
            NoticeKind::Error => "error",
            NoticeKind::Warning => "warning",
            NoticeKind::Info => "info",
        }
    }
}

/// One line for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub text: String,
}

/// The decision and its counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Some(true) deployable, Some(false) not, None unknown.
    pub deployable: Option<bool>,
    pub reasons: Vec<String>,
    pub success: usize,
    pub failed: usize,
    pub unknown: usize,
    /// Present only when ignore selectors were given.
    pub ignored: Option<usize>,
    pub notices: Vec<Notice>,
}

impl Summary {
    /// Answers no for a reason outside the rows (a quarantine, an
    /// admission below the one required): the reason comes first, and is
    /// the first notice too — clients (`accord can-i-deploy`, the Pact CLI)
    /// print the notices instead of the reason when there are any.
    pub fn refuse(&mut self, text: String) {
        self.deployable = Some(false);
        self.notices.insert(
            0,
            Notice {
                kind: NoticeKind::Error,
                text: text.clone(),
            },
        );
        self.reasons.insert(0, text);
    }
}

/// Everything the decision looks at.
#[derive(Debug)]
pub struct Input<'a> {
    /// Specified selectors first, then inferred ones.
    pub selectors: &'a [Resolved],
    pub integrations: &'a [Integration],
    pub considered: &'a [Row],
    pub ignored: &'a [Row],
    /// Pacticipants ignored as a whole (their missing integrations do not count).
    pub ignored_pacticipants: &'a [i64],
    pub ignore_given: bool,
    /// Warnings found while resolving (ignore targets that do not exist …).
    pub warnings: Vec<String>,
    pub names: &'a HashMap<i64, String>,
}

/// Decides (§3.3): a specified selector without versions ⇒ false; else an
/// unverified row or a required integration without a row ⇒ unknown; else
/// true iff every considered row succeeded.
pub fn decide(input: Input<'_>) -> Summary {
    let missing_versions: Vec<&Resolved> = input
        .selectors
        .iter()
        .filter(|s| {
            s.specified && !s.exists() && !input.ignored_pacticipants.contains(&s.pacticipant_id)
        })
        .collect();
    let missing_integrations = missing_integrations(&input);
    let count = |want: Option<bool>| {
        input
            .considered
            .iter()
            .filter(|r| r.success() == want)
            .count()
    };
    let (success, failed, unverified) = (count(Some(true)), count(Some(false)), count(None));
    let deployable = if !missing_versions.is_empty() {
        Some(false)
    } else if unverified > 0 || !missing_integrations.is_empty() {
        None
    } else {
        Some(failed == 0)
    };
    let errors = errors(&input, &missing_versions, &missing_integrations);
    let (reasons, notices) = reasons_and_notices(&input, errors);
    Summary {
        deployable,
        reasons,
        success,
        failed,
        unknown: unverified + missing_integrations.len(),
        ignored: input.ignore_given.then_some(input.ignored.len()),
        notices,
    }
}

/// Required integrations (of pacticipants not ignored) without any row.
fn missing_integrations<'a>(input: &Input<'a>) -> Vec<&'a Integration> {
    input
        .integrations
        .iter()
        .filter(|i| i.required)
        .filter(|i| !input.ignored_pacticipants.contains(&i.consumer_id))
        .filter(|i| !input.ignored_pacticipants.contains(&i.provider_id))
        .filter(|i| {
            !input
                .considered
                .iter()
                .chain(input.ignored)
                .any(|r| r.consumer_id == i.consumer_id && r.provider_id == i.provider_id)
        })
        .collect()
}

/// Why it is not deployable: missing versions alone when there are any,
/// else missing integrations and failed or unverified rows (deduplicated).
fn errors(
    input: &Input<'_>,
    missing_versions: &[&Resolved],
    missing_integrations: &[&Integration],
) -> Vec<String> {
    let mut errors: Vec<String> = missing_versions.iter().map(|s| does_not_exist(s)).collect();
    if errors.is_empty() {
        for i in missing_integrations {
            errors.push(format!(
                "There is no verified pact between {} and {}",
                describe(input, i.consumer_id, None),
                describe(input, i.provider_id, None)
            ));
        }
        errors.extend(
            input
                .considered
                .iter()
                .filter_map(|r| row_problem(input, r)),
        );
    }
    dedup_keep_order(&mut errors);
    errors
}

/// The summary's reasons (the errors, or the success text) and its notices:
/// those reasons, then what was ignored, then the warnings.
fn reasons_and_notices(input: &Input<'_>, errors: Vec<String>) -> (Vec<String>, Vec<Notice>) {
    let mut notices: Vec<Notice> = Vec::new();
    let reasons = if errors.is_empty() {
        let text = if input.considered.is_empty() {
            NOTHING_MISSING
        } else {
            SUCCESS
        };
        notices.push(Notice {
            kind: NoticeKind::Success,
            text: text.to_owned(),
        });
        vec![text.to_owned()]
    } else {
        notices.extend(errors.iter().map(|t| Notice {
            kind: NoticeKind::Error,
            text: t.clone(),
        }));
        errors
    };
    let mut ignoring: Vec<String> = input
        .ignored
        .iter()
        .filter_map(|r| row_problem(input, r))
        .map(|t| format!("Ignoring: {t}"))
        .collect();
    dedup_keep_order(&mut ignoring);
    notices.extend(ignoring.into_iter().map(|text| Notice {
        kind: NoticeKind::Info,
        text,
    }));
    notices.extend(input.warnings.iter().map(|t| Notice {
        kind: NoticeKind::Warning,
        text: t.clone(),
    }));
    (reasons, notices)
}

fn dedup_keep_order(texts: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    texts.retain(|t| seen.insert(t.clone()));
}

/// The failure or missing-verification text of a row, if it is not a success.
fn row_problem(input: &Input<'_>, r: &Row) -> Option<String> {
    let consumer = describe(input, r.consumer_id, Some(&r.consumer_version));
    let provider = describe(input, r.provider_id, r.provider_version.as_ref());
    match r.success() {
        Some(true) => None,
        Some(false) => match r.verification.as_ref().and_then(|v| v.static_codes()) {
            Some(codes) => Some(format!(
                "The verification for the pact between {consumer} and {provider} failed: static check of the declarations: {codes}"
            )),
            None => Some(format!(
                "The verification for the pact between {consumer} and {provider} failed"
            )),
        },
        None if r.partial() => Some(format!(
            "The pact between {consumer} and {provider} was verified only in its Pact view (by a Pact verifier); its Accord-only parts are unverified: {} (`accord verify` checks them)",
            pact_view::describe(&r.unverified)
        )),
        None => Some(format!(
            "There is no verified pact between {consumer} and {provider}"
        )),
    }
}

/// How a side of a row is named: by the selector that chose it.
fn describe(input: &Input<'_>, pacticipant_id: i64, version: Option<&VersionRef>) -> String {
    let selector = input
        .selectors
        .iter()
        .find(|s| s.pacticipant_id == pacticipant_id && version.is_none_or(|v| s.covers(v.id)));
    match (selector, version) {
        (Some(s), _) => describe_selector(s, version),
        (None, Some(v)) => format!("version {} of {}", v.number, name(input, pacticipant_id)),
        (None, None) => format!("any version of {}", name(input, pacticipant_id)),
    }
}

fn name(input: &Input<'_>, id: i64) -> String {
    input
        .names
        .get(&id)
        .cloned()
        .unwrap_or_else(|| format!("pacticipant {id}"))
}

/// "the latest version of Bar with tag prod (7)", "the version of Bar currently in production (56)" …
pub fn describe_selector(s: &Resolved, version: Option<&VersionRef>) -> String {
    let p = &s.pacticipant_name;
    let numbers = match (version, &s.versions) {
        (Some(v), _) => v.number.clone(),
        (None, Some(vs)) => vs
            .iter()
            .map(|v| v.number.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        (None, None) => String::new(),
    };
    let with = |prefix: String| {
        if numbers.is_empty() {
            format!("{prefix} (no such version exists)")
        } else {
            format!("{prefix} ({numbers})")
        }
    };
    match &s.spec {
        VersionSpec::Any => match version {
            Some(v) => format!("version {} of {p}", v.number),
            None => format!("any version of {p}"),
        },
        VersionSpec::Number(n) => format!("version {n} of {p}"),
        VersionSpec::Latest => with(format!("the latest version of {p}")),
        VersionSpec::Tag { tag, latest: true } => {
            with(format!("the latest version of {p} with tag {tag}"))
        }
        VersionSpec::Tag { tag, latest: false } => with(format!("a version of {p} with tag {tag}")),
        VersionSpec::Branch {
            branch,
            latest: true,
        } => with(format!("the latest version of {p} from branch {branch}")),
        VersionSpec::Branch {
            branch,
            latest: false,
        } => with(format!("a version of {p} from branch {branch}")),
        VersionSpec::MainBranch { latest: true } => {
            with(format!("the latest version of {p} from the main branch"))
        }
        VersionSpec::MainBranch { latest: false } => {
            with(format!("a version of {p} from the main branch"))
        }
        VersionSpec::Environment(env) if numbers.is_empty() => format!(
            "a version of {p} currently in {env} (no version is currently recorded as deployed/released in this environment)"
        ),
        VersionSpec::Environment(env) => {
            let many = s.versions.as_ref().is_some_and(|v| v.len() > 1);
            let prefix = if many {
                "one of the versions"
            } else {
                "the version"
            };
            format!("{prefix} of {p} currently in {env} ({numbers})")
        }
    }
}

/// Why a specified selector matched no version.
fn does_not_exist(s: &Resolved) -> String {
    let p = &s.pacticipant_name;
    match &s.spec {
        VersionSpec::Number(n) => {
            format!("No pacts or verifications have been published for version {n} of {p}")
        }
        VersionSpec::Tag { tag, .. } => format!("No version with tag {tag} exists for {p}"),
        VersionSpec::Branch { branch, .. } => {
            format!("No version of {p} exists on branch {branch}")
        }
        VersionSpec::MainBranch { .. } => format!("No version of {p} exists on its main branch"),
        VersionSpec::Environment(env) => {
            format!(
                "No version of {p} is currently recorded as deployed or released in environment {env}"
            )
        }
        VersionSpec::Latest | VersionSpec::Any => {
            format!("No pacts or verifications have been published for {p}")
        }
    }
}

#[cfg(test)]
#[path = "decision_tests.rs"]
mod tests;
