//! `GET /can-i-deploy?pacticipant=&version=&environment=|to=&ignore[]=`:
//! one version against an environment (every live version counts, `cvpv`)
//! or against the latest version with a tag (`cvp`); no row limit.

use actix_web::{HttpRequest, HttpResponse, web};

use crate::api::matrix::outcome_json;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl};
use crate::matrix::query::RackQuery;
use crate::matrix::resolve::Fields;
use crate::matrix::selector::MatrixQuery;
use crate::matrix::{self};
use crate::state::AppState;

/// `GET /can-i-deploy`.
pub async fn get_can_i_deploy(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
) -> Result<HttpResponse, BrokerError> {
    let raw = req.query_string().to_owned();
    let query = MatrixQuery::from_can_i_deploy(&RackQuery::parse(&raw))?;
    let outcome = state
        .run(move |conn| matrix::run(conn, &query, Fields::FLAT))
        .await?;
    Ok(hal::ok(&outcome_json(
        &base,
        &outcome,
        &format!("/can-i-deploy?{raw}"),
    )))
}
