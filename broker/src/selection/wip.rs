//! Work-in-progress pacts (reference §3.6): pacts at the head of a consumer
//! branch or tag, published since the requested date, not selected
//! explicitly, and not yet verified successfully (outside WIP) in the
//! provider's scope. They are handed out pending, so they never fail the
//! provider's build.
//!
//! Candidates come from the publications created since the date (index on
//! provider and creation time), then are checked for being a head — rather
//! than enumerating every branch and tag of every consumer.

use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDateTime;

use super::pending::{self, Scope};
use super::resolve::{Hit, Reason};
use crate::db::AnyConnection;
use crate::store::StoreError;
use crate::store::pacts::Publication;
use crate::store::selection;

/// The WIP pacts of a provider since `since`, excluding contents already
/// selected explicitly. Nothing without a provider branch or tags.
pub fn wip_hits(
    conn: &mut AnyConnection,
    provider_id: i64,
    since: NaiveDateTime,
    selected: &BTreeSet<i64>,
    scope: &Scope,
) -> Result<Vec<Hit>, StoreError> {
    if *scope == Scope::Any {
        return Ok(Vec::new());
    }
    let mut still_wip: HashMap<i64, bool> = HashMap::new();
    let mut hits = Vec::new();
    for publication in selection::published_since(conn, provider_id, since)? {
        if selected.contains(&publication.pact_content_id) {
            continue;
        }
        let reasons = head_reasons(conn, provider_id, &publication)?;
        if reasons.is_empty() {
            continue;
        }
        let content = publication.pact_content_id;
        let wip = match still_wip.get(&content) {
            Some(known) => *known,
            None => {
                let facts = pending::gather(conn, provider_id, content, scope, pending::WIP)?;
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

/// The branches and tags whose head (for this provider) is this publication.
fn head_reasons(
    conn: &mut AnyConnection,
    provider_id: i64,
    publication: &Publication,
) -> Result<Vec<Reason>, StoreError> {
    let version = publication.consumer_version_id;
    let mut reasons = Vec::new();
    for (branch_id, branch) in selection::branches_of(conn, version)? {
        if selection::head_of(conn, branch_id)? == Some(version) {
            reasons.push(Reason::WipBranch { branch });
        }
    }
    for tag in selection::tag_names_of(conn, version)? {
        let latest = selection::latest_tagged(conn, provider_id, publication.consumer_id, &tag)?;
        if latest.is_some_and(|p| p.id == publication.id) {
            reasons.push(Reason::WipTag { tag });
        }
    }
    Ok(reasons)
}
