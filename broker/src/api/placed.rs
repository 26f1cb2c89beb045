//! What deployed and released versions share: a record of a version in an
//! environment, loaded with its version, pacticipant and environment, and
//! rendered with the same links, `_embedded` context and list shape.

use std::collections::HashMap;

use actix_web::{HttpResponse, web};
use serde_json::{Value, json};

use crate::api::environments::{environment_json, find_environment};
use crate::api::version_view::{find_version, version_url};
use crate::db::AnyConnection;
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::StoreError;
use crate::store::deployments::{self, DeployedVersion};
use crate::store::environments::{self, Environment};
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::releases::{self, ReleasedVersion};
use crate::store::versions::{self, Version};

/// A stored record of a version in an environment (a deployment or a release).
pub trait EnvironmentRecord: Sized {
    /// The collection segment of its own URL (`deployed-versions`).
    const COLLECTION: &'static str;
    /// The title of its `self` link and of its 404 (`Deployed version`).
    const TITLE: &'static str;
    /// The `_embedded` key of a list of them (`deployedVersions`).
    const LIST_KEY: &'static str;
    /// The title of a list's `self` link (`Deployed versions`).
    const LIST_TITLE: &'static str;
    /// What to call a record whose row vanished between two reads.
    const NOUN: &'static str;
    /// The flag PATCH may set to `false` (`currentlyDeployed`).
    const LIVE_FIELD: &'static str;
    /// Why PATCH refuses to set that flag to `true`.
    const REFUSAL: &'static str;

    /// The row's uuid.
    fn uuid(&self) -> &str;
    /// The id of the version recorded.
    fn version_id(&self) -> i64;
    /// The id of the environment it is recorded in.
    fn environment_id(&self) -> i64;
    /// The resource of one record.
    fn to_json(base: &BaseUrl, placed: &Placed<Self>) -> Result<Value, BrokerError>;
    /// The stored record with this uuid.
    fn find_by_uuid(conn: &mut AnyConnection, uuid: &str) -> Result<Option<Self>, StoreError>;
    /// Marks the record `id` as no longer live and returns it.
    fn end(conn: &mut AnyConnection, id: i64) -> Result<Self, StoreError>;
    /// The row id.
    fn id(&self) -> i64;
}

impl EnvironmentRecord for DeployedVersion {
    const COLLECTION: &'static str = "deployed-versions";
    const TITLE: &'static str = "Deployed version";
    const LIST_KEY: &'static str = "deployedVersions";
    const LIST_TITLE: &'static str = "Deployed versions";
    const NOUN: &'static str = "deployment";
    const LIVE_FIELD: &'static str = "currentlyDeployed";
    const REFUSAL: &'static str =
        "currentlyDeployed can only be set to false; record a new deployment to deploy again";

    fn uuid(&self) -> &str {
        &self.uuid
    }
    fn version_id(&self) -> i64 {
        self.version_id
    }
    fn environment_id(&self) -> i64 {
        self.environment_id
    }
    fn to_json(base: &BaseUrl, placed: &Placed<Self>) -> Result<Value, BrokerError> {
        crate::api::deployments::deployed_json(base, placed)
    }
    fn find_by_uuid(conn: &mut AnyConnection, uuid: &str) -> Result<Option<Self>, StoreError> {
        deployments::find_by_uuid(conn, uuid)
    }
    fn end(conn: &mut AnyConnection, id: i64) -> Result<Self, StoreError> {
        deployments::undeploy(conn, id)
    }
    fn id(&self) -> i64 {
        self.id
    }
}

impl EnvironmentRecord for ReleasedVersion {
    const COLLECTION: &'static str = "released-versions";
    const TITLE: &'static str = "Released version";
    const LIST_KEY: &'static str = "releasedVersions";
    const LIST_TITLE: &'static str = "Released versions";
    const NOUN: &'static str = "release";
    const LIVE_FIELD: &'static str = "currentlySupported";
    const REFUSAL: &'static str =
        "currentlySupported can only be set to false; record the release again to resume support";

