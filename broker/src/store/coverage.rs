//! What a verification covers: a result published through the Pact view of
//! a contract with Accord-only parts (`pact_view`) covers only that view.
//! Per (content, provider version) a whole-contract result is preferred to
//! a later successful Pact-view one: a provider version that verified the
//! whole contract has verified it, whatever a Pact verifier published
//! after. A failure is a failure whichever view it was of.
//!
//! The one rule every verdict follows ([`accord_only_parts`]): a success of
//! the Pact view is unknown on the whole contract when the content has
//! Accord-only parts; of a content without any, it is a plain success (its
//! view was the whole contract).

use std::collections::{BTreeSet, HashMap};

use diesel::dsl::max;
use diesel::prelude::*;

use super::StoreError;
use super::matrix::{VERIFICATION_COLS, VerificationRow};
use crate::contract::pact_view::{AccordOnly, accord_only_of_stored};
use crate::db::AnyConnection;
use crate::schema::{pact_contents, verifications};

/// Contents read at once by [`accord_only_parts`]: whole documents, so
/// fewer than `ID_CHUNK` ids a query (memory, not bind parameters, bounds it).
const CONTENT_CHUNK: usize = 50;

/// The Accord-only parts of each of these contents that has any, by id: a
/// successful Pact-view result of a content in the map leaves these parts
/// unverified (its verdict on the whole contract is unknown); of a content
/// not in it, the result is a plain success. Pass only the contents of
/// Pact-view successes: each document is read and viewed.
pub fn accord_only_parts(
    conn: &mut AnyConnection,
    content_ids: impl IntoIterator<Item = i64>,
) -> Result<HashMap<i64, Vec<AccordOnly>>, StoreError> {
    let ids: Vec<i64> = content_ids
        .into_iter()
        .collect::<BTreeSet<i64>>()
        .into_iter()
        .collect();
    let mut out = HashMap::new();
    for chunk in ids.chunks(CONTENT_CHUNK) {
        let documents: Vec<(i64, String)> = pact_contents::table
            .filter(pact_contents::id.eq_any(chunk))
            .select((pact_contents::id, pact_contents::content))
            .load(conn)?;
        for (id, text) in documents {
            let parts = accord_only_of_stored(&text).map_err(|source| StoreError::CorruptJson {
                what: "pact content",
                source,
            })?;
            if !parts.is_empty() {
                out.insert(id, parts);
            }
        }
    }
    Ok(out)
}

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
