//! Promotions (issue 25): `POST /pacticipants/{p}/versions/{v}/admission`
//! with `{"to": STATE, "reason": TEXT, "requireCoverage": BOOL}`; the admission moves that follow a
//! deployment into an environment marked for a stage; and the
//! `requireAdmission` gate of can-i-deploy. The rules are
//! `admission::promote`'s; this is the HTTP and storage around them.

use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::admission::promote::{self, BY_HAND, Stage, StageMove};
use crate::admission::{AdmissionState, Cause};
use crate::api::admission::{AdmissionView, admission_json};
use crate::api::body;
use crate::api::version_view::find_version;
use crate::auth::Caller;
use crate::coverage::gate;
use crate::db::AnyConnection;
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl};
use crate::matrix::decision::Summary;
use crate::names::FreeText;
use crate::state::AppState;
use crate::store::admission_holds::{self, NewHold};
use crate::store::deployments::DeployedVersion;
use crate::store::environments::Environment;
use crate::store::versions::Version;
use crate::store::{admission, pacticipants, versions};

/// The body of a promotion.
#[derive(Debug, Deserialize)]
pub struct PromotionRequest {
    #[serde(default)]
    pub to: Option<String>,
    #[serde(default)]
    pub reason: Option<FreeText>,
    /// Refuse a promotion to an admitted state while the version's
    /// coverage report has gaps (opt-in).
    #[serde(default, rename = "requireCoverage")]
    pub require_coverage: Option<bool>,
}

fn names(states: &[AdmissionState]) -> String {
    states
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The state a promotion asks for: a 400 naming `$.to` when it is missing,
/// unknown, or one that follows from evidence or drift.
fn wanted(to: Option<&str>) -> Result<AdmissionState, BrokerError> {
    let allowed = names(&BY_HAND);
    let name =
        to.ok_or_else(|| BrokerError::bad_field("$.to", format!("is required: one of {allowed}")))?;
    let state = AdmissionState::parse(name)
        .ok_or_else(|| BrokerError::bad_field("$.to", format!("must be one of {allowed}")))?;
    match promote::not_by_hand(state) {
        Some(why) => Err(BrokerError::bad_field(
            "$.to",
            format!("{state} {why}; a promotion names one of {allowed}"),
        )),
        None => Ok(state),
    }
}

fn refused(path: &str, detail: String, from: AdmissionState) -> BrokerError {
    let mut extra = Map::new();
    extra.insert("state".into(), json!(from.as_str()));
    BrokerError::Conflict {
        errors: vec![FieldError::new(path, detail.clone())],
        detail,
        extra,
    }
}

/// `POST /pacticipants/{p}/versions/{v}/admission`: 200 with the admission
/// resource, or 409 saying why (nothing stored). The cause is the caller's
/// token (or Basic account) name; none on an open broker.
pub async fn promote(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: PromotionRequest = body::parse(&req, &bytes)?;
    let to = wanted(request.to.as_deref())?;
    let reason = request
        .reason
        .map(FreeText::into_string)
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| format!("promoted to {to} by hand"));
    let caller = req.extensions().get::<Caller>().map(|c| c.name.clone());
    let cause = Cause::Token(caller.unwrap_or_default());
    let coverage = request.require_coverage.unwrap_or(false);
    let (p, v) = path.into_inner();
    let body = state
        .transaction(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            versions::lock(conn, v.id)?;
            let from = admission::current(conn, v.id)?;
            if let Some(why) = promote::refusal(&v.number, from, to) {
                return Err(refused("$.to", why, from));
            }
            if coverage && let Some(why) = gate::promotion_refusal(conn, &v, to)? {
                return Err(refused("$.requireCoverage", why, from));
            }
            admission::transition(conn, v.id, to, &cause, &reason)?;
            let view = AdmissionView::load(conn, v.id)?;
            admission_json(&base, &p.name, &v.number, &view)
        })
        .await?;
    Ok(hal::ok(&body))
}