    fn uuid(&self) -> &str {
        &self.uuid
    }
    fn version_id(&self) -> i64 {
        self.version_id
    }
    fn environment_id(&self) -> i64 {
        self.environment_id
    }
    fn to_json(base: &BaseUrl, placed: &Placed<Self>) -> Result<Value, BrokerError> {
        crate::api::releases::released_json(base, placed)
    }
    fn find_by_uuid(conn: &mut AnyConnection, uuid: &str) -> Result<Option<Self>, StoreError> {
        releases::find_by_uuid(conn, uuid)
    }
    fn end(conn: &mut AnyConnection, id: i64) -> Result<Self, StoreError> {
        releases::end_support(conn, id)
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// A deployment or release with what it points at.
#[derive(Debug)]
pub struct Placed<R> {
    pub row: R,
    pub version: Version,
    pub pacticipant: Pacticipant,
    pub environment: Environment,
}

/// The version `p`/`v` and the environment `uuid`, or 404 for either.
pub fn find_version_and_environment(
    conn: &mut AnyConnection,
    p: &str,
    v: &str,
    uuid: &str,
) -> Result<(Version, Environment), BrokerError> {
    let (_, version) = find_version(conn, p, v)?;
    let env = find_environment(conn, uuid)?;
    Ok((version, env))
}

/// Loads the version and pacticipant of each row in `env`.
pub fn place<R: EnvironmentRecord>(
    conn: &mut AnyConnection,
    rows: Vec<R>,
    env: &Environment,
) -> Result<Vec<Placed<R>>, BrokerError> {
    let ids: Vec<i64> = rows.iter().map(R::version_id).collect();
    let by_id: HashMap<i64, Version> = versions::find_by_ids(conn, &ids)?
        .into_iter()
        .map(|v| (v.id, v))
        .collect();
    let mut owners: HashMap<i64, Pacticipant> = HashMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let version = by_id
            .get(&row.version_id())
            .cloned()
            .ok_or_else(|| missing("version"))?;
        if !owners.contains_key(&version.pacticipant_id) {
            let p = pacticipants::find_by_id(conn, version.pacticipant_id)?
                .ok_or_else(|| missing("pacticipant"))?;
            owners.insert(p.id, p);
        }
        let pacticipant = owners[&version.pacticipant_id].clone();
        out.push(Placed {
            row,
            version,
            pacticipant,
            environment: env.clone(),
        });
    }
    Ok(out)
}

/// One row placed in `env`.
pub fn place_one<R: EnvironmentRecord>(
    conn: &mut AnyConnection,
    row: R,
    env: &Environment,
) -> Result<Placed<R>, BrokerError> {
    place(conn, vec![row], env)?
        .pop()
        .ok_or_else(|| missing(R::NOUN))
}

/// The record with this uuid placed in its environment, or 404.
pub fn find_placed<R: EnvironmentRecord>(
    conn: &mut AnyConnection,
    uuid: &str,
) -> Result<Placed<R>, BrokerError> {
    let row = R::find_by_uuid(conn, uuid)?
        .ok_or_else(|| BrokerError::not_found(format!("{} with uuid '{uuid}'", R::TITLE)))?;
    let env = environments::find_by_id(conn, row.environment_id())?
        .ok_or_else(|| missing("environment"))?;
    place_one(conn, row, &env)
}

/// A row whose version, pacticipant or environment vanished (deleted by a
/// concurrent request between two reads).
pub fn missing(what: &str) -> BrokerError {
    BrokerError::not_found(format!("The {what} of this record"))
}

/// `_links` shared by deployed and released versions.
pub fn record_links<R: EnvironmentRecord>(base: &BaseUrl, placed: &Placed<R>) -> Links {
    let version = version_url(base, &placed.pacticipant.name, &placed.version.number, &[]);
    Links::new()
        .add(
            "self",
            Link::new(base.url(&[R::COLLECTION, placed.row.uuid()])).title(R::TITLE),
        )
        .add("pb:version", Link::new(version).title("Version"))
        .add(
            "pb:environment",
            Link::new(base.url(&["environments", &placed.environment.uuid]))
                .title("Environment")
                .name(placed.environment.name.clone()),
        )
}

/// `_embedded` shared by deployed and released versions.
pub fn embedded_context<R>(base: &BaseUrl, placed: &Placed<R>) -> Result<Value, BrokerError> {
    let p = placed.pacticipant.name.as_str();
    let n = placed.version.number.as_str();
    Ok(json!({
        "version": {
            "number": n,
            "buildUrl": placed.version.build_url,
            "createdAt": crate::api::time(placed.version.created_at),
            "_links": { "self": Link::new(version_url(base, p, n, &[])).title("Version").name(n).to_value() },
        },
        "pacticipant": {
            "name": p,
            "_links": { "self": Link::new(base.url(&["pacticipants", p])).title("Pacticipant").name(p).to_value() },
        },
        "environment": environment_json(base, &placed.environment)?,
    }))
}

/// A list of records with its `self` link.
pub fn list_json<R: EnvironmentRecord>(
    base: &BaseUrl,
    list: &[Placed<R>],
    self_href: String,
) -> Result<Value, BrokerError> {
    let items = list
        .iter()
        .map(|r| R::to_json(base, r))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({
        "_embedded": { R::LIST_KEY: items },
        "_links": { "self": Link::new(self_href).title(R::LIST_TITLE).to_value() },
    }))
}

/// `GET /{collection}/{uuid}`: one record.
pub async fn get<R: EnvironmentRecord + Send + 'static>(
    state: web::Data<AppState>,
    base: BaseUrl,
    uuid: String,
) -> Result<HttpResponse, BrokerError> {
    let body = state
        .run(move |conn| R::to_json(&base, &find_placed::<R>(conn, &uuid)?))
        .await?;
    Ok(hal::ok(&body))
}

/// `PATCH /{collection}/{uuid}` whose body set the live flag to `live`:
/// `false` ends the record, `true` is refused (record it again instead).
pub async fn patch<R: EnvironmentRecord + Send + 'static>(
    state: web::Data<AppState>,
    base: BaseUrl,
    uuid: String,
    live: Option<bool>,
) -> Result<HttpResponse, BrokerError> {
    if live == Some(true) {
        return Err(BrokerError::Unprocessable {
            detail: R::REFUSAL.into(),
            errors: vec![FieldError::new(R::LIVE_FIELD, "can only be set to false")],
        });
    }
    let body = state
        .transaction(move |conn| {
            let mut placed = find_placed::<R>(conn, &uuid)?;
            if live == Some(false) {
                placed.row = R::end(conn, placed.row.id())?;
            }
            R::to_json(&base, &placed)
        })
        .await?;
    Ok(hal::ok(&body))
}
