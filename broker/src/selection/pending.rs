//! Pending pacts (reference §3.5): a pact is pending for the provider while
//! nothing in the provider's scope (its branch, its tags, or anything) has
//! verified that content successfully. A new provider branch inherits the
//! successes recorded before it was created, so branching off main does not
//! make every pact pending again. The rules are pure (`is_pending`); the
//! facts they read come from `gather`.

use chrono::{NaiveDateTime, TimeDelta};

use super::request::VerificationQuery;
use crate::audience::Audience;
use crate::db::AnyConnection;
use crate::names::{BranchName, TagName};
use crate::store::verifications::{self, SuccessQuery};
use crate::store::{StoreError, now};

/// What "verified by the provider" means for this request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// `providerVersionBranch`; `existing` is the branch row (id, created
    /// at) when the branch has been recorded already.
    Branch {
        name: BranchName,
        existing: Option<(i64, NaiveDateTime)>,
    },
    /// `providerVersionTags` without a branch.
    Tags(Vec<TagName>),
    /// Neither: any provider version counts.
    Any,
}

/// Which scope a query asks about; reads the provider's branch row.
pub fn scope(
    conn: &mut AnyConnection,
    provider_id: i64,
    query: &VerificationQuery,
) -> Result<Scope, StoreError> {
    if let Some(name) = &query.provider_branch {
        let existing = crate::store::branches::find_by_name(conn, provider_id, name.as_str())?
            .map(|b| (b.id, b.created_at));
        return Ok(Scope::Branch {
            name: name.clone(),
            existing,
        });
    }
    if !query.provider_tags.is_empty() {
        return Ok(Scope::Tags(query.provider_tags.clone()));
    }
    Ok(Scope::Any)
}

/// The successful verifications of one content that the rules look at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// One entry per branch (one), per tag, or for "any" (one): was the
    /// content verified successfully there?
    pub in_scope: Vec<bool>,
    /// Was it verified successfully (on any branch) before the provider
    /// branch was created? Always false outside the branch scope.
    pub before_branch: bool,
}

/// The pending rule. Tags: pending if pending for any tag.
pub fn is_pending(scope: &Scope, facts: &Facts) -> bool {
    match scope {
        Scope::Branch { .. } => !(facts.in_scope.iter().any(|v| *v) || facts.before_branch),
        Scope::Tags(_) | Scope::Any => {
            facts.in_scope.iter().any(|v| !*v) || facts.in_scope.is_empty()
        }
    }
}

/// Options of `gather`: pending counts every success; WIP ignores
/// successes of WIP verifications and looks back only `lookback` before
/// the branch was created. For Accord's client only whole-contract
/// successes count (`whole_only`): a Pact verifier's success of the Pact
/// view says nothing of the Accord-only parts, which stay pending.
#[derive(Debug, Clone, Copy)]
pub struct Lens {
    pub non_wip_only: bool,
    pub lookback: Option<TimeDelta>,
    pub whole_only: bool,
}

/// Pending status as the Pact Broker computes it.
pub const PENDING: Lens = Lens {
    non_wip_only: false,
    lookback: None,
    whole_only: false,
};

/// WIP status: only non-WIP successes, 30 days' look back (Pact 2.119).
pub const WIP: Lens = Lens {
    non_wip_only: true,
    lookback: Some(TimeDelta::days(30)),
    whole_only: false,
};

impl Lens {
    /// The lens for what `audience` is served: whole contracts count only
    /// whole-contract successes.
    pub fn for_audience(self, audience: Audience) -> Lens {
        Lens {
            whole_only: audience == Audience::Accord,
            ..self
        }
    }
}

/// Reads the facts for one content.
pub fn gather(
    conn: &mut AnyConnection,
    provider_id: i64,
    pact_content_id: i64,
    scope: &Scope,
    lens: Lens,
) -> Result<Facts, StoreError> {
    let q = SuccessQuery {
        provider_id,
        pact_content_id,
        non_wip_only: lens.non_wip_only,
        whole_only: lens.whole_only,
    };
    Ok(match scope {
        Scope::Branch { existing, .. } => {
            let (on_branch, created) = match existing {
                Some((id, created)) => (verifications::success_on_branch(conn, q, *id)?, *created),
                None => (false, now()),
            };
            let from = lens.lookback.map_or_else(epoch, |days| created - days);
            Facts {
                in_scope: vec![on_branch],
                before_branch: !on_branch
                    && verifications::success_between(conn, q, from, created)?,
            }
        }
        Scope::Tags(tags) => Facts {
            in_scope: tags
                .iter()
                .map(|t| verifications::success_with_tag(conn, q, t.as_str()))
                .collect::<Result<_, _>>()?,
            before_branch: false,
        },
        Scope::Any => Facts {
            in_scope: vec![verifications::any_success(conn, q)?],
            before_branch: false,
        },
    })
}

fn epoch() -> NaiveDateTime {
    chrono::DateTime::UNIX_EPOCH.naive_utc()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn branch() -> Scope {
        Scope::Branch {
            name: BranchName::parse("main").expect("name"),
            existing: None,
        }
    }

    fn tags() -> Scope {
        Scope::Tags(vec![
            TagName::parse("a").expect("tag"),
            TagName::parse("b").expect("tag"),
        ])
    }

    #[test]
    fn a_pact_never_verified_on_the_branch_is_pending() {
        let facts = Facts {
            in_scope: vec![false],
            before_branch: false,
        };
        assert!(is_pending(&branch(), &facts));
    }

    #[test]
    fn a_success_on_the_branch_ends_pending() {
        let facts = Facts {
            in_scope: vec![true],
            before_branch: false,
        };
        assert!(!is_pending(&branch(), &facts));
    }

    #[test]
    fn a_new_branch_inherits_successes_from_before_it_existed() {
        let facts = Facts {
            in_scope: vec![false],
            before_branch: true,
        };
        assert!(!is_pending(&branch(), &facts));
    }

    #[test]
    fn with_tags_a_pact_is_pending_while_any_tag_lacks_a_success() {
        assert!(is_pending(
            &tags(),
            &Facts {
                in_scope: vec![true, false],
                before_branch: false
            }
        ));
        assert!(!is_pending(
            &tags(),
            &Facts {
                in_scope: vec![true, true],
                before_branch: false
            }
        ));
    }

    #[test]
    fn without_branch_or_tags_any_success_counts() {
        assert!(is_pending(
            &Scope::Any,
            &Facts {
                in_scope: vec![false],
                before_branch: false
            }
        ));
        assert!(!is_pending(
            &Scope::Any,
            &Facts {
                in_scope: vec![true],
                before_branch: false
            }
        ));
    }
}
