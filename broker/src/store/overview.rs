//! Read queries of the overview pages (home, search, network graph, a
//! pacticipant's integrations): the latest pact of each integration with
//! its latest verification, recent activity, what is live where.
//!
//! Every query is bounded or grouped over an index (see the migrations):
//! latest pact per pair by `pact_publications_pair_latest` (index-only
//! `max(consumer_version_id)`), the latest result of a content by
//! `verifications_content_provider_version` (index-only `max(id)`), recent
//! rows by the primary key read backwards with a `LIMIT`.

use std::collections::HashMap;

use diesel::dsl::max;
use diesel::prelude::*;

use super::{ID_CHUNK, StoreError, directory};
use crate::db::AnyConnection;
use crate::schema::{
    deployed_versions, pact_publications, released_versions, verifications, versions,
};

/// Which integrations to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every integration.
    All,
    /// Those where this pacticipant is the provider.
    Provider(i64),
    /// Those where this pacticipant is the consumer.
    Consumer(i64),
}

/// The latest pact of an integration (by consumer version order).
#[derive(Debug, Clone)]
pub struct LatestPact {
    pub consumer_id: i64,
    pub provider_id: i64,
    pub consumer_version_id: i64,
    pub consumer_version: String,
    pub pact_content_id: i64,
    pub sha: String,
    pub created_at: chrono::NaiveDateTime,
}

/// A verification as the overview pages show it.
#[derive(Debug, Clone, Queryable)]
pub struct VerdictRow {
    pub id: i64,
    pub pact_content_id: i64,
    pub consumer_id: i64,
    pub provider_id: i64,
    pub provider_version_id: i64,
    pub provider_version: String,
    pub success: bool,
    /// The pact was pending for the provider: a failure did not fail its build.
    pub pending: bool,
    /// Published through the Pact view of a content with Accord-only parts
    /// (those left unverified). Cleared as read when the content has none,
    /// by the matrix's rule (`coverage::accord_only_parts`).
    pub pact_view: bool,
    pub number: i64,
    pub execution_date: chrono::NaiveDateTime,
}

impl VerdictRow {
    /// A success of the Pact view only, Accord-only parts left unverified.
    pub fn partial(&self) -> bool {
        self.pact_view && self.success
    }
}

type VerdictCols = (
    verifications::id,
    verifications::pact_content_id,
    verifications::consumer_id,
    verifications::provider_id,
    verifications::provider_version_id,
    versions::number,
    verifications::success,
    verifications::pending,
    verifications::pact_view,
    verifications::number,
    verifications::execution_date,
);
const VERDICT_COLS: VerdictCols = (
    verifications::id,
    verifications::pact_content_id,
    verifications::consumer_id,
    verifications::provider_id,
    verifications::provider_version_id,
    versions::number,
    verifications::success,
    verifications::pending,
    verifications::pact_view,
    verifications::number,
    verifications::execution_date,
);

/// (provider, consumer, latest consumer version) per integration in `scope`.
fn latest_pairs(
    conn: &mut AnyConnection,
    scope: Scope,
) -> Result<Vec<(i64, i64, i64)>, StoreError> {
    let grouped = (
        pact_publications::provider_id,
        pact_publications::consumer_id,
    );
    let cols = (
        pact_publications::provider_id,
        pact_publications::consumer_id,
        max(pact_publications::consumer_version_id),
    );
    let rows: Vec<(i64, i64, Option<i64>)> = match scope {
        Scope::All => pact_publications::table
            .group_by(grouped)
            .select(cols)
            .load(conn)?,
        Scope::Provider(p) => pact_publications::table
            .filter(pact_publications::provider_id.eq(p))
            .group_by(grouped)
            .select(cols)
            .load(conn)?,
        Scope::Consumer(c) => {
            let own = versions::table
                .filter(versions::pacticipant_id.eq(c))
                .select(versions::id);
            pact_publications::table
                .filter(pact_publications::consumer_version_id.eq_any(own))
                .group_by(grouped)
                .select(cols)
                .load(conn)?
        }
    };
    Ok(rows
        .into_iter()
        .filter_map(|(p, c, v)| v.map(|v| (p, c, v)))
        .collect())
}

