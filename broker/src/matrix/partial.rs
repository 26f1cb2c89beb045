//! Rows whose provider version verified only the Pact view of a contract
//! with Accord-only parts (`store::coverage`): their verdict on the whole
//! contract is unknown, and the parts nobody verified are named.

use std::collections::{BTreeSet, HashMap};

use crate::contract::pact_view::{AccordOnly, accord_only_of_stored};
use crate::db::AnyConnection;
use crate::matrix::rows::Row;
use crate::store::{StoreError, pacts};

/// Fills `unverified` of each row whose verification succeeded for the
/// Pact view only. A content without Accord-only parts leaves the row a
/// plain success (its view was the whole contract).
pub fn mark(conn: &mut AnyConnection, rows: &mut [Row]) -> Result<(), StoreError> {
    let contents: BTreeSet<i64> = rows
        .iter()
        .filter(|r| r.verification.as_ref().is_some_and(|v| v.partial()))
        .map(|r| r.pact_content_id)
        .collect();
    if contents.is_empty() {
        return Ok(());
    }
    let mut parts: HashMap<i64, Vec<AccordOnly>> = HashMap::new();
    for id in contents {
        let Some(content) = pacts::find_content_by_id(conn, id)? else {
            continue;
        };
        let named =
            accord_only_of_stored(&content.content).map_err(|source| StoreError::CorruptJson {
                what: "pact content",
                source,
            })?;
        parts.insert(id, named);
    }
    for row in rows.iter_mut() {
        if row.verification.as_ref().is_some_and(|v| v.partial()) {
            row.unverified = parts.get(&row.pact_content_id).cloned().unwrap_or_default();
        }
    }
    Ok(())
}
