//! Static verifications: the failed static cross-checks of a provider
//! version's declarations, stored as verifications with `kind` `static`.
//! A check replaces the version's earlier static results (they judged
//! declarations since replaced); a replay result is never touched.

use diesel::prelude::*;

use super::StoreError;
use super::verifications::{self, NewVerification, Verification};
use crate::db::AnyConnection;
use crate::schema::verifications as v;

/// The `kind` of a static verification.
pub const STATIC: &str = "static";

/// Deletes the static verifications of provider version `version_id`.
pub fn clear(conn: &mut AnyConnection, version_id: i64) -> Result<usize, StoreError> {
    Ok(diesel::delete(
        v::table
            .filter(v::provider_version_id.eq(version_id))
            .filter(v::kind.eq(STATIC)),
    )
    .execute(conn)?)
}

/// Stores a failed static check with its reason codes.
pub fn insert(
    conn: &mut AnyConnection,
    new: &NewVerification,
    codes: &str,
) -> Result<Verification, StoreError> {
    let row = verifications::insert(conn, new)?;
    Ok(diesel::update(v::table.filter(v::id.eq(row.id)))
        .set((v::kind.eq(STATIC), v::reason_codes.eq(codes)))
        .returning(v::all_columns)
        .get_result(conn)?)
}

/// Whether a verifier published a result (not a static one) for the
/// content by that provider version: replay supersedes the static check.
pub fn replayed(
    conn: &mut AnyConnection,
    content_id: i64,
    version_id: i64,
) -> Result<bool, StoreError> {
    let found: i64 = v::table
        .filter(v::pact_content_id.eq(content_id))
        .filter(v::provider_version_id.eq(version_id))
        .filter(v::kind.is_null())
        .count()
        .get_result(conn)?;
    Ok(found > 0)
}
