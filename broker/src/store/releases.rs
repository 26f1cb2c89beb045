//! Released versions: versions supported in an environment (mobile apps,
//! libraries), many at once. Recording a release never touches another
//! one; support ends only when a client says so.

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::released_versions;
use crate::store::versions::Version;

/// A stored release.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = released_versions)]
pub struct ReleasedVersion {
    pub id: i64,
    pub uuid: String,
    pub version_id: i64,
    pub pacticipant_id: i64,
    pub environment_id: i64,
    pub created_at: chrono::NaiveDateTime,
    pub support_ended_at: Option<chrono::NaiveDateTime>,
}

impl ReleasedVersion {
    /// True until support is ended.
    pub fn currently_supported(&self) -> bool {
        self.support_ended_at.is_none()
    }
}

/// Records that `version` is released to `environment_id`. One row per
/// version and environment: recording it again returns that row with
/// `false` (and resumes support if it had ended).
pub fn record(
    conn: &mut AnyConnection,
    version: &Version,
    environment_id: i64,
) -> Result<(ReleasedVersion, bool), StoreError> {
    if let Some(found) = find_for_version_in(conn, version.id, environment_id)? {
        return Ok((resume(conn, found)?, false));
    }
    // A savepoint: losing the insert race to another replica is not an error.
    let inserted = super::racing_insert(conn, |c| insert(c, version, environment_id));
    match inserted {
        Err(e) if e.is_unique_violation() => {
            let found = find_for_version_in(conn, version.id, environment_id)?
                .ok_or(StoreError::Query(diesel::result::Error::NotFound))?;
            Ok((found, false))
        }
        other => other.map(|row| (row, true)),
    }
}

fn insert(
    conn: &mut AnyConnection,
    version: &Version,
    environment_id: i64,
) -> Result<ReleasedVersion, StoreError> {
    Ok(diesel::insert_into(released_versions::table)
        .values((
            released_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
            released_versions::version_id.eq(version.id),
            released_versions::pacticipant_id.eq(version.pacticipant_id),
            released_versions::environment_id.eq(environment_id),
            released_versions::created_at.eq(now()),
        ))
        .returning(released_versions::all_columns)
        .get_result(conn)?)
}

fn resume(conn: &mut AnyConnection, row: ReleasedVersion) -> Result<ReleasedVersion, StoreError> {
    if row.currently_supported() {
        return Ok(row);
    }
    Ok(diesel::update(released_versions::table.find(row.id))
        .set(released_versions::support_ended_at.eq(None::<chrono::NaiveDateTime>))
        .returning(released_versions::all_columns)
        .get_result(conn)?)
}

/// The release of a version to an environment.
pub fn find_for_version_in(
    conn: &mut AnyConnection,
    version_id: i64,
    environment_id: i64,
) -> Result<Option<ReleasedVersion>, StoreError> {
    Ok(released_versions::table
        .filter(released_versions::version_id.eq(version_id))
        .filter(released_versions::environment_id.eq(environment_id))
        .select(ReleasedVersion::as_select())
        .first(conn)
        .optional()?)
}

/// The release with this uuid.
pub fn find_by_uuid(
    conn: &mut AnyConnection,
    uuid: &str,
) -> Result<Option<ReleasedVersion>, StoreError> {
    Ok(released_versions::table
        .filter(released_versions::uuid.eq(uuid))
        .select(ReleasedVersion::as_select())
        .first(conn)
        .optional()?)
}

/// Ends support of a release (no-op if it already ended); returns the row.
pub fn end_support(conn: &mut AnyConnection, id: i64) -> Result<ReleasedVersion, StoreError> {
    diesel::update(
        released_versions::table
            .find(id)
            .filter(released_versions::support_ended_at.is_null()),
    )
    .set(released_versions::support_ended_at.eq(Some(now())))
    .execute(conn)?;
    Ok(released_versions::table
        .find(id)
        .select(ReleasedVersion::as_select())
        .first(conn)?)
}

/// What is supported in an environment, optionally one pacticipant's and one
/// version's, oldest first.
pub fn list_currently_supported(
    conn: &mut AnyConnection,
    environment_id: i64,
    pacticipant_id: Option<i64>,
    version_id: Option<i64>,
) -> Result<Vec<ReleasedVersion>, StoreError> {
    let mut query = released_versions::table
        .filter(released_versions::environment_id.eq(environment_id))
        .filter(released_versions::support_ended_at.is_null())
        .into_boxed();
    if let Some(p) = pacticipant_id {
        query = query.filter(released_versions::pacticipant_id.eq(p));
    }
    if let Some(v) = version_id {
        query = query.filter(released_versions::version_id.eq(v));
    }
    Ok(query
        .order(released_versions::id.asc())
        .select(ReleasedVersion::as_select())
        .load(conn)?)
}

/// The supported releases of a pacticipant in an environment (for the
/// matrix and `released` selectors).
pub fn currently_supported_in(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    environment_id: i64,
) -> Result<Vec<ReleasedVersion>, StoreError> {
    list_currently_supported(conn, environment_id, Some(pacticipant_id), None)
}

/// Every supported release anywhere, oldest first (for `deployedOrReleased`).
pub fn all_currently_supported(
    conn: &mut AnyConnection,
) -> Result<Vec<ReleasedVersion>, StoreError> {
    Ok(released_versions::table
        .filter(released_versions::support_ended_at.is_null())
        .order(released_versions::id.asc())
        .select(ReleasedVersion::as_select())
        .load(conn)?)
}

/// The supported releases of one version (any environment).
pub fn currently_supported_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<ReleasedVersion>, StoreError> {
    Ok(released_versions::table
        .filter(released_versions::version_id.eq(version_id))
        .filter(released_versions::support_ended_at.is_null())
        .order(released_versions::id.asc())
        .select(ReleasedVersion::as_select())
        .load(conn)?)
}
