//! Which interaction of a contract exercises which operation, and which
//! kind of case it is (the coverage policy's case kinds).
//!
//! - authorization: a negative of kind `unauthenticated` or
//!   `expired_credential`; a plain negative (`negative: true`) sent with a
//!   credential that is not valid (`credential: none|expired|invalid`); or
//!   a plain negative sent as a principal none of the contract's accepted
//!   calls of the operation uses (a call as another principal).
//! - tenant probe: a negative of kind `cross_tenant`, or `probe_as`.
//! - approval: a negative of kind `missing_approval`, or
//!   `approval: { granted: false }` (sent without the approval, it must
//!   commit nothing).
//! - boundary: a case the provider must refuse (any negative, an approval
//!   not granted) or an expected error (an MCP tool error or protocol
//!   error; an A2A error or a FAILED or REJECTED task).
//!
//! An interaction is tagged `incident` when its V4 `comments` carry
//! `tags: [incident]` (the contract language has no other tag on an
//! interaction).

use accord_dsl::model::Interaction;
use accord_dsl::model::accord::{Credential, Negative, RefusalKind, TaskState};
use serde_json::Value;

/// A kind of case the coverage policy asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Case {
    Authorization,
    TenantProbe,
    Approval,
    Boundary,
}

impl Case {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Case::Authorization => "authorization",
            Case::TenantProbe => "tenant_probe",
            Case::Approval => "approval",
            Case::Boundary => "boundary",
        }
    }

    /// The stable code of the gap when this case is missing.
    pub fn gap_code(self) -> &'static str {
        match self {
            Case::Authorization => "COVERAGE_AUTHORIZATION_CASE_MISSING",
            Case::TenantProbe => "COVERAGE_TENANT_PROBE_CASE_MISSING",
            Case::Approval => "COVERAGE_APPROVAL_CASE_MISSING",
            Case::Boundary => "COVERAGE_BOUNDARY_CASE_MISSING",
        }
    }
}

/// What an operation is: an A2A skill or an MCP tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum OpKind {
    Skill,
    Tool,
}

impl OpKind {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            OpKind::Skill => "skill",
            OpKind::Tool => "tool",
        }
    }
}

/// One interaction of a live contract on an operation.
#[derive(Debug, Clone, Copy)]
pub struct Use<'a> {
    /// The consumer's name.
    pub consumer: &'a str,
    pub interaction: &'a Interaction,
}

impl Use<'_> {
    /// The provider must refuse the interaction.
    pub fn refused(&self) -> bool {
        self.interaction.meta().expectations.refusal_expected()
    }

    /// Tagged `incident` (in its `comments`).
    pub fn incident(&self) -> bool {
        self.interaction.meta().comments.as_ref().is_some_and(|c| {
            c["tags"]
                .as_array()
                .is_some_and(|tags| tags.iter().any(|t| t.as_str() == Some("incident")))
        })
    }
}

/// The operation an interaction exercises; `only_skill` is the card's one
/// skill, taken by an A2A interaction that names none.
pub fn operation<'a>(i: &'a Interaction, only_skill: Option<&'a str>) -> Option<(OpKind, &'a str)> {
    match i {
        Interaction::McpToolCall(m) => Some((OpKind::Tool, m.call.tool.as_str())),
        Interaction::A2aTask(a) => a
            .task
            .skill
            .as_deref()
            .or(only_skill)
            .map(|s| (OpKind::Skill, s)),
        _ => None,
    }
}

/// An expected error outcome (not a refusal).
fn expects_error(i: &Interaction) -> bool {
    match i {
        Interaction::McpToolCall(m) => {
            m.call.error.is_some() || m.call.result.as_ref().is_some_and(|r| r.is_error)
        }
        Interaction::A2aTask(a) => {
            a.task.error.is_some()
                || matches!(
                    a.task.terminal_state,
                    Some(TaskState::Failed | TaskState::Rejected)
                )
        }
        _ => false,
    }
}

/// The principal a use is sent as.
fn principal<'a>(u: &Use<'a>) -> Option<&'a str> {
    let e = &u.interaction.meta().expectations;
    e.auth.as_ref().and_then(|a| a.principal.as_deref())
}

/// The case kinds one use is, among the uses of its operation in the same
/// contract (`siblings`, for "a call as another principal").
pub fn kinds(u: &Use<'_>, siblings: &[Use<'_>]) -> Vec<Case> {
    let e = &u.interaction.meta().expectations;
    let credential = e.auth.as_ref().map_or(Credential::Valid, |a| a.credential);
    let mut out = Vec::new();
    let other_principal = || {
        let accepted: Vec<_> = siblings
            .iter()
            .filter(|s| !s.refused())
            .filter_map(principal)
            .collect();
        principal(u).is_some_and(|p| !accepted.is_empty() && !accepted.contains(&p))
    };
    let authorization = match e.negative {
        Negative::Kind(RefusalKind::Unauthenticated | RefusalKind::ExpiredCredential) => true,
        Negative::Refused => !credential.is_valid() || other_principal(),
        _ => false,
    };
    if authorization {
        out.push(Case::Authorization);
    }
    let probes = e.auth.as_ref().is_some_and(|a| !a.probes.is_empty());
    if probes || e.negative == Negative::Kind(RefusalKind::CrossTenant) {
        out.push(Case::TenantProbe);
    }
    let unapproved = e.approval.as_ref().is_some_and(|a| !a.granted);
    if unapproved || e.negative == Negative::Kind(RefusalKind::MissingApproval) {
        out.push(Case::Approval);
    }
    if u.refused() || expects_error(u.interaction) {
        out.push(Case::Boundary);
    }
    out
}

/// The skill ids a declared Agent Card lists.
pub fn card_skills(card: &Value) -> Vec<String> {
    card["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["id"].as_str().map(str::to_owned))
        .collect()
}
