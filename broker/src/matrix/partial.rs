//! Rows whose provider version verified only the Pact view of a contract
//! with Accord-only parts (`store::coverage`): their verdict on the whole
//! contract is unknown, and the parts nobody verified are named.

use crate::db::AnyConnection;
use crate::matrix::rows::Row;
use crate::store::{StoreError, coverage};

/// Fills `unverified` of each row whose verification succeeded for the
/// Pact view only. A content without Accord-only parts leaves the row a
/// plain success (its view was the whole contract): the rule of
/// [`coverage::accord_only_parts`], which every page's verdict follows.
pub fn mark(conn: &mut AnyConnection, rows: &mut [Row]) -> Result<(), StoreError> {
    let partial = |r: &Row| r.verification.as_ref().is_some_and(|v| v.partial());
    let contents: Vec<i64> = rows
        .iter()
        .filter(|&r| partial(r))
        .map(|r| r.pact_content_id)
        .collect();
    if contents.is_empty() {
        return Ok(());
    }
    let parts = coverage::accord_only_parts(conn, contents)?;
    for row in rows.iter_mut() {
        if partial(&*row) {
            row.unverified = parts.get(&row.pact_content_id).cloned().unwrap_or_default();
        }
    }
    Ok(())
}
