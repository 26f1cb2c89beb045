//! Lookups the pages make by id or by name: names of pacticipants, numbers
//! of versions, shas of contents (each chunked to `ID_CHUNK` ids a query),
//! the list of pacticipants and the search by part of a name.

use std::collections::HashMap;

use diesel::dsl::{count_star, max};
use diesel::prelude::*;

use super::{ID_CHUNK, StoreError};
use crate::db::AnyConnection;
use crate::schema::{pact_contents, pacticipants, versions};

/// (id, name) of the first `limit` pacticipants by name, and how many there are.
pub fn list_names(
    conn: &mut AnyConnection,
    limit: i64,
) -> Result<(Vec<(i64, String)>, i64), StoreError> {
    let total = pacticipants::table.select(count_star()).first(conn)?;
    let names = pacticipants::table
        .order(pacticipants::name.asc())
        .limit(limit)
        .select((pacticipants::id, pacticipants::name))
        .load(conn)?;
    Ok((names, total))
}

/// (id, name, display name) of a pacticipant.
pub type NameRow = (i64, String, Option<String>);

/// Pacticipants whose name contains `needle` (already lowercase),
/// ignoring case: the first `limit` by name, and how many match.
///
/// Case is folded here, by Rust's `to_lowercase` (Unicode: `Éclair`
/// matches `éclair`), not by SQL's `lower`, which folds ASCII only on
/// SQLite and follows the database's locale on PostgreSQL: the same
/// search finds the same names on both. The names are read and matched
/// here (a broker's applications number in the thousands at most; only
/// id, name and display name are read).
pub fn search_names(
    conn: &mut AnyConnection,
    needle: &str,
    limit: i64,
) -> Result<(Vec<NameRow>, i64), StoreError> {
    let all: Vec<NameRow> = pacticipants::table
        .order(pacticipants::name.asc())
        .select((
            pacticipants::id,
            pacticipants::name,
            pacticipants::display_name,
        ))
        .load(conn)?;
    let mut total = 0;
    let mut found = Vec::new();
    for row in all {
        if row.1.to_lowercase().contains(needle) {
            total += 1;
            if found.len() < usize::try_from(limit).unwrap_or(0) {
                found.push(row);
            }
        }
    }
    Ok((found, total))
}

/// The latest version number of each of these pacticipants, by id.
pub fn latest_version_numbers(
    conn: &mut AnyConnection,
    pacticipant_ids: &[i64],
) -> Result<HashMap<i64, String>, StoreError> {
    let mut ids = Vec::new();
    for chunk in pacticipant_ids.chunks(ID_CHUNK) {
        let latest: Vec<Option<i64>> = versions::table
            .filter(versions::pacticipant_id.eq_any(chunk))
            .group_by(versions::pacticipant_id)
            .select(max(versions::id))
            .load(conn)?;
        ids.extend(latest.into_iter().flatten());
    }
    let mut out = HashMap::new();
    for chunk in ids.chunks(ID_CHUNK) {
        let rows: Vec<(i64, String)> = versions::table
            .filter(versions::id.eq_any(chunk))
            .select((versions::pacticipant_id, versions::number))
            .load(conn)?;
        out.extend(rows);
    }
    Ok(out)
}

/// The names of these pacticipants, by id.
pub fn names_by_ids(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<HashMap<i64, String>, StoreError> {
    let mut out = HashMap::new();
    for chunk in ids.chunks(ID_CHUNK) {
        let rows: Vec<(i64, String)> = pacticipants::table
            .filter(pacticipants::id.eq_any(chunk))
            .select((pacticipants::id, pacticipants::name))
            .load(conn)?;
        out.extend(rows);
    }
    Ok(out)
}

/// The numbers of these versions, by id.
pub fn version_numbers(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<HashMap<i64, String>, StoreError> {
    let mut out = HashMap::new();
    for chunk in ids.chunks(ID_CHUNK) {
        let rows: Vec<(i64, String)> = versions::table
            .filter(versions::id.eq_any(chunk))
            .select((versions::id, versions::number))
            .load(conn)?;
        out.extend(rows);
    }
    Ok(out)
}

/// The shas of these contents, by id.
pub fn content_shas(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<HashMap<i64, String>, StoreError> {
    let mut out = HashMap::new();
    for chunk in ids.chunks(ID_CHUNK) {
        let rows: Vec<(i64, String)> = pact_contents::table
            .filter(pact_contents::id.eq_any(chunk))
            .select((pact_contents::id, pact_contents::sha))
            .load(conn)?;
        out.extend(rows);
    }
    Ok(out)
}
