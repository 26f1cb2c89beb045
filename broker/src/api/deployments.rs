//! Deployed versions (`pb:record-deployment`):
//! `POST/GET /pacticipants/{p}/versions/{v}/deployed-versions/environment/{uuid}`,
//! `GET /environments/{uuid}/deployed-versions/currently-deployed`
//! (`?pacticipant=`, `?applicationInstance=`, legacy `?target=`) and
//! `GET/PATCH /deployed-versions/{uuid}` (`{"currentlyDeployed": false}` only).

use std::collections::HashMap;

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::environments::{environment_json, find_environment};
use crate::api::version_view::{find_version, version_url};
use crate::db::AnyConnection;
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::deployments::{self, DeployedVersion};
use crate::store::environments::Environment;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::versions::{self, Version};

/// The body of record-deployment: `{}` or `{"applicationInstance": I, "target": I}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentRequest {
    #[serde(default)]
    pub application_instance: Option<String>,
    /// The old name of `applicationInstance` (Pact clients send both).
    #[serde(default)]
    pub target: Option<String>,
}

/// The filters of the currently-deployed list.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CurrentlyDeployedQuery {
    pub pacticipant: Option<String>,
    pub application_instance: Option<String>,
    pub target: Option<String>,
}

/// The body of PATCH.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeployedPatch {
    pub currently_deployed: Option<bool>,
}

/// A deployment or release with what it points at.
#[derive(Debug)]
pub struct Placed<R> {
    pub row: R,
    pub version: Version,
    pub pacticipant: Pacticipant,
    pub environment: Environment,
}

