//! Resolving typed selectors into publications: for each selector and each
//! consumer in its scope, the publication(s) it picks for the provider, and
//! why (`Reason`, which the notices turn into text).

use std::collections::BTreeMap;

use super::request::VerificationQuery;
use super::selector::{Criterion, Selector};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::names::{BranchName, TagName};
use crate::store::pacticipants::Pacticipant;
use crate::store::pacts::{self, Publication};
use crate::store::selection::{self, LivePublication};
use crate::store::{StoreError, environments};

/// Why a publication was selected.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    MainBranch {
        branch: String,
    },
    Branch {
        branch: String,
    },
    /// `branch` had no pact at its head, so `fallback`'s head was used.
    FallbackBranch {
        branch: String,
        fallback: String,
    },
    MatchingBranch {
        branch: String,
    },
    LatestTag {
        tag: String,
    },
    /// No version tagged `tag` had a pact, so the latest tagged `fallback`.
    FallbackTag {
        tag: String,
        fallback: String,
    },
    AllTagged {
        tag: String,
    },
    Latest,
    Deployed {
        environment: String,
    },
    Released {
        environment: String,
    },
    /// A WIP pact: the head of a consumer branch or tag.
    WipBranch {
        branch: String,
    },
    WipTag {
        tag: String,
    },
}

/// One selected publication and why.
#[derive(Debug, Clone)]
pub struct Hit {
    pub publication: Publication,
    pub reason: Reason,
}

/// The consumers of a provider (those with at least one publication for it).
pub fn consumers_of(
    conn: &mut AnyConnection,
    provider_id: i64,
) -> Result<BTreeMap<i64, Pacticipant>, StoreError> {
    Ok(selection::consumers(conn, provider_id)?
        .into_iter()
        .map(|p| (p.id, p))
        .collect())
}

/// Every publication the query's selectors (or the defaults) pick.
pub fn resolve(
    conn: &mut AnyConnection,
    provider_id: i64,
    consumers: &BTreeMap<i64, Pacticipant>,
    query: &VerificationQuery,
) -> Result<Vec<Hit>, BrokerError> {
    let mut r = Resolver {
        conn,
        provider_id,
        hits: Vec::new(),
        live: None,
    };
    if query.selectors.is_empty() {
        for consumer in consumers.values() {
            r.default_for(consumer)?;
        }
        r.live_hits(
            &Criterion::DeployedOrReleased { environment: None },
            &|_| true,
        )?;
        return Ok(r.hits);
    }
    for (index, selector) in query.selectors.iter().enumerate() {
        if let Some(env) = selector.criterion.environment()
            && environments::find_by_name(r.conn, env.as_str())?.is_none()
        {
            return Err(BrokerError::bad_field(
                format!("$.consumerVersionSelectors[{index}].environment"),
                format!("environment '{env}' does not exist"),
            ));
        }
        let in_scope = |c: &Pacticipant| in_scope(selector, c);
        if matches!(
            selector.criterion,
            Criterion::Deployed { .. }
                | Criterion::Released { .. }
                | Criterion::DeployedOrReleased { .. }
        ) {
            let ids: Vec<i64> = consumers
                .values()
                .filter(|c| in_scope(c))
                .map(|c| c.id)
                .collect();
            r.live_hits(&selector.criterion, &|id| ids.contains(&id))?;
            continue;
        }
        for consumer in consumers.values().filter(|c| in_scope(c)) {
            r.per_consumer(&selector.criterion, consumer)?;
        }
    }
    Ok(r.hits)
}

fn in_scope(selector: &Selector, consumer: &Pacticipant) -> bool {
    selector
        .consumer
        .as_ref()
        .is_none_or(|name| name.as_str() == consumer.name)
}

struct Resolver<'a> {
    conn: &'a mut AnyConnection,
    provider_id: i64,
    hits: Vec<Hit>,
    /// (deployed, released), loaded once per request.
    live: Option<(Vec<LivePublication>, Vec<LivePublication>)>,
}

