//! Queries behind consumer version selectors and WIP pacts: which
//! publications for a provider belong to branch heads, tagged versions,
//! the latest version, or versions deployed or released. Each query walks
//! one index (see the initial migration) and returns only the rows it
//! selects; nothing loads every publication or verification of a provider.

use diesel::prelude::*;

use super::StoreError;
use crate::db::AnyConnection;
use crate::schema::{
    branch_versions, branches, deployed_versions, environments, pact_publications,
    released_versions, tags,
};
use crate::store::pacts::Publication;

/// A publication of a consumer version that is live in an environment.
#[derive(Debug, Clone)]
pub struct LivePublication {
    pub publication: Publication,
    pub environment: String,
}

/// The consumers that have published a pact for this provider, by id.
pub fn consumer_ids(conn: &mut AnyConnection, provider_id: i64) -> Result<Vec<i64>, StoreError> {
    Ok(pact_publications::table
        .filter(pact_publications::provider_id.eq(provider_id))
        .select(pact_publications::consumer_id)
        .distinct()
        .order(pact_publications::consumer_id.asc())
        .load(conn)?)
}

/// The head (newest version) of a pacticipant's branch called `name`.
pub fn branch_head(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &str,
) -> Result<Option<i64>, StoreError> {
    let branch_id: Option<i64> = branches::table
        .filter(branches::pacticipant_id.eq(pacticipant_id))
        .filter(branches::name.eq(name))
        .select(branches::id)
        .first(conn)
        .optional()?;
    match branch_id {
        Some(id) => head_of(conn, id),
        None => Ok(None),
    }
}

/// The newest version on a branch.
pub fn head_of(conn: &mut AnyConnection, branch_id: i64) -> Result<Option<i64>, StoreError> {
    Ok(branch_versions::table
        .filter(branch_versions::branch_id.eq(branch_id))
        .select(diesel::dsl::max(branch_versions::version_id))
        .first::<Option<i64>>(conn)?)
}

/// The branches (id, name) a version is on.
pub fn branches_of(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<(i64, String)>, StoreError> {
    Ok(branch_versions::table
        .inner_join(branches::table)
        .filter(branch_versions::version_id.eq(version_id))
        .select((branches::id, branches::name))
        .load(conn)?)
}

/// The publication for `provider_id` of the newest version of the consumer
/// tagged `tag` that has one.
pub fn latest_tagged(
    conn: &mut AnyConnection,
    provider_id: i64,
    consumer_id: i64,
    tag: &str,
) -> Result<Option<Publication>, StoreError> {
    Ok(tags::table
        .inner_join(
            pact_publications::table.on(pact_publications::consumer_version_id
                .eq(tags::version_id)
                .and(pact_publications::provider_id.eq(provider_id))),
        )
        .filter(tags::pacticipant_id.eq(consumer_id))
        .filter(tags::name.eq(tag))
        .order(tags::version_id.desc())
        .select(Publication::as_select())
        .first(conn)
        .optional()?)
}

/// The publications for `provider_id` of every version of the consumer
/// tagged `tag`, oldest first.
pub fn all_tagged(
    conn: &mut AnyConnection,
    provider_id: i64,
    consumer_id: i64,
    tag: &str,
) -> Result<Vec<Publication>, StoreError> {
    Ok(tags::table
        .inner_join(
            pact_publications::table.on(pact_publications::consumer_version_id
                .eq(tags::version_id)
                .and(pact_publications::provider_id.eq(provider_id))),
        )
        .filter(tags::pacticipant_id.eq(consumer_id))
        .filter(tags::name.eq(tag))
        .order(tags::version_id.asc())
        .select(Publication::as_select())
        .load(conn)?)
}

/// The tag names of a version.
pub fn tag_names_of(conn: &mut AnyConnection, version_id: i64) -> Result<Vec<String>, StoreError> {
    Ok(tags::table
        .filter(tags::version_id.eq(version_id))
        .select(tags::name)
        .order(tags::name.asc())
        .load(conn)?)
}

/// The consumer's newest publication for the provider.
pub fn latest(
    conn: &mut AnyConnection,
    provider_id: i64,
    consumer_id: i64,
) -> Result<Option<Publication>, StoreError> {
    Ok(pact_publications::table
        .filter(pact_publications::provider_id.eq(provider_id))
        .filter(pact_publications::consumer_id.eq(consumer_id))
        .order(pact_publications::consumer_version_id.desc())
        .select(Publication::as_select())
        .first(conn)
        .optional()?)
}

/// Publications for the provider of consumer versions currently deployed
/// (any environment, every application instance).
pub fn deployed(
    conn: &mut AnyConnection,
    provider_id: i64,
) -> Result<Vec<LivePublication>, StoreError> {
    let rows: Vec<(Publication, String)> = deployed_versions::table
        .inner_join(environments::table)
        .inner_join(
            pact_publications::table.on(pact_publications::consumer_version_id
                .eq(deployed_versions::version_id)
                .and(pact_publications::provider_id.eq(provider_id))),
        )
        .filter(deployed_versions::undeployed_at.is_null())
        .order(deployed_versions::version_id.asc())
        .select((Publication::as_select(), environments::name))
        .load(conn)?;
    Ok(live(rows))
}

/// Publications for the provider of consumer versions released and still
/// supported.
pub fn released(
    conn: &mut AnyConnection,
    provider_id: i64,
) -> Result<Vec<LivePublication>, StoreError> {
    let rows: Vec<(Publication, String)> = released_versions::table
        .inner_join(environments::table)
        .inner_join(
            pact_publications::table.on(pact_publications::consumer_version_id
                .eq(released_versions::version_id)
                .and(pact_publications::provider_id.eq(provider_id))),
        )
        .filter(released_versions::support_ended_at.is_null())
        .order(released_versions::version_id.asc())
        .select((Publication::as_select(), environments::name))
        .load(conn)?;
    Ok(live(rows))
}

fn live(rows: Vec<(Publication, String)>) -> Vec<LivePublication> {
    rows.into_iter()
        .map(|(publication, environment)| LivePublication {
            publication,
            environment,
        })
        .collect()
}

/// Publications for the provider created at or after `since`, oldest first
/// (the WIP candidates; index on provider and creation time).
pub fn published_since(
    conn: &mut AnyConnection,
    provider_id: i64,
    since: chrono::NaiveDateTime,
) -> Result<Vec<Publication>, StoreError> {
    Ok(pact_publications::table
        .filter(pact_publications::provider_id.eq(provider_id))
        .filter(pact_publications::created_at.ge(since))
        .order(pact_publications::created_at.asc())
        .select(Publication::as_select())
        .load(conn)?)
}

/// The sha of each content id given (without loading the content itself).
pub fn shas(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<(i64, String)>, StoreError> {
    use crate::schema::pact_contents;
    Ok(pact_contents::table
        .filter(pact_contents::id.eq_any(ids))
        .select((pact_contents::id, pact_contents::sha))
        .load(conn)?)
}
