//! Deployments into an environment marked for an admission stage that did
//! not move the version's admission (it was not admitted): the deployment
//! is recorded as a fact, and one of these rows says, in the version's
//! admission history, that it left the admission where it was.

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::admission_holds as h;
use crate::schema::deployed_versions;

/// A stored hold.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = h)]
pub struct Hold {
    pub id: i64,
    pub version_id: i64,
    pub deployed_version_id: i64,
    pub environment_name: String,
    pub stage: String,
    /// The admission state the version stayed in.
    pub state: String,
    pub reason: String,
    pub created_at: chrono::NaiveDateTime,
}

/// What a new hold records.
#[derive(Debug, Clone, Copy)]
pub struct NewHold<'a> {
    pub version_id: i64,
    pub deployed_version_id: i64,
    pub environment_name: &'a str,
    pub stage: &'a str,
    pub state: &'a str,
    pub reason: &'a str,
}

/// True when the version already has a hold in environment `environment`
/// for `reason` (a deployment recorded again adds no second one).
pub fn exists(
    conn: &mut AnyConnection,
    version_id: i64,
    environment: &str,
    reason: &str,
) -> Result<bool, StoreError> {
    Ok(diesel::select(diesel::dsl::exists(
        h::table
            .filter(h::version_id.eq(version_id))
            .filter(h::environment_name.eq(environment))
            .filter(h::reason.eq(reason)),
    ))
    .get_result(conn)?)
}

/// Records a hold (inside the deployment's transaction).
pub fn insert(conn: &mut AnyConnection, new: NewHold<'_>) -> Result<Hold, StoreError> {
    Ok(diesel::insert_into(h::table)
        .values((
            h::version_id.eq(new.version_id),
            h::deployed_version_id.eq(new.deployed_version_id),
            h::environment_name.eq(new.environment_name),
            h::stage.eq(new.stage),
            h::state.eq(new.state),
            h::reason.eq(new.reason),
            h::created_at.eq(now()),
        ))
        .returning(h::all_columns)
        .get_result(conn)?)
}

/// Every hold of the version, oldest first, with its deployment's uuid.
pub fn list_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<(Hold, String)>, StoreError> {
    Ok(h::table
        .inner_join(deployed_versions::table)
        .filter(h::version_id.eq(version_id))
        .order(h::id.asc())
        .select((Hold::as_select(), deployed_versions::uuid))
        .load(conn)?)
}
