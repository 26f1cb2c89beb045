//! Verification results: a provider version's verdict on one content.

use diesel::prelude::*;

use super::StoreError;
use crate::db::AnyConnection;
use crate::schema::verifications;

/// A stored verification. JSON columns hold text exactly as received.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = verifications)]
pub struct Verification {
    pub id: i64,
    pub pact_content_id: i64,
    pub provider_version_id: i64,
    pub consumer_id: i64,
    pub provider_id: i64,
    pub success: bool,
    pub build_url: Option<String>,
    pub test_results: Option<String>,
    pub verified_by: Option<String>,
    /// JSON array of Accord findings (`layer`, `reasonCode`, `interactionId`, …).
    pub findings: String,
    pub wip: bool,
    pub pending: bool,
    pub selectors: Option<String>,
    pub execution_date: chrono::NaiveDateTime,
}

/// A verification to store.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = verifications)]
pub struct NewVerification {
    pub pact_content_id: i64,
    pub provider_version_id: i64,
    pub consumer_id: i64,
    pub provider_id: i64,
    pub success: bool,
    pub build_url: Option<String>,
    pub test_results: Option<String>,
    pub verified_by: Option<String>,
    pub findings: String,
    pub wip: bool,
    pub pending: bool,
    pub selectors: Option<String>,
    pub execution_date: chrono::NaiveDateTime,
}

/// Stores one verification; its id is its (global) number.
pub fn insert(conn: &mut AnyConnection, new: &NewVerification) -> Result<Verification, StoreError> {
    Ok(diesel::insert_into(verifications::table)
        .values(new)
        .returning(verifications::all_columns)
        .get_result(conn)?)
}

/// Stores many verifications in one statement (seeding, imports). Batch
/// inserts do not compile for diesel's MultiBackend, so this dispatches on
/// the concrete connection.
pub fn insert_many(
    conn: &mut AnyConnection,
    rows: &[NewVerification],
) -> Result<usize, StoreError> {
    let query = diesel::insert_into(verifications::table).values(rows);
    Ok(match conn {
        AnyConnection::Postgresql(c) => query.execute(c)?,
        AnyConnection::Sqlite(c) => query.execute(c)?,
    })
}

/// The verification with this number.
pub fn find_by_id(conn: &mut AnyConnection, id: i64) -> Result<Option<Verification>, StoreError> {
    Ok(verifications::table
        .find(id)
        .select(Verification::as_select())
        .first(conn)
        .optional()?)
}

/// The latest verification of a content by a provider version.
pub fn latest_for(
    conn: &mut AnyConnection,
    pact_content_id: i64,
    provider_version_id: i64,
) -> Result<Option<Verification>, StoreError> {
    Ok(verifications::table
        .filter(verifications::pact_content_id.eq(pact_content_id))
        .filter(verifications::provider_version_id.eq(provider_version_id))
        .order(verifications::id.desc())
        .select(Verification::as_select())
        .first(conn)
        .optional()?)
}
