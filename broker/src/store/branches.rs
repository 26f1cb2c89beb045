//! Branches and branch versions. A version may be on many branches; the
//! head of a branch is its version with the highest id (created last).

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::names::BranchName;
use crate::schema::{branch_versions, branches, versions};
use crate::store::versions::Version;

/// A stored branch.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = branches)]
pub struct Branch {
    pub id: i64,
    pub pacticipant_id: i64,
    pub name: String,
    pub created_at: chrono::NaiveDateTime,
}

/// The branch `name` of a pacticipant.
pub fn find_by_name(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &str,
) -> Result<Option<Branch>, StoreError> {
    Ok(branches::table
        .filter(branches::pacticipant_id.eq(pacticipant_id))
        .filter(branches::name.eq(name))
        .select(Branch::as_select())
        .first(conn)
        .optional()?)
}

/// Every branch of a pacticipant, by name.
pub fn list_for_pacticipant(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
) -> Result<Vec<Branch>, StoreError> {
    Ok(branches::table
        .filter(branches::pacticipant_id.eq(pacticipant_id))
        .order(branches::name.asc())
        .select(Branch::as_select())
        .load(conn)?)
}

/// The branch, created if absent.
pub fn find_or_create(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &BranchName,
) -> Result<Branch, StoreError> {
    if let Some(found) = find_by_name(conn, pacticipant_id, name.as_str())? {
        return Ok(found);
    }
    // A savepoint: on PostgreSQL a failed statement aborts the whole
    // transaction, so losing the insert race must roll back only the insert.
    let inserted = super::racing_insert(conn, |c| {
        diesel::insert_into(branches::table)
            .values((
                branches::pacticipant_id.eq(pacticipant_id),
                branches::name.eq(name.as_str()),
                branches::created_at.eq(now()),
            ))
            .returning(branches::all_columns)
            .get_result(c)
    });
    match inserted.map_err(StoreError::from) {
        Err(e) if e.is_unique_violation() => find_by_name(conn, pacticipant_id, name.as_str())?
            .ok_or(StoreError::Query(diesel::result::Error::NotFound)),
        other => other,
    }
}

/// Puts a version on a branch (idempotent): one `INSERT … ON CONFLICT DO
/// NOTHING`, so a version already there (or put there by a concurrent
/// request) needs no look-up first and no savepoint.
pub fn add_version(
    conn: &mut AnyConnection,
    branch: &Branch,
    version_id: i64,
) -> Result<(), StoreError> {
    let row = (
        branch_versions::branch_id.eq(branch.id),
        branch_versions::version_id.eq(version_id),
        branch_versions::pacticipant_id.eq(branch.pacticipant_id),
        branch_versions::created_at.eq(now()),
    );
    crate::on_backend!(conn, |c| diesel::insert_into(branch_versions::table)
        .values(row)
        .on_conflict((branch_versions::branch_id, branch_versions::version_id))
        .do_nothing()
        .execute(c))?;
    Ok(())
}

/// Puts a version on the pacticipant's branch `name` in one `INSERT …
/// SELECT` that finds the branch itself; false when nothing was inserted
/// (no such branch, or the version is on it already).
pub fn add_version_by_name(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &BranchName,
    version_id: i64,
) -> Result<bool, StoreError> {
    use diesel::sql_types::{BigInt, Timestamp};
    let branch = branches::table
        .filter(branches::pacticipant_id.eq(pacticipant_id))
        .filter(branches::name.eq(name.as_str()))
        .select((
            branches::id,
            version_id.into_sql::<BigInt>(),
            branches::pacticipant_id,
            now().into_sql::<Timestamp>(),
        ));
    let columns = (
        branch_versions::branch_id,
        branch_versions::version_id,
        branch_versions::pacticipant_id,
        branch_versions::created_at,
    );
    let inserted = crate::on_backend!(conn, |c| diesel::insert_into(branch_versions::table)
        .values(branch)
        .into_columns(columns)
        .on_conflict((branch_versions::branch_id, branch_versions::version_id))
        .do_nothing()
        .execute(c))?;
    Ok(inserted > 0)
}

/// The newest version on a branch.
pub fn head(conn: &mut AnyConnection, branch_id: i64) -> Result<Option<Version>, StoreError> {
    Ok(branch_versions::table
        .inner_join(versions::table)
        .filter(branch_versions::branch_id.eq(branch_id))
        .order(versions::id.desc())
        .select(Version::as_select())
        .first(conn)
        .optional()?)
}

/// The versions on a branch, newest first.
pub fn list_versions(conn: &mut AnyConnection, branch_id: i64) -> Result<Vec<Version>, StoreError> {
    Ok(branch_versions::table
        .inner_join(versions::table)
        .filter(branch_versions::branch_id.eq(branch_id))
        .order(versions::id.desc())
        .select(Version::as_select())
        .load(conn)?)
}