impl Resolver<'_> {
    fn push(&mut self, publication: Option<Publication>, reason: Reason) -> bool {
        match publication {
            Some(publication) => {
                self.hits.push(Hit {
                    publication,
                    reason,
                });
                true
            }
            None => false,
        }
    }

    /// The publication at the head of a consumer's branch (nothing when the
    /// head has no pact for the provider, as in the Pact Broker).
    fn branch_head(
        &mut self,
        consumer_id: i64,
        branch: &str,
    ) -> Result<Option<Publication>, StoreError> {
        match selection::branch_head(self.conn, consumer_id, branch)? {
            Some(version_id) => pacts::find_publication(self.conn, version_id, self.provider_id),
            None => Ok(None),
        }
    }

    /// The head of branch `name`, else (when it has no pact) of `fallback`.
    fn branch_or_fallback(
        &mut self,
        consumer_id: i64,
        name: &BranchName,
        fallback: Option<&BranchName>,
    ) -> Result<(), StoreError> {
        let p = self.branch_head(consumer_id, name.as_str())?;
        let branch = name.to_string();
        let reason = Reason::Branch {
            branch: branch.clone(),
        };
        if !self.push(p, reason)
            && let Some(fallback) = fallback
        {
            let p = self.branch_head(consumer_id, fallback.as_str())?;
            let fallback = fallback.to_string();
            self.push(p, Reason::FallbackBranch { branch, fallback });
        }
        Ok(())
    }

    /// The latest version tagged `name`, else (when none has a pact) tagged `fallback`.
    fn tag_or_fallback(
        &mut self,
        consumer_id: i64,
        name: &TagName,
        fallback: Option<&TagName>,
    ) -> Result<(), StoreError> {
        let provider = self.provider_id;
        let p = selection::latest_tagged(self.conn, provider, consumer_id, name.as_str())?;
        let tag = name.to_string();
        if !self.push(p, Reason::LatestTag { tag: tag.clone() })
            && let Some(fallback) = fallback
        {
            let p = selection::latest_tagged(self.conn, provider, consumer_id, fallback.as_str())?;
            let fallback = fallback.to_string();
            self.push(p, Reason::FallbackTag { tag, fallback });
        }
        Ok(())
    }

    fn per_consumer(&mut self, criterion: &Criterion, c: &Pacticipant) -> Result<(), StoreError> {
        let provider = self.provider_id;
        match criterion {
            Criterion::MainBranch => {
                if let Some(branch) = c.main_branch.clone() {
                    let p = self.branch_head(c.id, &branch)?;
                    self.push(p, Reason::MainBranch { branch });
                }
            }
            Criterion::Branch { name, fallback } => {
                self.branch_or_fallback(c.id, name, fallback.as_ref())?;
            }
            Criterion::MatchingBranch { name } => {
                let p = self.branch_head(c.id, name.as_str())?;
                self.push(
                    p,
                    Reason::MatchingBranch {
                        branch: name.to_string(),
                    },
                );
            }
            Criterion::Tag {
                name,
                latest: true,
                fallback,
            } => {
                self.tag_or_fallback(c.id, name, fallback.as_ref())?;
            }
            Criterion::Tag {
                name,
                latest: false,
                ..
            } => {
                for p in selection::all_tagged(self.conn, provider, c.id, name.as_str())? {
                    self.push(
                        Some(p),
                        Reason::AllTagged {
                            tag: name.to_string(),
                        },
                    );
                }
            }
            Criterion::Latest => {
                let p = selection::latest(self.conn, provider, c.id)?;
                self.push(p, Reason::Latest);
            }
            Criterion::Deployed { .. }
            | Criterion::Released { .. }
            | Criterion::DeployedOrReleased { .. } => {}
        }
        Ok(())
    }

    /// No selectors: the head of the main branch (else the latest version
    /// tagged with the main branch's name, else the latest version).
    fn default_for(&mut self, c: &Pacticipant) -> Result<(), StoreError> {
        if let Some(branch) = c.main_branch.clone() {
            let p = self.branch_head(c.id, &branch)?;
            if self.push(
                p,
                Reason::MainBranch {
                    branch: branch.clone(),
                },
            ) {
                return Ok(());
            }
            let p = selection::latest_tagged(self.conn, self.provider_id, c.id, &branch)?;
            if self.push(p, Reason::LatestTag { tag: branch }) {
                return Ok(());
            }
        }
        let p = selection::latest(self.conn, self.provider_id, c.id)?;
        self.push(p, Reason::Latest);
        Ok(())
    }

    fn live_hits(
        &mut self,
        criterion: &Criterion,
        consumer_ok: &dyn Fn(i64) -> bool,
    ) -> Result<(), StoreError> {
        if self.live.is_none() {
            let deployed = selection::deployed(self.conn, self.provider_id)?;
            let released = selection::released(self.conn, self.provider_id)?;
            self.live = Some((deployed, released));
        }
        let Some((deployed, released)) = &self.live else {
            return Ok(());
        };
        let (want_deployed, want_released, env) = match criterion {
            Criterion::Deployed { environment } => (true, false, environment),
            Criterion::Released { environment } => (false, true, environment),
            Criterion::DeployedOrReleased { environment } => (true, true, environment),
            _ => return Ok(()),
        };
        let env_ok = |l: &LivePublication| env.as_ref().is_none_or(|e| e.as_str() == l.environment);
        let mut found = Vec::new();
        for (wanted, rows, deployed) in [
            (want_deployed, deployed, true),
            (want_released, released, false),
        ] {
            for l in rows
                .iter()
                .filter(|l| wanted && env_ok(l) && consumer_ok(l.publication.consumer_id))
            {
                let environment = l.environment.clone();
                let reason = if deployed {
                    Reason::Deployed { environment }
                } else {
                    Reason::Released { environment }
                };
                found.push(Hit {
                    publication: l.publication.clone(),
                    reason,
                });
            }
        }
        self.hits.extend(found);
        Ok(())
    }
}
