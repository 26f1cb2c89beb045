//! Admission evidence (issue 25): what a verifier said about each replay
//! result (producer digest, profiles, harness version, expiry), and the
//! evidence record of a provider version that reached
//! CONFORMANCE_VERIFIED. Writes run inside the caller's transaction.

use diesel::prelude::*;

use super::StoreError;
use crate::db::AnyConnection;
use crate::schema::{admission_evidence as ae, verification_evidence as ve};

/// The evidence a replay result carries.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = ve)]
pub struct ResultEvidence {
    pub verification_id: i64,
    pub producer_digest: Option<String>,
    /// JSON array of profile names.
    pub profiles: String,
    pub harness_version: String,
    pub expires_at: chrono::NaiveDateTime,
}

/// A provider version's evidence record.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = ae, treat_none_as_null = true)]
pub struct Record {
    pub version_id: i64,
    pub card_digest: Option<String>,
    /// JSON object profile → tools digest.
    pub tools_digests: String,
    /// JSON array of the live contracts' content shas.
    pub contract_digests: String,
    pub producer_digest: Option<String>,
    /// JSON array of profile names.
    pub profiles: String,
    pub harness_version: String,
    /// JSON array of the verification ids the record rests on.
    pub verification_ids: String,
    pub security: bool,
    pub security_reason: String,
    pub verified_at: chrono::NaiveDateTime,
    pub expires_at: chrono::NaiveDateTime,
    pub swept_at: Option<chrono::NaiveDateTime>,
}

/// Stores the evidence of replay result `e.verification_id`.
pub fn insert_result(conn: &mut AnyConnection, e: &ResultEvidence) -> Result<(), StoreError> {
    diesel::insert_into(ve::table).values(e).execute(conn)?;
    Ok(())
}

/// The id of the latest replay result (not a static check) by version
/// `version_id` recorded on another producer digest than `producer` (a
/// result without stored evidence counts as none): results on `producer`
/// older than it predate the last change of producer digest.
pub fn last_on_other_producer(
    conn: &mut AnyConnection,
    version_id: i64,
    producer: Option<&str>,
) -> Result<Option<i64>, StoreError> {
    use crate::schema::verifications as v;
    let on = ve::table.on(ve::verification_id.eq(v::id));
    let results = v::table
        .left_join(on)
        .filter(v::provider_version_id.eq(version_id))
        .filter(v::kind.is_null());
    let id = match producer {
        Some(p) => results
            .filter(ve::producer_digest.is_null().or(ve::producer_digest.ne(p)))
            .select(diesel::dsl::max(v::id))
            .first(conn)?,
        None => results
            .filter(ve::producer_digest.is_not_null())
            .select(diesel::dsl::max(v::id))
            .first(conn)?,
    };
    Ok(id)
}

/// The evidence record of version `version_id`, if it has one.
pub fn find(conn: &mut AnyConnection, version_id: i64) -> Result<Option<Record>, StoreError> {
    Ok(ae::table
        .filter(ae::version_id.eq(version_id))
        .select(Record::as_select())
        .first(conn)
        .optional()?)
}

/// Writes (or replaces) the version's evidence record.
pub fn put(conn: &mut AnyConnection, record: &Record) -> Result<(), StoreError> {
    let updated = diesel::update(ae::table.filter(ae::version_id.eq(record.version_id)))
        .set(record)
        .execute(conn)?;
    if updated == 0 {
        diesel::insert_into(ae::table)
            .values(record)
            .execute(conn)?;
    }
    Ok(())
}

/// Deletes the version's evidence record (its evidence started over).
pub fn delete(conn: &mut AnyConnection, version_id: i64) -> Result<usize, StoreError> {
    Ok(diesel::delete(ae::table.filter(ae::version_id.eq(version_id))).execute(conn)?)
}

/// The versions whose record expired by `at` and that the sweep has not
/// handled yet, soonest expiry first (at most `limit`).
pub fn expired_unswept(
    conn: &mut AnyConnection,
    at: chrono::NaiveDateTime,
    limit: i64,
) -> Result<Vec<i64>, StoreError> {
    Ok(ae::table
        .filter(ae::expires_at.le(at))
        .filter(ae::swept_at.is_null())
        .order(ae::expires_at.asc())
        .limit(limit)
        .select(ae::version_id)
        .load(conn)?)
}

/// Marks the version's record as handled by the sweep.
pub fn mark_swept(
    conn: &mut AnyConnection,
    version_id: i64,
    at: chrono::NaiveDateTime,
) -> Result<(), StoreError> {
    diesel::update(ae::table.filter(ae::version_id.eq(version_id)))
        .set(ae::swept_at.eq(Some(at)))
        .execute(conn)?;
    Ok(())
}
