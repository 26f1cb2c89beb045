//! Deployed versions (`pb:record-deployment`):
//! `POST/GET /pacticipants/{p}/versions/{v}/deployed-versions/environment/{uuid}`,
//! `GET /environments/{uuid}/deployed-versions/currently-deployed`
//! (`?pacticipant=`, `?applicationInstance=`, legacy `?target=`) and
//! `GET/PATCH /deployed-versions/{uuid}` (`{"currentlyDeployed": false}` only).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::environments::find_environment;
use crate::api::placed::{self, Placed, embedded_context, list_json, place, place_one};
use crate::api::promotions;
use crate::api::reply::{created_or_ok, self_href_with_query};
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl};
use crate::names::FreeText;
use crate::state::AppState;
use crate::store::deployments::{self, DeployedVersion};
use crate::store::pacticipants;

/// The body of record-deployment: `{}` or `{"applicationInstance": I, "target": I}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentRequest {
    #[serde(default)]
    pub application_instance: Option<FreeText>,
    /// The old name of `applicationInstance` (Pact clients send both).
    #[serde(default)]
    pub target: Option<FreeText>,
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

/// The deployed-version resource.
pub fn deployed_json(base: &BaseUrl, d: &Placed<DeployedVersion>) -> Result<Value, BrokerError> {
    let row = &d.row;
    let mut body = json!({
        "uuid": row.uuid,
        "currentlyDeployed": row.currently_deployed(),
        "applicationInstance": row.instance(),
        "target": row.instance(),
        "createdAt": crate::api::time(row.created_at),
        "undeployedAt": row.undeployed_at.map(crate::api::time),
        "_embedded": embedded_context(base, d)?,
        "_links": placed::record_links(base, d).into_value(),
    });
    // An Accord extension: a drift report's canary_stop stopped it.
    if let Some(report) = row.canary_stopped_by {
        body["canaryStoppedBy"] = json!({
            "driftReport": report,
            "href": base.url(&["drift-reports", &report.to_string()]),
        });
    }
    Ok(body)
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
        .map(FreeText::into_string)
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
            let (version, env) = placed::find_version_and_environment(conn, &p, &v, &uuid)?;
            let (row, created) = deployments::record(conn, &version, env.id, &instance)?
                .ok_or_else(|| BrokerError::not_found(format!("Environment '{}'", env.name)))?;
            if created {
                crate::webhooks::events::placed(conn, "deployment_recorded", &version, &env.name)?;
            }
            let admission = promotions::after_deployment(conn, &version, &env, &row)?;
            let mut body = deployed_json(&base, &place_one(conn, row, &env)?)?;
            // An Accord extension: what it did to the version's admission
            // (only into an environment marked for an admission stage).
            if let Some(admission) = admission {
                body["admission"] = admission;
            }
            Ok((body, created))
        })
        .await?;
    Ok(created_or_ok(&body, created))
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
            let (version, env) = placed::find_version_and_environment(conn, &p, &v, &uuid)?;
            let rows = deployments::list_for_version_in(conn, version.id, env.id)?;
            list_json(&base, &place(conn, rows, &env)?, href)
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
    let href = self_href_with_query(&base, &req);
    let body = state
        .run(move |conn| {
            let env = find_environment(conn, &uuid)?;
            let pacticipant_id = match &query.pacticipant {
                None => None,
                Some(name) => match pacticipants::find_by_name(conn, name)? {
                    Some(p) => Some(p.id),
                    None => return list_json::<DeployedVersion>(&base, &[], href),
                },
            };
            let instance = query.application_instance.or(query.target);
            let rows = deployments::list_currently_deployed(
                conn,
                env.id,
                pacticipant_id,
                instance.as_deref(),
            )?;
            list_json(&base, &place(conn, rows, &env)?, href)
        })
        .await?;
    Ok(hal::ok(&body))
}

/// `GET /deployed-versions/{uuid}`.
pub async fn get_deployed_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    placed::get::<DeployedVersion>(state, base, path.into_inner()).await
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
    placed::patch::<DeployedVersion>(state, base, path.into_inner(), patch.currently_deployed).await
}
