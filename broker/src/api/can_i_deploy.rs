//! `GET /can-i-deploy?pacticipant=&version=&environment=|to=&ignore[]=`:
//! one version against an environment (every live version counts, `cvpv`)
//! or against the latest version with a tag (`cvp`); no row limit.
//! `requireAdmission=STATE` (an Accord extension) also answers no when the
//! version's admission state is below STATE on the ladder (or off it);
//! `requireCoverage=true` also answers no while the version's coverage
//! report has gaps (`coverage::gate`).

use actix_web::{HttpRequest, HttpResponse, web};

use crate::api::matrix::outcome_body;
use crate::api::promotions;
use crate::coverage::gate;
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
    let rack = RackQuery::parse(&raw);
    let query = MatrixQuery::from_can_i_deploy(&rack)?;
    let required = promotions::parse_required(rack.scalar("requireAdmission"))?;
    let coverage = gate::parse_required(rack.scalar("requireCoverage"))?;
    let (pacticipant, version) = (
        rack.scalar("pacticipant")
            .unwrap_or_default()
            .trim()
            .to_owned(),
        rack.scalar("version").unwrap_or_default().trim().to_owned(),
    );
    let outcome = state
        .run(move |conn| {
            let mut outcome = matrix::run(conn, &query, Fields::FLAT)?;
            if let Some(required) = required {
                let summary = &mut outcome.summary;
                promotions::require_admission(conn, &pacticipant, &version, required, summary)?;
            }
            if coverage {
                gate::require_coverage(conn, &pacticipant, &version, &mut outcome.summary)?;
            }
            Ok(outcome)
        })
        .await?;
    Ok(hal::ok_bytes(outcome_body(
        &base,
        &outcome,
        &format!("/can-i-deploy?{raw}"),
    )))
}
