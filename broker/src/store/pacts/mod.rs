//! Contract content (stored once per sha) and publications (a consumer
//! version + a provider → a content). Reading published pacts back — by
//! selector, latest, per pair — is `published`; a new version's first
//! publication of stored content in one statement (PostgreSQL) is `first`.

pub mod first;
mod published;

pub use published::{
    PactFilter, PairVersion, PublishedPact, find_latest_pact, find_pact, list_consumer_ids,
    list_latest_pacts, list_latest_per_pair, list_pacts, list_pair_versions,
};

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::{pact_contents, pact_publications};

/// Stored contract content.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = pact_contents)]
pub struct PactContent {
    pub id: i64,
    pub sha: String,
    pub consumer_id: i64,
    pub provider_id: i64,
    /// The contract JSON as served (each interaction carries its `_id`).
    pub content: String,
    pub interactions_count: i64,
    pub created_at: chrono::NaiveDateTime,
}

/// A publication: consumer version `consumer_version_id` has content
/// `pact_content_id` for provider `provider_id`.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = pact_publications)]
pub struct Publication {
    pub id: i64,
    pub consumer_version_id: i64,
    pub consumer_id: i64,
    pub provider_id: i64,
    pub pact_content_id: i64,
    pub revision: i64,
    pub created_at: chrono::NaiveDateTime,
    pub updated_at: chrono::NaiveDateTime,
}

/// Content to store.
#[derive(Debug, Clone)]
pub struct NewContent<'a> {
    pub sha: &'a str,
    pub consumer_id: i64,
    pub provider_id: i64,
    pub content: &'a str,
    pub interactions_count: i64,
}

/// The content with this sha.
pub fn find_content_by_sha(
    conn: &mut AnyConnection,
    sha: &str,
) -> Result<Option<PactContent>, StoreError> {
    Ok(pact_contents::table
        .filter(pact_contents::sha.eq(sha))
        .select(PactContent::as_select())
        .first(conn)
        .optional()?)
}

/// The content with this id.
pub fn find_content_by_id(
    conn: &mut AnyConnection,
    id: i64,
) -> Result<Option<PactContent>, StoreError> {
    Ok(pact_contents::table
        .find(id)
        .select(PactContent::as_select())
        .first(conn)
        .optional()?)
}

/// Stored content without its text: what a caller needs beside the
/// parsed contract.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = pact_contents)]
pub struct ContentHead {
    pub id: i64,
    pub sha: String,
    pub consumer_id: i64,
    pub provider_id: i64,
}

