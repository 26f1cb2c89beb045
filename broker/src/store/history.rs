//! Read queries of a pacticipant's page: its branches and tags with their
//! newest versions, its deployments and releases over time, and the
//! verifications it published as a provider. Each is bounded (a `LIMIT`,
//! or grouped over an index whose leading column is the pacticipant).

use diesel::dsl::{count_star, max};
use diesel::prelude::*;

use super::StoreError;
use crate::db::AnyConnection;
use crate::schema::{
    branch_versions, branches, deployed_versions, environments, released_versions, tags,
    verifications, versions,
};

/// A branch or tag name with its newest version.
#[derive(Debug, Clone)]
pub struct NamedHead {
    pub name: String,
    pub version_id: i64,
    pub version: String,
}

/// The newest `limit` branches of a pacticipant (by their head version,
/// newest first), and how many it has.
pub fn branch_heads(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    limit: usize,
) -> Result<(Vec<NamedHead>, usize), StoreError> {
    let own = branches::table
        .filter(branches::pacticipant_id.eq(pacticipant_id))
        .select(branches::id);
    let rows: Vec<(i64, Option<i64>)> = branch_versions::table
        .filter(branch_versions::branch_id.eq_any(own))
        .group_by(branch_versions::branch_id)
        .select((branch_versions::branch_id, max(branch_versions::version_id)))
        .load(conn)?;
    let names: Vec<(i64, String)> = branches::table
        .filter(branches::pacticipant_id.eq(pacticipant_id))
        .select((branches::id, branches::name))
        .load(conn)?;
    let names: std::collections::HashMap<i64, String> = names.into_iter().collect();
    let heads = rows
        .into_iter()
        .filter_map(|(b, v)| Some((names.get(&b)?.clone(), v?)))
        .collect();
    newest(conn, heads, limit)
}

/// The newest `limit` tags of a pacticipant (by their newest version), and
/// how many distinct tags it has.
pub fn tag_heads(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    limit: usize,
) -> Result<(Vec<NamedHead>, usize), StoreError> {
    let rows: Vec<(String, Option<i64>)> = tags::table
        .filter(tags::pacticipant_id.eq(pacticipant_id))
        .group_by(tags::name)
        .select((tags::name, max(tags::version_id)))
        .load(conn)?;
    let heads = rows
        .into_iter()
        .filter_map(|(n, v)| Some((n, v?)))
        .collect();
    newest(conn, heads, limit)
}

/// The `limit` heads with the newest versions, with their numbers, and the total.
fn newest(
    conn: &mut AnyConnection,
    mut heads: Vec<(String, i64)>,
    limit: usize,
) -> Result<(Vec<NamedHead>, usize), StoreError> {
    let total = heads.len();
    heads.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    heads.truncate(limit);
    let ids: Vec<i64> = heads.iter().map(|h| h.1).collect();
    let numbers = super::directory::version_numbers(conn, &ids)?;
    let out = heads
        .into_iter()
        .map(|(name, version_id)| NamedHead {
            name,
            version: numbers.get(&version_id).cloned().unwrap_or_default(),
            version_id,
        })
        .collect();
    Ok((out, total))
}

/// A deployment or release of one of the pacticipant's versions.
#[derive(Debug, Clone)]
pub struct Placement {
    pub environment: String,
    pub version: String,
    /// The application instance of a deployment, if it named one.
    pub instance: Option<String>,
    pub at: chrono::NaiveDateTime,
    /// When it was undeployed or its support ended; `None` while live.
    pub ended: Option<chrono::NaiveDateTime>,
}

type PlacementRow = (
    String,
    String,
    String,
    chrono::NaiveDateTime,
    Option<chrono::NaiveDateTime>,
);

/// The newest `limit` deployments of a pacticipant (live or not), newest
/// first, and how many it has had. Read per environment (the index
/// `deployed_versions_by_environment` leads with it; environments are few).
pub fn deployments(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    limit: i64,
) -> Result<(Vec<Placement>, i64), StoreError> {
    let envs: Vec<i64> = environments::table.select(environments::id).load(conn)?;
    let mine = deployed_versions::environment_id
        .eq_any(envs)
        .and(deployed_versions::pacticipant_id.eq(pacticipant_id));
    let total = deployed_versions::table
        .filter(mine.clone())
        .select(count_star())
        .first(conn)?;
    let rows: Vec<PlacementRow> = deployed_versions::table
        .inner_join(versions::table)
        .inner_join(environments::table)
        .filter(mine)
        .order(deployed_versions::id.desc())
        .limit(limit)
        .select((
            environments::name,
            versions::number,
            deployed_versions::application_instance,
            deployed_versions::created_at,
            deployed_versions::undeployed_at,
        ))
        .load(conn)?;
    Ok((rows.into_iter().map(placement).collect(), total))
}