/// The names of the branches a version is on.
pub fn names_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<String>, StoreError> {
    Ok(branch_versions::table
        .inner_join(branches::table)
        .filter(branch_versions::version_id.eq(version_id))
        .order(branches::name.asc())
        .select(branches::name)
        .load(conn)?)
}

/// Takes a version off a branch; true if it was on it.
pub fn remove_version(
    conn: &mut AnyConnection,
    branch_id: i64,
    version_id: i64,
) -> Result<bool, StoreError> {
    let n = diesel::delete(
        branch_versions::table
            .filter(branch_versions::branch_id.eq(branch_id))
            .filter(branch_versions::version_id.eq(version_id)),
    )
    .execute(conn)?;
    Ok(n > 0)
}

/// Deletes a branch (its versions stay).
pub fn delete(conn: &mut AnyConnection, branch_id: i64) -> Result<bool, StoreError> {
    Ok(diesel::delete(branches::table.find(branch_id)).execute(conn)? > 0)
}

/// True when the version is on the branch.
pub fn contains_version(
    conn: &mut AnyConnection,
    branch_id: i64,
    version_id: i64,
) -> Result<bool, StoreError> {
    let found: Option<i64> = branch_versions::table
        .filter(branch_versions::branch_id.eq(branch_id))
        .filter(branch_versions::version_id.eq(version_id))
        .select(branch_versions::id)
        .first(conn)
        .optional()?;
    Ok(found.is_some())
}

/// Branch (or tag) names that are taken as a pacticipant's main branch when
/// it has none yet (the Pact Broker's `main_branch_candidates`).
pub const MAIN_BRANCH_CANDIDATES: [&str; 3] = ["develop", "main", "master"];

/// The Pact Broker's `auto_detect_main_branch`: a branch or tag named like a
/// main branch becomes the pacticipant's `mainBranch` if it has none.
/// Returns true when it was set.
pub fn auto_detect_main_branch(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &str,
) -> Result<bool, StoreError> {
    use crate::schema::pacticipants;
    if !MAIN_BRANCH_CANDIDATES.contains(&name) {
        return Ok(false);
    }
    let n = diesel::update(
        pacticipants::table
            .find(pacticipant_id)
            .filter(pacticipants::main_branch.is_null()),
    )
    .set((
        pacticipants::main_branch.eq(Some(name)),
        pacticipants::updated_at.eq(now()),
    ))
    .execute(conn)?;
    Ok(n > 0)
}

/// `(version id, branch name)` for many versions at once (for lists).
pub fn names_for_versions(
    conn: &mut AnyConnection,
    version_ids: &[i64],
) -> Result<Vec<(i64, String)>, StoreError> {
    let mut out = Vec::new();
    // Chunks stay under every backend's limit of bound parameters.
    for chunk in version_ids.chunks(super::ID_CHUNK) {
        out.extend(
            branch_versions::table
                .inner_join(branches::table)
                .filter(branch_versions::version_id.eq_any(chunk))
                .order((branch_versions::version_id.asc(), branches::name.asc()))
                .select((branch_versions::version_id, branches::name))
                .load::<(i64, String)>(conn)?,
        );
    }
    Ok(out)
}

/// The head (newest version) of the main branch of each of these
/// pacticipants that has one: pacticipant id → (branch name, version id).
/// Two grouped queries per chunk of ids (for the matrix landing's main
/// branch column and the like), whatever the number of versions.
pub fn main_heads(
    conn: &mut AnyConnection,
    pacticipant_ids: &[i64],
) -> Result<std::collections::HashMap<i64, (String, i64)>, StoreError> {
    use crate::schema::pacticipants;
    let mut mains: Vec<(i64, i64, String)> = Vec::new();
    for chunk in pacticipant_ids.chunks(super::ID_CHUNK) {
        mains.extend(
            branches::table
                .inner_join(pacticipants::table)
                .filter(branches::pacticipant_id.eq_any(chunk))
                .filter(pacticipants::main_branch.eq(branches::name.nullable()))
                .select((branches::id, branches::pacticipant_id, branches::name))
                .load::<(i64, i64, String)>(conn)?,
        );
    }
    let branch_ids: Vec<i64> = mains.iter().map(|m| m.0).collect();
    let mut heads: std::collections::HashMap<i64, i64> = std::collections::HashMap::new();
    for chunk in branch_ids.chunks(super::ID_CHUNK) {
        let rows: Vec<(i64, Option<i64>)> = branch_versions::table
            .filter(branch_versions::branch_id.eq_any(chunk))
            .group_by(branch_versions::branch_id)
            .select((
                branch_versions::branch_id,
                diesel::dsl::max(branch_versions::version_id),
            ))
            .load(conn)?;
        heads.extend(rows.into_iter().filter_map(|(b, v)| v.map(|v| (b, v))));
    }
    Ok(mains
        .into_iter()
        .filter_map(|(branch, pacticipant, name)| {
            heads.get(&branch).map(|v| (pacticipant, (name, *v)))
        })
        .collect())
}
