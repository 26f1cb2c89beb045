//! What a verification covers: a result published through the Pact view of
//! a contract with Accord-only parts (`pact_view`) covers only that view.
//! Per (content, provider version) a whole-contract result is preferred to
//! a later successful Pact-view one: a provider version that verified the
//! whole contract has verified it, whatever a Pact verifier published
//! after. A failure is a failure whichever view it was of.

use diesel::dsl::max;
use diesel::prelude::*;

use super::StoreError;
use super::matrix::{VERIFICATION_COLS, VerificationRow};
use crate::db::AnyConnection;
use crate::schema::verifications;

/// `rows` (the latest result per (content, provider version)), each
/// successful Pact-view result replaced by the latest whole-contract
/// result of the same pair when there is one.
pub fn prefer_whole(
    conn: &mut AnyConnection,
    rows: Vec<VerificationRow>,
) -> Result<Vec<VerificationRow>, StoreError> {
    let partial: Vec<&VerificationRow> = rows.iter().filter(|v| v.partial()).collect();
    if partial.is_empty() {
        return Ok(rows);
    }
    let pairs: Vec<(i64, i64)> = partial
        .iter()
        .map(|v| (v.pact_content_id, v.provider_version_id))
        .collect();
    let ids = whole_result_ids(conn, &pairs)?;
    if ids.is_empty() {
        return Ok(rows);
    }
    let whole: Vec<VerificationRow> = verifications::table
        .filter(verifications::id.eq_any(&ids))
        .select(VERIFICATION_COLS)
        .load(conn)?;
    let of_pair = |v: &VerificationRow| {
        whole.iter().find(|w| {
            (w.pact_content_id, w.provider_version_id) == (v.pact_content_id, v.provider_version_id)
        })
    };
    Ok(rows
        .into_iter()
        .map(|v| match of_pair(&v) {
            Some(w) if v.partial() => w.clone(),
            _ => v,
        })
        .collect())
}

/// The latest whole-contract (not Pact-view) result of each (content,
/// provider version) pair given, by id; a pair without one has none. The
/// one query behind "a whole-contract result is preferred" wherever rows
/// of another shape need it.
pub fn whole_result_ids(
    conn: &mut AnyConnection,
    pairs: &[(i64, i64)],
) -> Result<Vec<i64>, StoreError> {
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    let contents: Vec<i64> = pairs.iter().map(|p| p.0).collect();
    let versions: Vec<i64> = pairs.iter().map(|p| p.1).collect();
    let ids: Vec<Option<i64>> = verifications::table
        .filter(verifications::pact_content_id.eq_any(&contents))
        .filter(verifications::provider_version_id.eq_any(&versions))
        .filter(verifications::pact_view.eq(false))
        .group_by((
            verifications::pact_content_id,
            verifications::provider_version_id,
        ))
        .select(max(verifications::id))
        .load(conn)?;
    Ok(ids.into_iter().flatten().collect())
}
