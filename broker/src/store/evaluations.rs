//! Evaluation evidence of provider versions (issue 25): a score on a named
//! data set against a threshold. Kept apart from verifications: nothing
//! that decides a deployment (matrix, can-i-deploy, admission) reads it.

use diesel::prelude::*;

use super::StoreError;
use crate::db::AnyConnection;
use crate::schema::evaluations as e;

/// A stored evaluation result.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = e)]
pub struct Evaluation {
    pub id: i64,
    pub version_id: i64,
    pub dataset: String,
    pub score: f64,
    pub threshold: f64,
    /// The threshold is a floor (true) or a ceiling (false).
    pub higher_is_better: bool,
    /// Computed from score, threshold and direction when stored.
    pub passed: bool,
    pub evaluator_name: Option<String>,
    pub evaluator_version: Option<String>,
    pub url: Option<String>,
    pub created_at: chrono::NaiveDateTime,
}

/// An evaluation result to store.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = e)]
pub struct NewEvaluation {
    pub version_id: i64,
    pub dataset: String,
    pub score: f64,
    pub threshold: f64,
    pub higher_is_better: bool,
    pub passed: bool,
    pub evaluator_name: Option<String>,
    pub evaluator_version: Option<String>,
    pub url: Option<String>,
    pub created_at: chrono::NaiveDateTime,
}

/// Stores one evaluation result.
pub fn insert(conn: &mut AnyConnection, new: &NewEvaluation) -> Result<Evaluation, StoreError> {
    Ok(diesel::insert_into(e::table)
        .values(new)
        .returning(e::all_columns)
        .get_result(conn)?)
}

/// The newest `limit` results of a version, newest first, and how many it has.
pub fn list_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
    limit: i64,
) -> Result<(Vec<Evaluation>, i64), StoreError> {
    let total = e::table
        .filter(e::version_id.eq(version_id))
        .count()
        .get_result(conn)?;
    let rows = e::table
        .filter(e::version_id.eq(version_id))
        .order(e::id.desc())
        .limit(limit)
        .select(Evaluation::as_select())
        .load(conn)?;
    Ok((rows, total))
}

/// What decides a verification's `evaluationEligible`, for each result of
/// provider version `version_id`: (content id, success, pending, wip,
/// kind, pact view).
pub type ContractFlags = (i64, bool, bool, bool, Option<String>, bool);

/// The flags of every verification of provider version `version_id`,
/// oldest first.
pub fn contract_flags(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<ContractFlags>, StoreError> {
    use crate::schema::verifications as v;
    Ok(v::table
        .filter(v::provider_version_id.eq(version_id))
        .select((
            v::pact_content_id,
            v::success,
            v::pending,
            v::wip,
            v::kind,
            v::pact_view,
        ))
        .order(v::id.asc())
        .load(conn)?)
}