/// The heads of contents `ids` (at most `ID_CHUNK` a query), in no order.
pub fn heads_by_ids(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<ContentHead>, StoreError> {
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(super::ID_CHUNK) {
        out.extend(
            pact_contents::table
                .filter(pact_contents::id.eq_any(chunk))
                .select(ContentHead::as_select())
                .load(conn)?,
        );
    }
    Ok(out)
}

/// (id, sha, text) of contents `ids`, in one query: whole documents, so
/// pass a bounded number (`parsed::load` passes 50).
pub fn texts_by_ids(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<Vec<(i64, String, String)>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(pact_contents::table
        .filter(pact_contents::id.eq_any(ids))
        .select((
            pact_contents::id,
            pact_contents::sha,
            pact_contents::content,
        ))
        .load(conn)?)
}

/// Stores content unless its sha is already stored; returns the stored row.
pub fn find_or_insert_content(
    conn: &mut AnyConnection,
    new: &NewContent<'_>,
) -> Result<PactContent, StoreError> {
    if let Some(found) = find_content_by_sha(conn, new.sha)? {
        return Ok(found);
    }
    insert_content(conn, new)
}

/// Stores content the caller just found missing; returns the stored row
/// (the one a concurrent publisher stored first, if one did).
pub fn insert_content(
    conn: &mut AnyConnection,
    new: &NewContent<'_>,
) -> Result<PactContent, StoreError> {
    // `ON CONFLICT DO NOTHING`: when a concurrent publisher stores the same
    // content first, PostgreSQL waits for it and inserts nothing (no error
    // aborts the request's transaction, so no savepoint is needed), and
    // the winner's row is read.
    let row = (
        pact_contents::sha.eq(new.sha),
        pact_contents::consumer_id.eq(new.consumer_id),
        pact_contents::provider_id.eq(new.provider_id),
        pact_contents::content.eq(new.content),
        pact_contents::interactions_count.eq(new.interactions_count),
        pact_contents::created_at.eq(now()),
    );
    let inserted = crate::on_backend!(conn, |c| diesel::insert_into(pact_contents::table)
        .values(row)
        .on_conflict(pact_contents::sha)
        .do_nothing()
        // PactContent's columns (`as_returning` does not build for the MultiBackend)
        .returning((
            pact_contents::id,
            pact_contents::sha,
            pact_contents::consumer_id,
            pact_contents::provider_id,
            pact_contents::content,
            pact_contents::interactions_count,
            pact_contents::created_at,
        ))
        .get_result::<PactContent>(c)
        .optional())?;
    match inserted {
        Some(stored) => Ok(stored),
        None => find_content_by_sha(conn, new.sha)?
            .ok_or(StoreError::Query(diesel::result::Error::NotFound)),
    }
}

/// The publication of a consumer version for a provider.
pub fn find_publication(
    conn: &mut AnyConnection,
    consumer_version_id: i64,
    provider_id: i64,
) -> Result<Option<Publication>, StoreError> {
    Ok(pact_publications::table
        .filter(pact_publications::consumer_version_id.eq(consumer_version_id))
        .filter(pact_publications::provider_id.eq(provider_id))
        .select(Publication::as_select())
        .first(conn)
        .optional()?)
}

/// Every publication of a consumer version (one per provider).
pub fn list_publications_for_version(
    conn: &mut AnyConnection,
    consumer_version_id: i64,
) -> Result<Vec<Publication>, StoreError> {
    Ok(pact_publications::table
        .filter(pact_publications::consumer_version_id.eq(consumer_version_id))
        .order(pact_publications::provider_id.asc())
        .select(Publication::as_select())
        .load(conn)?)
}

/// Links a consumer version to content for a provider: inserts the
/// publication, or points an existing one at the new content (revision + 1).
/// Callers decide beforehand whether a change of content is allowed.
pub fn publish(
    conn: &mut AnyConnection,
    consumer_version_id: i64,
    consumer_id: i64,
    provider_id: i64,
    pact_content_id: i64,
) -> Result<Publication, StoreError> {
    let at = now();
    if let Some(existing) = find_publication(conn, consumer_version_id, provider_id)? {
        if existing.pact_content_id == pact_content_id {
            return Ok(existing);
        }
        return Ok(diesel::update(pact_publications::table.find(existing.id))
            .set((
                pact_publications::pact_content_id.eq(pact_content_id),
                pact_publications::revision.eq(existing.revision + 1),
                pact_publications::updated_at.eq(at),
            ))
            .returning(pact_publications::all_columns)
            .get_result(conn)?);
    }
    insert_publication(
        conn,
        consumer_version_id,
        consumer_id,
        provider_id,
        pact_content_id,
    )
}

/// Inserts the first publication of a consumer version for a provider
/// (the caller knows there is none; a concurrent one is a unique violation).
pub fn insert_publication(
    conn: &mut AnyConnection,
    consumer_version_id: i64,
    consumer_id: i64,
    provider_id: i64,
    pact_content_id: i64,
) -> Result<Publication, StoreError> {
    let at = now();
    Ok(diesel::insert_into(pact_publications::table)
        .values((
            pact_publications::consumer_version_id.eq(consumer_version_id),
            pact_publications::consumer_id.eq(consumer_id),
            pact_publications::provider_id.eq(provider_id),
            pact_publications::pact_content_id.eq(pact_content_id),
            pact_publications::revision.eq(1),
            pact_publications::created_at.eq(at),
            pact_publications::updated_at.eq(at),
        ))
        .returning(pact_publications::all_columns)
        .get_result(conn)?)
}

/// Inserts the first publication of a consumer version for a provider,
/// of the content stored with `sha`, in one `INSERT … SELECT` that finds
/// the content itself; `None` (nothing inserted) when no content has that
/// sha. What a publish of stored content (most CI publishes) needs: the
/// content's text is neither sent nor read back.
pub fn insert_publication_of_sha(
    conn: &mut AnyConnection,
    consumer_version_id: i64,
    consumer_id: i64,
    provider_id: i64,
    sha: &str,
) -> Result<Option<Publication>, StoreError> {
    use diesel::sql_types::{BigInt, Timestamp};
    let at = now();
    let content = pact_contents::table
        .filter(pact_contents::sha.eq(sha))
        .select((
            consumer_version_id.into_sql::<BigInt>(),
            consumer_id.into_sql::<BigInt>(),
            provider_id.into_sql::<BigInt>(),
            pact_contents::id,
            1_i64.into_sql::<BigInt>(),
            at.into_sql::<Timestamp>(),
            at.into_sql::<Timestamp>(),
        ));
    let columns = (
        pact_publications::consumer_version_id,
        pact_publications::consumer_id,
        pact_publications::provider_id,
        pact_publications::pact_content_id,
        pact_publications::revision,
        pact_publications::created_at,
        pact_publications::updated_at,
    );
    // on the backend's own connection, as `versions::find_with_pacticipant`
    Ok(crate::on_backend!(conn, |c| diesel::insert_into(
        pact_publications::table
    )
    .values(content)
    .into_columns(columns)
    .returning(pact_publications::all_columns)
    .get_result(c)
    .optional())?)
}