/// The latest pact of every integration in `scope`, with its consumer
/// version number and content sha.
pub fn latest_pacts(conn: &mut AnyConnection, scope: Scope) -> Result<Vec<LatestPact>, StoreError> {
    let pairs = latest_pairs(conn, scope)?;
    let mut version_ids: Vec<i64> = pairs.iter().map(|r| r.2).collect();
    version_ids.sort_unstable();
    version_ids.dedup();
    let mut rows: Vec<(i64, i64, i64, i64, chrono::NaiveDateTime)> = Vec::new();
    for chunk in version_ids.chunks(ID_CHUNK) {
        rows.extend(
            pact_publications::table
                .filter(pact_publications::consumer_version_id.eq_any(chunk))
                .select((
                    pact_publications::consumer_version_id,
                    pact_publications::consumer_id,
                    pact_publications::provider_id,
                    pact_publications::pact_content_id,
                    pact_publications::created_at,
                ))
                .load::<(i64, i64, i64, i64, chrono::NaiveDateTime)>(conn)?,
        );
    }
    let numbers = directory::version_numbers(conn, &version_ids)?;
    let content_ids: Vec<i64> = rows.iter().map(|r| r.3).collect();
    let shas = directory::content_shas(conn, &content_ids)?;
    let wanted: std::collections::HashSet<(i64, i64, i64)> = pairs.into_iter().collect();
    Ok(rows
        .into_iter()
        .filter(|(v, c, p, _, _)| wanted.contains(&(*p, *c, *v)))
        .map(|(v, c, p, content, at)| LatestPact {
            consumer_id: c,
            provider_id: p,
            consumer_version_id: v,
            consumer_version: numbers.get(&v).cloned().unwrap_or_default(),
            pact_content_id: content,
            sha: shas.get(&content).cloned().unwrap_or_default(),
            created_at: at,
        })
        .collect())
}

/// The latest verification of each of these contents (a whole-contract
/// result of the same provider version preferred to a later success of the
/// Pact view only), by content id.
pub fn latest_verifications(
    conn: &mut AnyConnection,
    content_ids: &[i64],
) -> Result<HashMap<i64, VerdictRow>, StoreError> {
    let mut ids: Vec<i64> = Vec::new();
    for chunk in content_ids.chunks(ID_CHUNK) {
        let latest: Vec<Option<i64>> = verifications::table
            .filter(verifications::pact_content_id.eq_any(chunk))
            .group_by(verifications::pact_content_id)
            .select(max(verifications::id))
            .load(conn)?;
        ids.extend(latest.into_iter().flatten());
    }
    let rows = verdicts_by_ids(conn, &ids)?;
    let mut rows = prefer_whole(conn, rows)?;
    covered_by_view(conn, &mut rows)?;
    Ok(rows.into_iter().map(|r| (r.pact_content_id, r)).collect())
}

/// Clears `pact_view` of each Pact-view success whose content has no
/// Accord-only parts: its view was the whole contract, so it is a success
/// (the one rule the matrix follows too, `coverage::accord_only_parts`).
fn covered_by_view(conn: &mut AnyConnection, rows: &mut [VerdictRow]) -> Result<(), StoreError> {
    let contents: Vec<i64> = rows
        .iter()
        .filter(|r| r.partial())
        .map(|r| r.pact_content_id)
        .collect();
    if contents.is_empty() {
        return Ok(());
    }
    let parts = super::coverage::accord_only_parts(conn, contents)?;
    for row in rows.iter_mut().filter(|r| r.success) {
        row.pact_view &= parts.contains_key(&row.pact_content_id);
    }
    Ok(())
}

/// Each successful Pact-view row replaced by the latest whole-contract
/// result of the same (content, provider version), when there is one.
fn prefer_whole(
    conn: &mut AnyConnection,
    rows: Vec<VerdictRow>,
) -> Result<Vec<VerdictRow>, StoreError> {
    let partial: Vec<&VerdictRow> = rows.iter().filter(|r| r.partial()).collect();
    if partial.is_empty() {
        return Ok(rows);
    }
    let pairs: Vec<(i64, i64)> = partial
        .iter()
        .map(|r| (r.pact_content_id, r.provider_version_id))
        .collect();
    let ids = super::coverage::whole_result_ids(conn, &pairs)?;
    let whole = verdicts_by_ids(conn, &ids)?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let better = whole.iter().find(|w| {
                (w.pact_content_id, w.provider_version_id)
                    == (r.pact_content_id, r.provider_version_id)
            });
            match better {
                Some(w) if r.partial() => w.clone(),
                _ => r,
            }
        })
        .collect())
}