/// After recording `deployed` of `version` into `env`: when the environment
/// is marked for a stage, moves the version (REGISTRY_ADMITTED → CANARY,
/// → ACTIVE) or, when it is not admitted, records that it did not move.
/// The `admission` member of the deployment answer; `None` without a stage.
pub fn after_deployment(
    conn: &mut AnyConnection,
    version: &Version,
    env: &Environment,
    deployed: &DeployedVersion,
) -> Result<Option<Value>, BrokerError> {
    let Some(stage) = env.admission_stage.as_deref().and_then(Stage::parse) else {
        return Ok(None);
    };
    versions::lock(conn, version.id)?;
    let from = admission::current(conn, version.id)?;
    let (state, moved, reason) = match promote::on_deployment(stage, from) {
        StageMove::Move(to) => {
            let reason = format!("deployed to {} environment {}", stage.as_str(), env.name);
            let cause = Cause::Deployment(deployed.uuid.clone());
            admission::transition(conn, version.id, to, &cause, &reason)?;
            (to, true, reason)
        }
        StageMove::Past => (
            from,
            false,
            format!(
                "already {from}: a deployment to {} environment {} does not move it",
                stage.as_str(),
                env.name
            ),
        ),
        StageMove::Hold => (
            from,
            false,
            hold(conn, version, env, stage, deployed, from)?,
        ),
    };
    Ok(Some(json!({
        "stage": stage.as_str(),
        "from": from.as_str(),
        "state": state.as_str(),
        "moved": moved,
        "reason": reason,
    })))
}

/// Records that a deployment left an unadmitted version where it was:
/// once per version, environment and reason (the caller holds the
/// version's row lock, so two deployments at once add one row).
fn hold(
    conn: &mut AnyConnection,
    version: &Version,
    env: &Environment,
    stage: Stage,
    deployed: &DeployedVersion,
    from: AdmissionState,
) -> Result<String, BrokerError> {
    let reason = format!(
        "deployed to {} environment {} while {from}: not admitted (REGISTRY_ADMITTED is needed), so the admission does not move; the deployment is recorded",
        stage.as_str(),
        env.name
    );
    if admission_holds::exists(conn, version.id, &env.name, &reason)? {
        return Ok(reason);
    }
    admission_holds::insert(
        conn,
        NewHold {
            version_id: version.id,
            deployed_version_id: deployed.id,
            environment_name: &env.name,
            stage: stage.as_str(),
            state: from.as_str(),
            reason: &reason,
        },
    )?;
    Ok(reason)
}

/// The `requireAdmission` parameter of can-i-deploy: a state on the ladder
/// (DRAFT … ACTIVE), or a 400 naming it.
pub fn parse_required(raw: Option<&str>) -> Result<Option<AdmissionState>, BrokerError> {
    let Some(name) = raw.map(str::trim).filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    let ladder: Vec<AdmissionState> = crate::admission::STATES
        .into_iter()
        .filter(|s| s.rung().is_some())
        .collect();
    match AdmissionState::parse(name) {
        Some(s) if s.rung().is_some() => Ok(Some(s)),
        _ => Err(BrokerError::bad_field(
            "requireAdmission",
            format!(
                "must be a state of the admission ladder: {}",
                names(&ladder)
            ),
        )),
    }
}

/// Answers not deployable, with the reason first, when version `number` of
/// `pacticipant` is below `required` (or off the ladder). An unknown
/// version is left to the matrix, which already says so.
pub fn require_admission(
    conn: &mut AnyConnection,
    pacticipant: &str,
    number: &str,
    required: AdmissionState,
    summary: &mut Summary,
) -> Result<(), BrokerError> {
    let Some(p) = pacticipants::find_by_name(conn, pacticipant)? else {
        return Ok(());
    };
    let Some(v) = versions::find_by_number(conn, p.id, number)? else {
        return Ok(());
    };
    let state = admission::current(conn, v.id)?;
    if let Some(relation) = promote::below(state, required) {
        summary.refuse(format!(
            "admission: {pacticipant} {number} is {state}, {relation} {required}"
        ));
    }
    Ok(())
}
