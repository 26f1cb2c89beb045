//! Deployed versions: which version of a pacticipant runs in an environment,
//! per application instance. The empty string is the "no instance" slot.
//!
//! One live row per (pacticipant, environment, instance) is guaranteed by the
//! unique partial index `deployed_versions_live_slot`, so two replicas that
//! record deployments at once cannot both win; the loser retries inside a
//! savepoint (see `record`).

use diesel::Connection;
use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::deployed_versions;
use crate::store::versions::Version;

/// A stored deployment.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = deployed_versions)]
pub struct DeployedVersion {
    pub id: i64,
    pub uuid: String,
    pub version_id: i64,
    pub pacticipant_id: i64,
    pub environment_id: i64,
    /// `""` when the deployment names no application instance.
    pub application_instance: String,
    pub created_at: chrono::NaiveDateTime,
    pub undeployed_at: Option<chrono::NaiveDateTime>,
    /// The drift report whose `canary_stop` stopped this deployment.
    pub canary_stopped_by: Option<i64>,
}

impl DeployedVersion {
    /// True until the version is replaced or undeployed.
    pub fn currently_deployed(&self) -> bool {
        self.undeployed_at.is_none()
    }

    /// The application instance, `None` for the no-instance slot.
    pub fn instance(&self) -> Option<&str> {
        Some(self.application_instance.as_str()).filter(|s| !s.is_empty())
    }
}

/// How many times a deployment lost to a concurrent one is retried.
const RACE_RETRIES: usize = 5;

/// Records that `version` is deployed to `environment_id` in `instance`
/// (`""` = no instance). Idempotent: if that version is already live in that
/// slot, its row is returned with `false`. Otherwise whatever was live in the
/// slot is marked undeployed and a new row is returned with `true`.
/// `None` when the environment was deleted meanwhile.
pub fn record(
    conn: &mut AnyConnection,
    version: &Version,
    environment_id: i64,
    instance: &str,
) -> Result<Option<(DeployedVersion, bool)>, StoreError> {
    if super::environments::lock(conn, environment_id)?.is_none() {
        return Ok(None);
    }
    let mut attempt = 0;
    loop {
        if let Some(mut live) = find_live(conn, version.id, environment_id, instance)? {
            if live.canary_stopped_by.is_some() {
                clear_canary_stop(conn, live.id)?;
                live.canary_stopped_by = None;
            }
            return Ok(Some((live, false)));
        }
        // A savepoint: a unique violation (another replica filled the slot
        // between our update and insert) must not abort the request's transaction.
        let replaced = conn.transaction(|c| {
            end_slot(c, version.pacticipant_id, environment_id, instance)?;
            insert(c, version, environment_id, instance)
        });
        match replaced {
            Err(e) if e.is_unique_violation() && attempt + 1 < RACE_RETRIES => attempt += 1,
            other => return other.map(|row| Some((row, true))),
        }
    }
}

fn insert(
    conn: &mut AnyConnection,
    version: &Version,
    environment_id: i64,
    instance: &str,
) -> Result<DeployedVersion, StoreError> {
    Ok(diesel::insert_into(deployed_versions::table)
        .values((
            deployed_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
            deployed_versions::version_id.eq(version.id),
            deployed_versions::pacticipant_id.eq(version.pacticipant_id),
            deployed_versions::environment_id.eq(environment_id),
            deployed_versions::application_instance.eq(instance),
            deployed_versions::created_at.eq(now()),
        ))
        .returning(deployed_versions::all_columns)
        .get_result(conn)?)
}

/// Recording a deployment again resumes a stopped canary.
fn clear_canary_stop(conn: &mut AnyConnection, id: i64) -> Result<usize, StoreError> {
    Ok(diesel::update(deployed_versions::table.find(id))
        .set(deployed_versions::canary_stopped_by.eq(None::<i64>))
        .execute(conn)?)
}

/// Marks the live deployments of `version_id` in `environment_id` not
/// stopped yet as stopped by drift report `report_id`; how many.
pub fn stop_canary(
    conn: &mut AnyConnection,
    version_id: i64,
    environment_id: i64,
    report_id: i64,
) -> Result<usize, StoreError> {
    Ok(diesel::update(
        deployed_versions::table
            .filter(deployed_versions::version_id.eq(version_id))
            .filter(deployed_versions::environment_id.eq(environment_id))
            .filter(deployed_versions::undeployed_at.is_null())
            .filter(deployed_versions::canary_stopped_by.is_null()),
    )
    .set(deployed_versions::canary_stopped_by.eq(Some(report_id)))
    .execute(conn)?)
}