/// The newest `limit` releases of a pacticipant (supported or not), newest
/// first, and how many it has had.
pub fn releases(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    limit: i64,
) -> Result<(Vec<Placement>, i64), StoreError> {
    let envs: Vec<i64> = environments::table.select(environments::id).load(conn)?;
    let mine = released_versions::environment_id
        .eq_any(envs)
        .and(released_versions::pacticipant_id.eq(pacticipant_id));
    let total = released_versions::table
        .filter(mine.clone())
        .select(count_star())
        .first(conn)?;
    let rows: Vec<(
        String,
        String,
        chrono::NaiveDateTime,
        Option<chrono::NaiveDateTime>,
    )> = released_versions::table
        .inner_join(versions::table)
        .inner_join(environments::table)
        .filter(mine)
        .order(released_versions::id.desc())
        .limit(limit)
        .select((
            environments::name,
            versions::number,
            released_versions::created_at,
            released_versions::support_ended_at,
        ))
        .load(conn)?;
    let out = rows
        .into_iter()
        .map(|(environment, version, at, ended)| Placement {
            environment,
            version,
            instance: None,
            at,
            ended,
        })
        .collect();
    Ok((out, total))
}

fn placement((environment, version, instance, at, ended): PlacementRow) -> Placement {
    Placement {
        environment,
        version,
        instance: Some(instance).filter(|i| !i.is_empty()),
        at,
        ended,
    }
}

/// A verification a provider published, with what it stored verbatim.
#[derive(Debug, Clone, Queryable)]
pub struct ProviderResult {
    pub id: i64,
    pub pact_content_id: i64,
    pub consumer_id: i64,
    pub provider_version: String,
    pub success: bool,
    pub number: i64,
    pub execution_date: chrono::NaiveDateTime,
    /// `verifiedBy` as received (JSON text).
    pub verified_by: Option<String>,
    /// Accord's findings as received (JSON array text).
    pub findings: String,
    /// What the provider declared during the run (Agent Card, MCP
    /// `tools/list`) by digest, as received (JSON array text).
    pub declarations: Option<String>,
}

/// The newest `limit` verifications published by the provider's newest
/// `versions` versions, newest first (by provider version, then through
/// `verifications_by_provider_version`: never a scan of all results).
pub fn provider_results(
    conn: &mut AnyConnection,
    provider_id: i64,
    versions_back: i64,
    limit: i64,
) -> Result<Vec<ProviderResult>, StoreError> {
    let newest: Vec<i64> = versions::table
        .filter(versions::pacticipant_id.eq(provider_id))
        .order(versions::id.desc())
        .limit(versions_back)
        .select(versions::id)
        .load(conn)?;
    Ok(verifications::table
        .inner_join(versions::table)
        .filter(verifications::provider_version_id.eq_any(newest))
        .order(verifications::id.desc())
        .limit(limit)
        .select((
            verifications::id,
            verifications::pact_content_id,
            verifications::consumer_id,
            versions::number,
            verifications::success,
            verifications::number,
            verifications::execution_date,
            verifications::verified_by,
            verifications::findings,
            verifications::declarations,
        ))
        .load(conn)?)
}

/// (environment, version, instance, deployed?) of a live version.
pub type LiveRow = (String, String, Option<String>, bool);

/// Where a pacticipant is live now: (environment, version, instance or
/// `None`, deployed (true) or released (false)), by environment name.
pub fn live(conn: &mut AnyConnection, pacticipant_id: i64) -> Result<Vec<LiveRow>, StoreError> {
    let envs: Vec<i64> = environments::table.select(environments::id).load(conn)?;
    let deployed: Vec<(String, String, String)> = deployed_versions::table
        .inner_join(versions::table)
        .inner_join(environments::table)
        .filter(deployed_versions::environment_id.eq_any(&envs))
        .filter(deployed_versions::pacticipant_id.eq(pacticipant_id))
        .filter(deployed_versions::undeployed_at.is_null())
        .select((
            environments::name,
            versions::number,
            deployed_versions::application_instance,
        ))
        .load(conn)?;
    let released: Vec<(String, String)> = released_versions::table
        .inner_join(versions::table)
        .inner_join(environments::table)
        .filter(released_versions::environment_id.eq_any(&envs))
        .filter(released_versions::pacticipant_id.eq(pacticipant_id))
        .filter(released_versions::support_ended_at.is_null())
        .select((environments::name, versions::number))
        .load(conn)?;
    let mut all: Vec<LiveRow> = deployed
        .into_iter()
        .map(|(e, v, i)| (e, v, Some(i).filter(|i| !i.is_empty()), true))
        .collect();
    all.extend(released.into_iter().map(|(e, v)| (e, v, None, false)));
    all.sort();
    Ok(all)
}