/// Loads the version and pacticipant of each `(row, version_id)` in `env`.
pub fn place<R>(
    conn: &mut AnyConnection,
    rows: Vec<(R, i64)>,
    env: &Environment,
) -> Result<Vec<Placed<R>>, BrokerError> {
    let ids: Vec<i64> = rows.iter().map(|(_, id)| *id).collect();
    let by_id: HashMap<i64, Version> = versions::find_by_ids(conn, &ids)?
        .into_iter()
        .map(|v| (v.id, v))
        .collect();
    let mut owners: HashMap<i64, Pacticipant> = HashMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for (row, version_id) in rows {
        let version = by_id
            .get(&version_id)
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

/// A row whose version, pacticipant or environment vanished (deleted by a
/// concurrent request between two reads).
pub fn missing(what: &str) -> BrokerError {
    BrokerError::not_found(format!("The {what} of this record"))
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

/// The deployed-version resource.
pub fn deployed_json(base: &BaseUrl, d: &Placed<DeployedVersion>) -> Result<Value, BrokerError> {
    let row = &d.row;
    let links = Links::new()
        .add(
            "self",
            Link::new(base.url(&["deployed-versions", &row.uuid])).title("Deployed version"),
        )
        .add(
            "pb:version",
            Link::new(version_url(
                base,
                &d.pacticipant.name,
                &d.version.number,
                &[],
            ))
            .title("Version"),
        )
        .add(
            "pb:environment",
            Link::new(base.url(&["environments", &d.environment.uuid]))
                .title("Environment")
                .name(d.environment.name.clone()),
        );
    Ok(json!({
        "uuid": row.uuid,
        "currentlyDeployed": row.currently_deployed(),
        "applicationInstance": row.instance(),
        "target": row.instance(),
        "createdAt": crate::api::time(row.created_at),
        "undeployedAt": row.undeployed_at.map(crate::api::time),
        "_embedded": embedded_context(base, d)?,
        "_links": links.into_value(),
    }))
}

fn deployed_list(
    base: &BaseUrl,
    list: &[Placed<DeployedVersion>],
    self_href: String,
) -> Result<Value, BrokerError> {
    let items = list
        .iter()
        .map(|d| deployed_json(base, d))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({
        "_embedded": { "deployedVersions": items },
        "_links": { "self": Link::new(self_href).title("Deployed versions").to_value() },
    }))
}

type VersionEnvPath = web::Path<(String, String, String)>;

/// `POST …/versions/{v}/deployed-versions/environment/{uuid}`: 201 with the
/// new deployment, or 200 with the live one when it is already deployed there.
pub async fn record_deployment(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: VersionEnvPath,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: DeploymentRequest = body::parse(&req, &bytes)?;
    let instance = request
        .application_instance
        .or(request.target)
        .unwrap_or_default();
    if instance.chars().any(char::is_control) {
        return Err(BrokerError::bad_field(
            "applicationInstance",
            "must not contain control characters",
        ));
    }
    let (p, v, uuid) = path.into_inner();
    let (body, created) = state
        .transaction(move |conn| {
            let (_, version) = find_version(conn, &p, &v)?;
            let env = find_environment(conn, &uuid)?;
            let (row, created) = deployments::record(conn, &version, env.id, &instance)?;
            let placed = place(conn, vec![(row, version.id)], &env)?;
            let first = placed.first().ok_or_else(|| missing("deployment"))?;
            Ok((deployed_json(&base, first)?, created))
        })
        .await?;
    Ok(if created {
        hal::created(&body)
    } else {
        hal::ok(&body)
    })
}

/// `GET …/versions/{v}/deployed-versions/environment/{uuid}`: every
/// deployment of that version to that environment.
pub async fn list_version_deployments(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: VersionEnvPath,
) -> Result<HttpResponse, BrokerError> {
    let (p, v, uuid) = path.into_inner();
    let href = base.raw(req.path());
    let body = state
        .run(move |conn| {
            let (_, version) = find_version(conn, &p, &v)?;
            let env = find_environment(conn, &uuid)?;
            let rows = deployments::list_for_version_in(conn, version.id, env.id)?;
            let rows = rows
                .into_iter()
                .map(|r| {
                    let id = r.version_id;
                    (r, id)
                })
                .collect();
            deployed_list(&base, &place(conn, rows, &env)?, href)
        })
        .await?;
    Ok(hal::ok(&body))
}

/// `GET /environments/{uuid}/deployed-versions/currently-deployed`.
pub async fn list_currently_deployed(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<CurrentlyDeployedQuery>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    let query = query.into_inner();
    let href = match req.query_string() {
        "" => base.raw(req.path()),
        q => format!("{}?{q}", base.raw(req.path())),
    };
    let body = state
        .run(move |conn| {
            let env = find_environment(conn, &uuid)?;
            let pacticipant_id = match &query.pacticipant {
                None => None,
                Some(name) => match pacticipants::find_by_name(conn, name)? {
                    Some(p) => Some(p.id),
                    None => return deployed_list(&base, &[], href),
                },
            };
            let instance = query.application_instance.or(query.target);
            let rows = deployments::list_currently_deployed(
                conn,
                env.id,
                pacticipant_id,
                instance.as_deref(),
            )?;
            let rows = rows
                .into_iter()
                .map(|r| {
                    let id = r.version_id;
                    (r, id)
                })
                .collect();
            deployed_list(&base, &place(conn, rows, &env)?, href)
        })
        .await?;
    Ok(hal::ok(&body))
}

fn find_deployed(
    conn: &mut AnyConnection,
    uuid: &str,
) -> Result<Placed<DeployedVersion>, BrokerError> {
    let row = deployments::find_by_uuid(conn, uuid)?
        .ok_or_else(|| BrokerError::not_found(format!("Deployed version with uuid '{uuid}'")))?;
    let env = crate::store::environments::find_by_id(conn, row.environment_id)?
        .ok_or_else(|| missing("environment"))?;
    let version_id = row.version_id;
    let mut placed = place(conn, vec![(row, version_id)], &env)?;
    placed.pop().ok_or_else(|| missing("deployed version"))
}

/// `GET /deployed-versions/{uuid}`.
pub async fn get_deployed_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    let body = state
        .run(move |conn| deployed_json(&base, &find_deployed(conn, &uuid)?))
        .await?;
    Ok(hal::ok(&body))
}

/// `PATCH /deployed-versions/{uuid}` with `{"currentlyDeployed": false}`
/// records the undeployment; `true` is refused (record a deployment instead).
pub async fn patch_deployed_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let patch: DeployedPatch = body::parse(&req, &bytes)?;
    if patch.currently_deployed == Some(true) {
        return Err(BrokerError::Unprocessable {
            detail: "currentlyDeployed can only be set to false; record a new deployment to deploy again".into(),
            errors: vec![FieldError::new("currentlyDeployed", "can only be set to false")],
        });
    }
    let uuid = path.into_inner();
    let body = state
        .transaction(move |conn| {
            let mut placed = find_deployed(conn, &uuid)?;
            if patch.currently_deployed == Some(false) {
                placed.row = deployments::undeploy(conn, placed.row.id)?;
            }
            deployed_json(&base, &placed)
        })
        .await?;
    Ok(hal::ok(&body))
}
