//! Stored drift reports: one row per report, its signals as JSON text
//! (digests and counts only: the API refuses anything that could carry a
//! payload before it gets here).

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::drift_reports as d;

/// A stored report.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = d)]
pub struct DriftReportRow {
    pub id: i64,
    pub version_id: i64,
    pub environment_id: i64,
    pub window_start: chrono::NaiveDateTime,
    pub window_end: chrono::NaiveDateTime,
    pub source: Option<String>,
    pub agent_card_digest: Option<String>,
    pub tools_digests: String,
    pub counts: String,
    pub observations: String,
    pub received_at: chrono::NaiveDateTime,
}

/// A report to store.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = d)]
pub struct NewDriftReport {
    pub version_id: i64,
    pub environment_id: i64,
    pub window_start: chrono::NaiveDateTime,
    pub window_end: chrono::NaiveDateTime,
    pub source: Option<String>,
    pub agent_card_digest: Option<String>,
    pub tools_digests: String,
    pub counts: String,
    pub observations: String,
}

/// Stores `report`, stamped with the time it was received.
pub fn insert(
    conn: &mut AnyConnection,
    report: &NewDriftReport,
) -> Result<DriftReportRow, StoreError> {
    Ok(diesel::insert_into(d::table)
        .values((report, d::received_at.eq(now())))
        .returning(d::all_columns)
        .get_result(conn)?)
}

/// The report `id`, if there is one.
pub fn find_by_id(conn: &mut AnyConnection, id: i64) -> Result<Option<DriftReportRow>, StoreError> {
    Ok(d::table
        .find(id)
        .select(DriftReportRow::as_select())
        .first(conn)
        .optional()?)
}

/// The version's reports, newest first, at most `limit`.
pub fn list_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
    limit: i64,
) -> Result<Vec<DriftReportRow>, StoreError> {
    Ok(d::table
        .filter(d::version_id.eq(version_id))
        .order(d::id.desc())
        .limit(limit)
        .select(DriftReportRow::as_select())
        .load(conn)?)
}

/// The `declarations` JSON of the version's successful verification
/// results (as the provider; results without declarations are skipped).
pub fn verified_declarations(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<String>, StoreError> {
    use crate::schema::verifications as v;
    let texts: Vec<Option<String>> = v::table
        .filter(v::provider_version_id.eq(version_id))
        .filter(v::success.eq(true))
        .filter(v::declarations.is_not_null())
        .select(v::declarations)
        .load(conn)?;
    Ok(texts.into_iter().flatten().collect())
}

/// The id of the version's first report and how many it has.
pub fn first_and_count(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<(Option<i64>, i64), StoreError> {
    let first: Option<i64> = d::table
        .filter(d::version_id.eq(version_id))
        .order(d::id.asc())
        .select(d::id)
        .first(conn)
        .optional()?;
    let count: i64 = d::table
        .filter(d::version_id.eq(version_id))
        .count()
        .get_result(conn)?;
    Ok((first, count))
}
