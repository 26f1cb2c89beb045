//! Read queries for what matrix rows show (branches, tags, environments,
//! names of the versions on screen; content shas come from
//! `selection::shas`) and what badges read (the latest pact of a pair and
//! its latest verification).

use diesel::expression::IntoSql;
use diesel::prelude::*;
use diesel::sql_types::Bool;

use super::StoreError;
use super::matrix::{VERIFICATION_COLS, VerificationRow};
use crate::db::AnyConnection;
use crate::schema::{
    branch_versions, branches, deployed_versions, environments, pact_publications, pacticipants,
    released_versions, tags, verifications,
};

/// (version id, branch name) for these versions, oldest branch entry first.
pub fn branch_names(
    conn: &mut AnyConnection,
    version_ids: &[i64],
) -> Result<Vec<(i64, String)>, StoreError> {
    Ok(branch_versions::table
        .inner_join(branches::table)
        .filter(branch_versions::version_id.eq_any(version_ids))
        .order(branch_versions::id.asc())
        .select((branch_versions::version_id, branches::name))
        .load(conn)?)
}

/// (version id, tag name) for these versions.
pub fn tag_names(
    conn: &mut AnyConnection,
    version_ids: &[i64],
) -> Result<Vec<(i64, String)>, StoreError> {
    Ok(tags::table
        .filter(tags::version_id.eq_any(version_ids))
        .order(tags::id.asc())
        .select((tags::version_id, tags::name))
        .load(conn)?)
}

/// (version id, environment name, deployed?) where these versions are
/// currently deployed (true) or released and supported (false).
pub fn live_environments(
    conn: &mut AnyConnection,
    version_ids: &[i64],
) -> Result<Vec<(i64, String, bool)>, StoreError> {
    let deployed = deployed_versions::table
        .inner_join(environments::table)
        .filter(deployed_versions::version_id.eq_any(version_ids))
        .filter(deployed_versions::undeployed_at.is_null())
        .select((
            deployed_versions::version_id,
            environments::name,
            true.into_sql::<Bool>(),
        ));
    let released = released_versions::table
        .inner_join(environments::table)
        .filter(released_versions::version_id.eq_any(version_ids))
        .filter(released_versions::support_ended_at.is_null())
        .select((
            released_versions::version_id,
            environments::name,
            false.into_sql::<Bool>(),
        ));
    let mut all: Vec<(i64, String, bool)> =
        crate::on_backend!(conn, |c| deployed.union_all(released).load(c))?;
    all.sort();
    all.dedup();
    Ok(all)
}

/// (id, name) of these pacticipants.
pub fn pacticipant_names(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<Vec<(i64, String)>, StoreError> {
    Ok(pacticipants::table
        .filter(pacticipants::id.eq_any(ids))
        .select((pacticipants::id, pacticipants::name))
        .load(conn)?)
}

/// The content of the latest publication between a consumer and a provider
/// (only consumer versions tagged `tag`, when given).
pub fn latest_pact_content(
    conn: &mut AnyConnection,
    consumer_id: i64,
    provider_id: i64,
    tag: Option<&str>,
) -> Result<Option<i64>, StoreError> {
    let mut query = pact_publications::table
        .filter(pact_publications::provider_id.eq(provider_id))
        .filter(pact_publications::consumer_id.eq(consumer_id))
        .order(pact_publications::consumer_version_id.desc())
        .select(pact_publications::pact_content_id)
        .into_boxed();
    if let Some(tag) = tag {
        let tagged = tags::table
            .filter(tags::pacticipant_id.eq(consumer_id))
            .filter(tags::name.eq(tag.to_owned()))
            .select(tags::version_id);
        query = query.filter(pact_publications::consumer_version_id.eq_any(tagged));
    }
    Ok(query.first(conn).optional()?)
}

/// The latest verification of a content by any provider version (the
/// whole-contract result of that provider version rather than a later
/// success of the Pact view only, `coverage::prefer_whole`).
pub fn latest_verification_of_content(
    conn: &mut AnyConnection,
    content_id: i64,
) -> Result<Option<VerificationRow>, StoreError> {
    let latest: Option<VerificationRow> = verifications::table
        .filter(verifications::pact_content_id.eq(content_id))
        .order(verifications::id.desc())
        .select(VERIFICATION_COLS)
        .first(conn)
        .optional()?;
    Ok(super::coverage::prefer_whole(conn, latest.into_iter().collect())?.pop())
}
