//! Work-in-progress pacts (reference §3.6): pacts at the head of a consumer
//! branch or tag, published since the requested date, not selected
//! explicitly, and not yet verified successfully (outside WIP) in the
//! provider's scope. They are handed out pending, so they never fail the
//! provider's build.
//!
//! The branch and tag heads of the provider's consumers come first, from
//! two grouped queries; only their publications since the date are
//! candidates, so the cost follows the number of heads, not the number of
//! publications in the window.

use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDateTime;

use super::pending::{self, Scope};
use super::resolve::{Hit, Reason};
use crate::db::AnyConnection;
use crate::store::StoreError;
use crate::store::selection;

/// The WIP pacts of a provider since `since`, excluding contents already
/// selected explicitly, judged through `lens` (`pending::WIP` as the
/// client sees it). Nothing without a provider branch or tags.
pub fn wip_hits(
    conn: &mut AnyConnection,
    provider_id: i64,
    consumer_ids: &[i64],
    since: NaiveDateTime,
    selected: &BTreeSet<i64>,
    scope: &Scope,
    lens: pending::Lens,
) -> Result<Vec<Hit>, StoreError> {
    if *scope == Scope::Any {
        return Ok(Vec::new());
    }
    let heads = Heads::load(conn, provider_id, consumer_ids)?;
    let versions: Vec<i64> = heads.by_version.keys().copied().collect();
    let candidates = selection::published_since(conn, provider_id, since, &versions)?;
    let mut still_wip: HashMap<i64, bool> = HashMap::new();
    let mut hits = Vec::new();
    for publication in candidates {
        if selected.contains(&publication.pact_content_id) {
            continue;
        }
        let reasons = heads.reasons(publication.consumer_version_id);
        if reasons.is_empty() {
            continue;
        }
        let content = publication.pact_content_id;
        let wip = match still_wip.get(&content) {
            Some(known) => *known,
            None => {
                let facts = pending::gather(conn, provider_id, content, scope, lens)?;
                let verdict = pending::is_pending(scope, &facts);
                still_wip.insert(content, verdict);
                verdict
            }
        };
        if wip {
            hits.extend(reasons.into_iter().map(|reason| Hit {
                publication: publication.clone(),
                reason,
            }));
        }
    }
    Ok(hits)
}

/// Which consumer versions head a branch, or a tag (for this provider).
struct Heads {
    by_version: HashMap<i64, Vec<Reason>>,
}

impl Heads {
    /// Two grouped queries over the provider's consumers, rather than
    /// several queries per publication.
    fn load(
        conn: &mut AnyConnection,
        provider_id: i64,
        consumers: &[i64],
    ) -> Result<Heads, StoreError> {
        let mut by_version: HashMap<i64, Vec<Reason>> = HashMap::new();
        for (version, branch) in selection::branch_heads(conn, consumers)? {
            by_version
                .entry(version)
                .or_default()
                .push(Reason::WipBranch { branch });
        }
        for (version, tag) in selection::tag_heads(conn, provider_id)? {
            by_version
                .entry(version)
                .or_default()
                .push(Reason::WipTag { tag });
        }
        for reasons in by_version.values_mut() {
            reasons.sort();
        }
        Ok(Heads { by_version })
    }

    fn reasons(&self, version_id: i64) -> Vec<Reason> {
        self.by_version
            .get(&version_id)
            .cloned()
            .unwrap_or_default()
    }
}