/// The verifications with these ids.
fn verdicts_by_ids(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<VerdictRow>, StoreError> {
    let mut rows = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(ID_CHUNK) {
        rows.extend(
            verifications::table
                .inner_join(versions::table)
                .filter(verifications::id.eq_any(chunk))
                .select(VERDICT_COLS)
                .load::<VerdictRow>(conn)?,
        );
    }
    Ok(rows)
}

/// The newest `limit` verifications anywhere, newest first.
pub fn recent_verifications(
    conn: &mut AnyConnection,
    limit: i64,
) -> Result<Vec<VerdictRow>, StoreError> {
    let ids: Vec<i64> = verifications::table
        .order(verifications::id.desc())
        .limit(limit)
        .select(verifications::id)
        .load(conn)?;
    let mut rows = verdicts_by_ids(conn, &ids)?;
    covered_by_view(conn, &mut rows)?;
    rows.sort_by_key(|r| std::cmp::Reverse(r.id));
    Ok(rows)
}

/// A recent publication, with the consumer version it was published for
/// and the previous consumer version of the same pair (for a diff).
#[derive(Debug, Clone)]
pub struct RecentPublication {
    pub consumer_id: i64,
    pub provider_id: i64,
    pub consumer_version: String,
    pub previous_version: Option<String>,
    pub created_at: chrono::NaiveDateTime,
}

/// The newest `limit` publications anywhere, newest first.
pub fn recent_publications(
    conn: &mut AnyConnection,
    limit: i64,
) -> Result<Vec<RecentPublication>, StoreError> {
    let rows: Vec<(i64, i64, i64, chrono::NaiveDateTime)> = pact_publications::table
        .order(pact_publications::id.desc())
        .limit(limit)
        .select((
            pact_publications::consumer_id,
            pact_publications::provider_id,
            pact_publications::consumer_version_id,
            pact_publications::created_at,
        ))
        .load(conn)?;
    let mut previous = Vec::with_capacity(rows.len());
    for (c, p, v, _) in &rows {
        // bounded by `limit`: one index probe of the pair each
        previous.push(
            pact_publications::table
                .filter(pact_publications::provider_id.eq(p))
                .filter(pact_publications::consumer_id.eq(c))
                .filter(pact_publications::consumer_version_id.lt(v))
                .order(pact_publications::consumer_version_id.desc())
                .select(pact_publications::consumer_version_id)
                .first::<i64>(conn)
                .optional()?,
        );
    }
    let mut ids: Vec<i64> = rows.iter().map(|r| r.2).collect();
    ids.extend(previous.iter().flatten());
    let numbers = directory::version_numbers(conn, &ids)?;
    let number = |id: &i64| numbers.get(id).cloned().unwrap_or_default();
    Ok(rows
        .iter()
        .zip(previous)
        .map(|((c, p, v, at), prev)| RecentPublication {
            consumer_id: *c,
            provider_id: *p,
            consumer_version: number(v),
            previous_version: prev.as_ref().map(number),
            created_at: *at,
        })
        .collect())
}

/// A version live in an environment: deployed (with its application
/// instance, `""` for none) or released and supported.
#[derive(Debug, Clone)]
pub struct LiveVersion {
    pub environment_id: i64,
    pub pacticipant_id: i64,
    pub version: String,
    pub instance: Option<String>,
    pub deployed: bool,
    pub since: chrono::NaiveDateTime,
}

/// Everything currently deployed or supported, in every environment.
pub fn live_versions(conn: &mut AnyConnection) -> Result<Vec<LiveVersion>, StoreError> {
    let deployed: Vec<(i64, i64, String, String, chrono::NaiveDateTime)> = deployed_versions::table
        .inner_join(versions::table)
        .filter(deployed_versions::undeployed_at.is_null())
        .select((
            deployed_versions::environment_id,
            deployed_versions::pacticipant_id,
            versions::number,
            deployed_versions::application_instance,
            deployed_versions::created_at,
        ))
        .load(conn)?;
    let released: Vec<(i64, i64, String, chrono::NaiveDateTime)> = released_versions::table
        .inner_join(versions::table)
        .filter(released_versions::support_ended_at.is_null())
        .select((
            released_versions::environment_id,
            released_versions::pacticipant_id,
            versions::number,
            released_versions::created_at,
        ))
        .load(conn)?;
    let mut all: Vec<LiveVersion> = deployed
        .into_iter()
        .map(|(e, p, version, instance, since)| LiveVersion {
            environment_id: e,
            pacticipant_id: p,
            version,
            instance: Some(instance).filter(|i| !i.is_empty()),
            deployed: true,
            since,
        })
        .collect();
    all.extend(
        released
            .into_iter()
            .map(|(e, p, version, since)| LiveVersion {
                environment_id: e,
                pacticipant_id: p,
                version,
                instance: None,
                deployed: false,
                since,
            }),
    );
    Ok(all)
}
