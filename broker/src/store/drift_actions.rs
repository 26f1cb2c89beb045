//! What the broker did about each drift report, per signal: the ladder of
//! a provider version is read from these rows.

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::drift_actions as a;

/// A stored action.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = a)]
pub struct DriftAction {
    pub id: i64,
    pub report_id: i64,
    pub version_id: i64,
    pub environment_id: i64,
    pub signal: String,
    pub action: String,
    pub observed: i64,
    pub threshold: i64,
    pub reason: String,
    pub created_at: chrono::NaiveDateTime,
}

/// An action to store.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = a)]
pub struct NewDriftAction {
    pub report_id: i64,
    pub version_id: i64,
    pub environment_id: i64,
    pub signal: String,
    pub action: String,
    pub observed: i64,
    pub threshold: i64,
    pub reason: String,
}

/// Stores `actions` (one report's), stamped now (one statement each: the
/// one connection type over both backends has no batch insert).
pub fn insert_all(conn: &mut AnyConnection, actions: &[NewDriftAction]) -> Result<(), StoreError> {
    let at = now();
    for x in actions {
        diesel::insert_into(a::table)
            .values((x, a::created_at.eq(at)))
            .execute(conn)?;
    }
    Ok(())
}

/// Every action on the version, oldest first.
pub fn list_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<DriftAction>, StoreError> {
    Ok(a::table
        .filter(a::version_id.eq(version_id))
        .order(a::id.asc())
        .select(DriftAction::as_select())
        .load(conn)?)
}

/// True when a report disabled the version's route in the environment.
pub fn route_disabled(
    conn: &mut AnyConnection,
    version_id: i64,
    environment_id: i64,
) -> Result<bool, StoreError> {
    let found: Option<i64> = a::table
        .filter(a::version_id.eq(version_id))
        .filter(a::environment_id.eq(environment_id))
        .filter(a::action.eq("route_disable"))
        .select(a::id)
        .first(conn)
        .optional()?;
    Ok(found.is_some())
}
