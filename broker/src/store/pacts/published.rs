//! Published pacts read back: one by consumer version, the latest by
//! branch, tag or none, every one of a provider, per pair.

use diesel::prelude::*;

use super::{PactContent, Publication};
use crate::db::AnyConnection;
use crate::schema::{branch_versions, branches, pact_contents, pact_publications, tags, versions};
use crate::store::StoreError;
use crate::store::versions::Version;

/// A publication with its content and consumer version: one pact as served.
#[derive(Debug, Clone)]
pub struct PublishedPact {
    pub publication: Publication,
    pub content: PactContent,
    pub consumer_version: Version,
}

/// Which publications to list for a provider (and maybe one consumer).
#[derive(Debug, Clone, Default)]
pub struct PactFilter<'a> {
    pub provider_id: i64,
    pub consumer_id: Option<i64>,
    /// Only consumer versions carrying this tag.
    pub tag: Option<&'a str>,
    /// Only consumer versions carrying no tag at all.
    pub untagged: bool,
    /// Only consumer versions on the branch of this name.
    pub branch: Option<&'a str>,
    /// Only publications of this content.
    pub pact_content_id: Option<i64>,
}

impl<'a> PactFilter<'a> {
    /// The same, only consumer versions tagged `tag`.
    pub fn tagged(self, tag: &'a str) -> PactFilter<'a> {
        PactFilter {
            tag: Some(tag),
            ..self
        }
    }

    /// The same, only consumer versions on branch `branch`.
    pub fn on_branch(self, branch: &'a str) -> PactFilter<'a> {
        PactFilter {
            branch: Some(branch),
            ..self
        }
    }
}

type Joined = (Publication, PactContent, Version);

fn joined(row: Joined) -> PublishedPact {
    PublishedPact {
        publication: row.0,
        content: row.1,
        consumer_version: row.2,
    }
}

/// The pact of a consumer version for a provider.
pub fn find_pact(
    conn: &mut AnyConnection,
    consumer_version_id: i64,
    provider_id: i64,
) -> Result<Option<PublishedPact>, StoreError> {
    let row: Option<Joined> = pact_publications::table
        .inner_join(pact_contents::table)
        .inner_join(versions::table)
        .filter(pact_publications::consumer_version_id.eq(consumer_version_id))
        .filter(pact_publications::provider_id.eq(provider_id))
        .select((
            Publication::as_select(),
            PactContent::as_select(),
            Version::as_select(),
        ))
        .first(conn)
        .optional()?;
    Ok(row.map(joined))
}

/// Ids of the publications `filter` selects as (consumer id, publication
/// id), newest consumer version first.
fn select_ids(
    conn: &mut AnyConnection,
    filter: &PactFilter<'_>,
) -> Result<Vec<(i64, i64)>, StoreError> {
    let mut query = pact_publications::table
        .filter(pact_publications::provider_id.eq(filter.provider_id))
        .select((pact_publications::consumer_id, pact_publications::id))
        .order(pact_publications::consumer_version_id.desc())
        .into_boxed();
    if let Some(consumer_id) = filter.consumer_id {
        query = query.filter(pact_publications::consumer_id.eq(consumer_id));
    }
    if let Some(tag) = filter.tag {
        query = query.filter(
            pact_publications::consumer_version_id.eq_any(
                tags::table
                    .filter(tags::name.eq(tag))
                    .select(tags::version_id),
            ),
        );
    }
    if filter.untagged {
        query = query.filter(diesel::dsl::not(
            pact_publications::consumer_version_id.eq_any(tags::table.select(tags::version_id)),
        ));
    }
    if let Some(branch) = filter.branch {
        query = query.filter(
            pact_publications::consumer_version_id.eq_any(
                branch_versions::table
                    .inner_join(branches::table)
                    .filter(branches::name.eq(branch))
                    .select(branch_versions::version_id),
            ),
        );
    }
    if let Some(content_id) = filter.pact_content_id {
        query = query.filter(pact_publications::pact_content_id.eq(content_id));
    }
    Ok(query.load(conn)?)
}

/// The publications with these ids, newest consumer version first.
fn load_by_ids(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<PublishedPact>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<Joined> = pact_publications::table
        .inner_join(pact_contents::table)
        .inner_join(versions::table)
        .filter(pact_publications::id.eq_any(ids))
        .order(pact_publications::consumer_version_id.desc())
        .select((
            Publication::as_select(),
            PactContent::as_select(),
            Version::as_select(),
        ))
        .load(conn)?;
    Ok(rows.into_iter().map(joined).collect())
}

/// Every pact `filter` selects, newest consumer version first.
pub fn list_pacts(
    conn: &mut AnyConnection,
    filter: &PactFilter<'_>,
) -> Result<Vec<PublishedPact>, StoreError> {
    let ids: Vec<i64> = select_ids(conn, filter)?.into_iter().map(|r| r.1).collect();
    load_by_ids(conn, &ids)
}

/// The newest pact of each consumer among those `filter` selects ("latest"
/// = the most recently created consumer version), by consumer id.
pub fn list_latest_pacts(
    conn: &mut AnyConnection,
    filter: &PactFilter<'_>,
) -> Result<Vec<PublishedPact>, StoreError> {
    let mut seen = std::collections::HashSet::new();
    let ids: Vec<i64> = select_ids(conn, filter)?
        .into_iter()
        .filter(|(consumer, _)| seen.insert(*consumer))
        .map(|r| r.1)
        .collect();
    let mut pacts = load_by_ids(conn, &ids)?;
    pacts.sort_by_key(|p| p.publication.consumer_id);
    Ok(pacts)
}

/// The newest pact `filter` selects (set `consumer_id` for one pair).
pub fn find_latest_pact(
    conn: &mut AnyConnection,
    filter: &PactFilter<'_>,
) -> Result<Option<PublishedPact>, StoreError> {
    let ids: Vec<i64> = select_ids(conn, filter)?
        .into_iter()
        .take(1)
        .map(|r| r.1)
        .collect();
    Ok(load_by_ids(conn, &ids)?.into_iter().next())
}

/// The newest pact of every (consumer, provider) pair, by consumer then
/// provider id.
pub fn list_latest_per_pair(conn: &mut AnyConnection) -> Result<Vec<PublishedPact>, StoreError> {
    let rows: Vec<(i64, i64, i64)> = pact_publications::table
        .select((
            pact_publications::consumer_id,
            pact_publications::provider_id,
            pact_publications::id,
        ))
        .order(pact_publications::consumer_version_id.desc())
        .load(conn)?;
    let mut seen = std::collections::HashSet::new();
    let ids: Vec<i64> = rows
        .into_iter()
        .filter(|(c, p, _)| seen.insert((*c, *p)))
        .map(|r| r.2)
        .collect();
    let mut pacts = load_by_ids(conn, &ids)?;
    pacts.sort_by_key(|p| (p.publication.consumer_id, p.publication.provider_id));
    Ok(pacts)
}

/// The consumers that have published a pact for a provider.
pub fn list_consumer_ids(
    conn: &mut AnyConnection,
    provider_id: i64,
) -> Result<Vec<i64>, StoreError> {
    Ok(pact_publications::table
        .filter(pact_publications::provider_id.eq(provider_id))
        .select(pact_publications::consumer_id)
        .distinct()
        .order(pact_publications::consumer_id.asc())
        .load(conn)?)
}

/// One consumer version of a pair and the content it published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairVersion {
    pub consumer_version_id: i64,
    pub number: String,
    pub pact_content_id: i64,
}

/// Every consumer version that published a pact for the pair, newest
/// first (numbers and content ids only: the pages' lists and pickers).
pub fn list_pair_versions(
    conn: &mut AnyConnection,
    provider_id: i64,
    consumer_id: i64,
) -> Result<Vec<PairVersion>, StoreError> {
    let rows: Vec<(i64, String, i64)> = pact_publications::table
        .inner_join(versions::table)
        .filter(pact_publications::provider_id.eq(provider_id))
        .filter(pact_publications::consumer_id.eq(consumer_id))
        .order(pact_publications::consumer_version_id.desc())
        .select((
            pact_publications::consumer_version_id,
            versions::number,
            pact_publications::pact_content_id,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, number, content)| PairVersion {
            consumer_version_id: id,
            number,
            pact_content_id: content,
        })
        .collect())
}
