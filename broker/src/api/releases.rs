//! Released versions (`pb:record-release`):
//! `POST/GET /pacticipants/{p}/versions/{v}/released-versions/environment/{uuid}`,
//! `GET /environments/{uuid}/released-versions/currently-supported`
//! (`?pacticipant=&version=`) and `GET/PATCH /released-versions/{uuid}`
//! (`{"currentlySupported": false}` ends support).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::environments::find_environment;
use crate::api::placed::{self, Placed, embedded_context, list_json, place, place_one};
use crate::api::reply::{created_or_ok, self_href_with_query};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl};
use crate::state::AppState;
use crate::store::releases::{self, ReleasedVersion};
use crate::store::{pacticipants, versions};

/// The filters of the currently-supported list.
#[derive(Debug, Deserialize)]
pub struct CurrentlySupportedQuery {
    pub pacticipant: Option<String>,
    pub version: Option<String>,
}

/// The body of PATCH.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleasedPatch {
    pub currently_supported: Option<bool>,
}

/// The body of record-release (`{}`; nothing in it is needed).
#[derive(Debug, Deserialize)]
pub struct ReleaseRequest {}

/// The released-version resource.
pub fn released_json(base: &BaseUrl, r: &Placed<ReleasedVersion>) -> Result<Value, BrokerError> {
    let row = &r.row;
    Ok(json!({
        "uuid": row.uuid,
        "currentlySupported": row.currently_supported(),
        "createdAt": crate::api::time(row.created_at),
        "supportEndedAt": row.support_ended_at.map(crate::api::time),
        "_embedded": embedded_context(base, r)?,
        "_links": placed::record_links(base, r).into_value(),
    }))
}

/// `POST …/versions/{v}/released-versions/environment/{uuid}`: 201 with the
/// new release, 200 with the existing one (support resumed if it had ended).
pub async fn record_release(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let _: ReleaseRequest = body::parse(&req, &bytes)?;
    let (p, v, uuid) = path.into_inner();
    let (body, created) = state
        .transaction(move |conn| {
            let (version, env) = placed::find_version_and_environment(conn, &p, &v, &uuid)?;
            let (row, created) = releases::record(conn, &version, env.id)?;
            if created {
                crate::webhooks::events::placed(conn, "release_recorded", &version, &env.name)?;
            }
            Ok((released_json(&base, &place_one(conn, row, &env)?)?, created))
        })
        .await?;
    Ok(created_or_ok(&body, created))
}

/// `GET …/versions/{v}/released-versions/environment/{uuid}`.
pub async fn list_version_releases(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v, uuid) = path.into_inner();
    let href = base.raw(req.path());
    let body = state
        .run(move |conn| {
            let (version, env) = placed::find_version_and_environment(conn, &p, &v, &uuid)?;
            let rows: Vec<ReleasedVersion> =
                releases::find_for_version_in(conn, version.id, env.id)?
                    .into_iter()
                    .collect();
            list_json(&base, &place(conn, rows, &env)?, href)
        })
        .await?;
    Ok(hal::ok(&body))
}

/// `GET /environments/{uuid}/released-versions/currently-supported`.
pub async fn list_currently_supported(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<CurrentlySupportedQuery>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    let query = query.into_inner();
    let href = self_href_with_query(&base, &req);
    let body = state
        .run(move |conn| {
            let env = find_environment(conn, &uuid)?;
            let Some((pacticipant_id, version_id)) = filters(conn, &query)? else {
                return list_json::<ReleasedVersion>(&base, &[], href);
            };
            let rows =
                releases::list_currently_supported(conn, env.id, pacticipant_id, version_id)?;
            list_json(&base, &place(conn, rows, &env)?, href)
        })
        .await?;
    Ok(hal::ok(&body))
}

/// The ids the query filters on; `None` when a named pacticipant or version
/// does not exist (so nothing matches).
#[allow(clippy::type_complexity)]
fn filters(
    conn: &mut AnyConnection,
    query: &CurrentlySupportedQuery,
) -> Result<Option<(Option<i64>, Option<i64>)>, BrokerError> {
    let Some(name) = &query.pacticipant else {
        return Ok(Some((None, None)));
    };
    let Some(p) = pacticipants::find_by_name(conn, name)? else {
        return Ok(None);
    };
    let Some(number) = &query.version else {
        return Ok(Some((Some(p.id), None)));
    };
    Ok(versions::find_by_number(conn, p.id, number)?.map(|v| (Some(p.id), Some(v.id))))
}

/// `GET /released-versions/{uuid}`.
pub async fn get_released_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    placed::get::<ReleasedVersion>(state, base, path.into_inner()).await
}

/// `PATCH /released-versions/{uuid}` with `{"currentlySupported": false}`
/// ends support; `true` is refused (record the release again instead).
pub async fn patch_released_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let patch: ReleasedPatch = body::parse(&req, &bytes)?;
    placed::patch::<ReleasedVersion>(state, base, path.into_inner(), patch.currently_supported)
        .await
}
