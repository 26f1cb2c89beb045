//! Evaluation evidence of a provider version (issue 25):
//!
//! - `POST /pacticipants/{p}/versions/{v}/evaluations`: one result — a data
//!   set, the score reached, the threshold, the direction; `pass` computed
//!   (`request.rs`), evaluator and a link optional. Write access; the
//!   version must exist (404 otherwise), nothing is stored on a refusal.
//! - `GET …/evaluations`: the newest results first, with the version's
//!   contract evidence in counts beside them.
//!
//! Contract evidence and evaluation evidence stay apart: the matrix,
//! can-i-deploy and admission never read evaluations, so a passing
//! evaluation never turns a contract failure into a pass. A verification
//! says whether it is a contract pass (`evaluationEligible`).

mod request;

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

pub use request::{EvaluationRequest, passes};

use crate::api::body;
use crate::api::tags::locked;
use crate::api::verifications::eligible::{self, ContractEvidence};
use crate::api::version_view::{find_version, version_url};
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::evaluations::{self as store, Evaluation, NewEvaluation};

/// Most results one answer lists (it says how many there are).
pub const LISTED: i64 = 100;

/// What every answer says about the two kinds of evidence.
pub const APART: &str = "evaluation results are not contract evidence: the matrix, can-i-deploy and admission never read them";

/// One result on the wire.
pub fn evaluation_json(e: &Evaluation) -> Value {
    let mut out = json!({
        "dataset": e.dataset,
        "score": e.score,
        "threshold": e.threshold,
        "higherIsBetter": e.higher_is_better,
        "pass": e.passed,
        "createdAt": crate::api::time(e.created_at),
    });
    if e.evaluator_name.is_some() || e.evaluator_version.is_some() {
        out["evaluator"] = json!({"name": e.evaluator_name, "version": e.evaluator_version});
    }
    if let Some(url) = &e.url {
        out["url"] = json!(url);
    }
    out
}

/// The version's contract evidence in counts (the deciding result per contract).
pub fn contract_json(c: &ContractEvidence) -> Value {
    json!({
        "contracts": c.contracts,
        "evaluationEligible": c.eligible,
        "failed": c.failed,
    })
}

fn links(base: &BaseUrl, p: &str, v: &str) -> Value {
    Links::new()
        .add(
            "self",
            Link::new(version_url(base, p, v, &["evaluations"])).title("Evaluation results"),
        )
        .add(
            "pb:version",
            Link::new(version_url(base, p, v, &[]))
                .title("Version")
                .name(v),
        )
        .into_value()
}

/// `POST /pacticipants/{p}/versions/{v}/evaluations`.
pub async fn publish_evaluation(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: EvaluationRequest = body::parse(&req, &bytes)?;
    // judged before the version is looked up: bad input is a 400 either way
    let new = request.into_row(0)?;
    let (p, v) = path.into_inner();
    let body = state
        .transaction(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            let v = locked(conn, v)?;
            let new = NewEvaluation {
                version_id: v.id,
                ..new
            };
            let row = store::insert(conn, &new)?;
            let mut body = evaluation_json(&row);
            body["note"] = json!(APART);
            body["_links"] = links(&base, &p.name, &v.number);
            Ok(body)
        })
        .await?;
    Ok(hal::created(&body))
}

/// `GET /pacticipants/{p}/versions/{v}/evaluations`.
pub async fn list_evaluations(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v) = path.into_inner();
    let body = state
        .run(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            let (rows, total) = store::list_for_version(conn, v.id, LISTED)?;
            let contract = eligible::for_version(conn, v.id)?;
            Ok(json!({
                "pacticipant": p.name,
                "version": v.number,
                "evaluations": rows.iter().map(evaluation_json).collect::<Vec<_>>(),
                "total": total,
                "contractEvidence": contract_json(&contract),
                "note": APART,
                "_links": links(&base, &p.name, &v.number),
            }))
        })
        .await?;
    Ok(hal::ok(&body))
}
