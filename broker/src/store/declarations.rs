//! What a provider version declares (its Agent Card, its MCP `tools/list`
//! per profile): content once per canonical digest, and per version an
//! append-only log of what it declared — the newest row for a (kind,
//! profile) is the current declaration, the older ones say when it changed.

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::{declaration_contents, version_declarations};

/// One declaration of a version, without its content.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct Declared {
    pub id: i64,
    pub kind: String,
    pub profile: String,
    pub declared_at: chrono::NaiveDateTime,
    pub digest: String,
    pub entries: i64,
}

/// A declaration's content, by digest.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = declaration_contents)]
pub struct Content {
    pub id: i64,
    pub digest: String,
    pub kind: String,
    pub entries: i64,
    pub content: String,
    pub created_at: chrono::NaiveDateTime,
}

/// What to store: the kind, its digest, how many entries, the canonical text.
#[derive(Debug, Clone)]
pub struct NewContent<'a> {
    pub kind: &'a str,
    pub digest: &'a str,
    pub entries: i64,
    pub content: &'a str,
}

/// The content stored under `digest`.
pub fn find_content(conn: &mut AnyConnection, digest: &str) -> Result<Option<Content>, StoreError> {
    Ok(declaration_contents::table
        .filter(declaration_contents::digest.eq(digest))
        .select(Content::as_select())
        .first(conn)
        .optional()?)
}

/// The id of the content with this digest, stored now if it is new.
fn content_id(conn: &mut AnyConnection, new: &NewContent<'_>) -> Result<i64, StoreError> {
    if let Some(found) = find_content(conn, new.digest)? {
        return Ok(found.id);
    }
    let inserted = super::racing_insert(conn, |c| {
        diesel::insert_into(declaration_contents::table)
            .values((
                declaration_contents::digest.eq(new.digest),
                declaration_contents::kind.eq(new.kind),
                declaration_contents::entries.eq(new.entries),
                declaration_contents::content.eq(new.content),
                declaration_contents::created_at.eq(now()),
            ))
            .returning(declaration_contents::id)
            .get_result(c)
    });
    match inserted.map_err(StoreError::from) {
        Err(e) if e.is_unique_violation() => find_content(conn, new.digest)?
            .map(|c| c.id)
            .ok_or(StoreError::Query(diesel::result::Error::NotFound)),
        other => other,
    }
}

/// Every declaration a version has made, newest first (the first of each
/// kind and profile is current).
pub fn history(conn: &mut AnyConnection, version_id: i64) -> Result<Vec<Declared>, StoreError> {
    Ok(version_declarations::table
        .inner_join(declaration_contents::table)
        .filter(version_declarations::version_id.eq(version_id))
        .order(version_declarations::id.desc())
        .select((
            version_declarations::id,
            version_declarations::kind,
            version_declarations::profile,
            version_declarations::declared_at,
            declaration_contents::digest,
            declaration_contents::entries,
        ))
        .load(conn)?)
}

/// The current declarations of a version: the newest of each kind and
/// profile, ordered by kind and profile.
pub fn current(conn: &mut AnyConnection, version_id: i64) -> Result<Vec<Declared>, StoreError> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out: Vec<Declared> = history(conn, version_id)?
        .into_iter()
        .filter(|d| seen.insert((d.kind.clone(), d.profile.clone())))
        .collect();
    out.sort_by(|a, b| (&a.kind, &a.profile).cmp(&(&b.kind, &b.profile)));
    Ok(out)
}

/// The current declaration of `kind` and `profile`, if any.
pub fn find(
    conn: &mut AnyConnection,
    version_id: i64,
    kind: &str,
    profile: &str,
) -> Result<Option<Declared>, StoreError> {
    Ok(version_declarations::table
        .inner_join(declaration_contents::table)
        .filter(version_declarations::version_id.eq(version_id))
        .filter(version_declarations::kind.eq(kind))
        .filter(version_declarations::profile.eq(profile))
        .order(version_declarations::id.desc())
        .select((
            version_declarations::id,
            version_declarations::kind,
            version_declarations::profile,
            version_declarations::declared_at,
            declaration_contents::digest,
            declaration_contents::entries,
        ))
        .first(conn)
        .optional()?)
}

/// Declares `new` for the version (whose row lock the caller holds): a new
/// row when the digest differs from the current one. Returns the current
/// declaration and whether it changed.
pub fn declare(
    conn: &mut AnyConnection,
    version_id: i64,
    profile: &str,
    new: &NewContent<'_>,
) -> Result<(Declared, bool), StoreError> {
    if let Some(found) = find(conn, version_id, new.kind, profile)?
        && found.digest == new.digest
    {
        return Ok((found, false));
    }
    let content_id = content_id(conn, new)?;
    diesel::insert_into(version_declarations::table)
        .values((
            version_declarations::version_id.eq(version_id),
            version_declarations::kind.eq(new.kind),
            version_declarations::profile.eq(profile),
            version_declarations::content_id.eq(content_id),
            version_declarations::declared_at.eq(now()),
        ))
        .execute(conn)?;
    find(conn, version_id, new.kind, profile)?
        .map(|d| (d, true))
        .ok_or(StoreError::Query(diesel::result::Error::NotFound))
}

/// The newest version (by creation) of pacticipant `pacticipant_id` that
/// has declared anything, by id.
pub fn latest_declaring_version(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
) -> Result<Option<i64>, StoreError> {
    use crate::schema::versions;
    Ok(version_declarations::table
        .inner_join(versions::table)
        .filter(versions::pacticipant_id.eq(pacticipant_id))
        .order(versions::id.desc())
        .select(versions::id)
        .first(conn)
        .optional()?)
}