/// The live deployments of `version_id` a drift report stopped:
/// (environment id, report id), oldest deployment first.
pub fn canary_stops(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<(i64, i64)>, StoreError> {
    let rows: Vec<(i64, Option<i64>)> = deployed_versions::table
        .filter(deployed_versions::version_id.eq(version_id))
        .filter(deployed_versions::undeployed_at.is_null())
        .filter(deployed_versions::canary_stopped_by.is_not_null())
        .order(deployed_versions::id.asc())
        .select((
            deployed_versions::environment_id,
            deployed_versions::canary_stopped_by,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(env, by)| by.map(|r| (env, r)))
        .collect())
}

/// Marks whatever is live in the slot undeployed.
fn end_slot(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    environment_id: i64,
    instance: &str,
) -> Result<usize, StoreError> {
    Ok(diesel::update(
        deployed_versions::table
            .filter(deployed_versions::pacticipant_id.eq(pacticipant_id))
            .filter(deployed_versions::environment_id.eq(environment_id))
            .filter(deployed_versions::application_instance.eq(instance))
            .filter(deployed_versions::undeployed_at.is_null()),
    )
    .set(deployed_versions::undeployed_at.eq(Some(now())))
    .execute(conn)?)
}

/// The live deployment of `version_id` in that environment and slot.
pub fn find_live(
    conn: &mut AnyConnection,
    version_id: i64,
    environment_id: i64,
    instance: &str,
) -> Result<Option<DeployedVersion>, StoreError> {
    Ok(deployed_versions::table
        .filter(deployed_versions::version_id.eq(version_id))
        .filter(deployed_versions::environment_id.eq(environment_id))
        .filter(deployed_versions::application_instance.eq(instance))
        .filter(deployed_versions::undeployed_at.is_null())
        .select(DeployedVersion::as_select())
        .first(conn)
        .optional()?)
}

/// The deployment with this uuid.
pub fn find_by_uuid(
    conn: &mut AnyConnection,
    uuid: &str,
) -> Result<Option<DeployedVersion>, StoreError> {
    Ok(deployed_versions::table
        .filter(deployed_versions::uuid.eq(uuid))
        .select(DeployedVersion::as_select())
        .first(conn)
        .optional()?)
}

/// Marks a deployment undeployed (no-op if it already is); returns the row.
pub fn undeploy(conn: &mut AnyConnection, id: i64) -> Result<DeployedVersion, StoreError> {
    diesel::update(
        deployed_versions::table
            .find(id)
            .filter(deployed_versions::undeployed_at.is_null()),
    )
    .set(deployed_versions::undeployed_at.eq(Some(now())))
    .execute(conn)?;
    Ok(deployed_versions::table
        .find(id)
        .select(DeployedVersion::as_select())
        .first(conn)?)
}

/// Every deployment (live or not) of a version to an environment, oldest first.
pub fn list_for_version_in(
    conn: &mut AnyConnection,
    version_id: i64,
    environment_id: i64,
) -> Result<Vec<DeployedVersion>, StoreError> {
    Ok(deployed_versions::table
        .filter(deployed_versions::version_id.eq(version_id))
        .filter(deployed_versions::environment_id.eq(environment_id))
        .order(deployed_versions::id.asc())
        .select(DeployedVersion::as_select())
        .load(conn)?)
}

/// What is live in an environment, optionally only one pacticipant's and
/// only one instance's (`Some("")` = the no-instance slot), oldest first.
pub fn list_currently_deployed(
    conn: &mut AnyConnection,
    environment_id: i64,
    pacticipant_id: Option<i64>,
    instance: Option<&str>,
) -> Result<Vec<DeployedVersion>, StoreError> {
    let mut query = deployed_versions::table
        .filter(deployed_versions::environment_id.eq(environment_id))
        .filter(deployed_versions::undeployed_at.is_null())
        .into_boxed();
    if let Some(p) = pacticipant_id {
        query = query.filter(deployed_versions::pacticipant_id.eq(p));
    }
    if let Some(i) = instance {
        query = query.filter(deployed_versions::application_instance.eq(i.to_owned()));
    }
    Ok(query
        .order(deployed_versions::id.asc())
        .select(DeployedVersion::as_select())
        .load(conn)?)
}

/// The live deployments of a pacticipant in an environment, every instance
/// (for the matrix and `deployed` selectors).
pub fn currently_deployed_in(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    environment_id: i64,
) -> Result<Vec<DeployedVersion>, StoreError> {
    list_currently_deployed(conn, environment_id, Some(pacticipant_id), None)
}

/// Every live deployment anywhere, oldest first (for `deployedOrReleased`).
pub fn all_currently_deployed(
    conn: &mut AnyConnection,
) -> Result<Vec<DeployedVersion>, StoreError> {
    Ok(deployed_versions::table
        .filter(deployed_versions::undeployed_at.is_null())
        .order(deployed_versions::id.asc())
        .select(DeployedVersion::as_select())
        .load(conn)?)
}

/// The live deployments of one version (any environment, any instance).
pub fn currently_deployed_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<DeployedVersion>, StoreError> {
    Ok(deployed_versions::table
        .filter(deployed_versions::version_id.eq(version_id))
        .filter(deployed_versions::undeployed_at.is_null())
        .order(deployed_versions::id.asc())
        .select(DeployedVersion::as_select())
        .load(conn)?)
}
