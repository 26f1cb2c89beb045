//! Version tags (the pre-branch way of naming versions: `prod`, `main`).

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::names::TagName;
use crate::schema::{tags, versions};
use crate::store::versions::Version;

/// A stored tag.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = tags)]
pub struct Tag {
    pub id: i64,
    pub version_id: i64,
    pub pacticipant_id: i64,
    pub name: String,
    pub created_at: chrono::NaiveDateTime,
}

/// Tags a version (idempotent); returns the tag and whether it was new.
pub fn add(
    conn: &mut AnyConnection,
    version: &Version,
    name: &TagName,
) -> Result<(Tag, bool), StoreError> {
    if let Some(found) = find(conn, version.id, name.as_str())? {
        return Ok((found, false));
    }
    // A savepoint: on PostgreSQL a failed statement aborts the whole
    // transaction, so losing the insert race must roll back only the insert.
    let inserted = super::racing_insert(conn, |c| {
        diesel::insert_into(tags::table)
            .values((
                tags::version_id.eq(version.id),
                tags::pacticipant_id.eq(version.pacticipant_id),
                tags::name.eq(name.as_str()),
                tags::created_at.eq(now()),
            ))
            .returning(tags::all_columns)
            .get_result(c)
    });
    match inserted.map_err(StoreError::from) {
        Err(e) if e.is_unique_violation() => Ok((
            find(conn, version.id, name.as_str())?
                .ok_or(StoreError::Query(diesel::result::Error::NotFound))?,
            false,
        )),
        other => other.map(|t| (t, true)),
    }
}

/// Tags a version with every name in `names` (idempotent) in one
/// multi-row `INSERT … ON CONFLICT DO NOTHING`: what publishing needs, which
/// reads no tag back.
pub fn add_all(
    conn: &mut AnyConnection,
    version: &Version,
    names: &[TagName],
) -> Result<(), StoreError> {
    if names.is_empty() {
        return Ok(());
    }
    let at = now();
    let mut seen = std::collections::HashSet::new();
    let rows: Vec<_> = names
        .iter()
        .filter(|name| seen.insert(name.as_str()))
        .map(|name| {
            (
                tags::version_id.eq(version.id),
                tags::pacticipant_id.eq(version.pacticipant_id),
                tags::name.eq(name.as_str()),
                tags::created_at.eq(at),
            )
        })
        .collect();
    crate::on_backend!(conn, |c| diesel::insert_into(tags::table)
        .values(&rows)
        .on_conflict((tags::version_id, tags::name))
        .do_nothing()
        .execute(c))?;
    Ok(())
}

/// The tag `name` on a version.
pub fn find(
    conn: &mut AnyConnection,
    version_id: i64,
    name: &str,
) -> Result<Option<Tag>, StoreError> {
    Ok(tags::table
        .filter(tags::version_id.eq(version_id))
        .filter(tags::name.eq(name))
        .select(Tag::as_select())
        .first(conn)
        .optional()?)
}

/// The tags of a version, by name.
pub fn list_for_version(conn: &mut AnyConnection, version_id: i64) -> Result<Vec<Tag>, StoreError> {
    Ok(tags::table
        .filter(tags::version_id.eq(version_id))
        .order(tags::name.asc())
        .select(Tag::as_select())
        .load(conn)?)
}

/// The newest version of a pacticipant carrying tag `name`.
pub fn latest_version_with(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &str,
) -> Result<Option<Version>, StoreError> {
    Ok(tags::table
        .inner_join(versions::table)
        .filter(tags::pacticipant_id.eq(pacticipant_id))
        .filter(tags::name.eq(name))
        .order(tags::version_id.desc())
        .select(Version::as_select())
        .first(conn)
        .optional()?)
}

/// Every version of a pacticipant carrying tag `name`, newest first.
pub fn versions_with(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &str,
) -> Result<Vec<Version>, StoreError> {
    Ok(tags::table
        .inner_join(versions::table)
        .filter(tags::pacticipant_id.eq(pacticipant_id))
        .filter(tags::name.eq(name))
        .order(tags::version_id.desc())
        .select(Version::as_select())
        .load(conn)?)
}

/// Removes a tag; true if it existed.
pub fn delete(conn: &mut AnyConnection, version_id: i64, name: &str) -> Result<bool, StoreError> {
    let n = diesel::delete(
        tags::table
            .filter(tags::version_id.eq(version_id))
            .filter(tags::name.eq(name)),
    )
    .execute(conn)?;
    Ok(n > 0)
}

/// The tags of many versions at once (for lists), by version then name.
pub fn list_for_versions(
    conn: &mut AnyConnection,
    version_ids: &[i64],
) -> Result<Vec<Tag>, StoreError> {
    let mut out = Vec::new();
    // Chunks stay under every backend's limit of bound parameters.
    for chunk in version_ids.chunks(super::ID_CHUNK) {
        out.extend(
            tags::table
                .filter(tags::version_id.eq_any(chunk))
                .order((tags::version_id.asc(), tags::name.asc()))
                .select(Tag::as_select())
                .load(conn)?,
        );
    }
    Ok(out)
}
