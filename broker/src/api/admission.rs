//! `GET /pacticipants/{p}/versions/{v}/admission`: a provider version's
//! admission state, the reason it is in it, and every transition with its
//! cause (a drift report, a verification, a token, the broker); its
//! evidence record, and apart from it the version's evaluation results
//! (`evaluations`), which never change the state.

use actix_web::{HttpResponse, web};
use serde_json::{Map, Value, json};

use crate::admission::AdmissionState;
use crate::api::evaluations::{APART, LISTED, evaluation_json};
use crate::api::version_view::{find_version, version_url};
use crate::db::AnyConnection;
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::admission::{self, Transition, TransitionError};
use crate::store::admission_holds::{self, Hold};
use crate::store::evaluations::{self, Evaluation};

/// What a version with no recorded transition is in, and why.
pub const DRAFT_REASON: &str = "no admission evidence has been recorded for this version";

/// A refused move is a 409 naming `state`; the store's own errors map as usual.
impl From<TransitionError> for BrokerError {
    fn from(e: TransitionError) -> Self {
        match e {
            TransitionError::Refused(refused) => BrokerError::Conflict {
                detail: refused.to_string(),
                errors: vec![FieldError::new("state", refused.why)],
                extra: Map::new(),
            },
            TransitionError::Store(e) => e.into(),
        }
    }
}

/// The admission of one version, as the API and the pages show it.
#[derive(Debug, Clone)]
pub struct AdmissionView {
    pub state: AdmissionState,
    pub reason: String,
    pub transitions: Vec<Transition>,
    /// Deployments into stage environments that did not move it.
    pub holds: Vec<(Hold, String)>,
    /// The evidence record (CONFORMANCE_VERIFIED or above, or expired).
    pub evidence: Option<crate::store::evidence::Record>,
    /// The newest evaluation results (shown apart; never read to move
    /// the state) and how many there are.
    pub evaluations: Vec<Evaluation>,
    pub evaluations_total: i64,
}

impl AdmissionView {
    /// Loads the version's transitions; its state is the last one's target.
    pub fn load(conn: &mut AnyConnection, version_id: i64) -> Result<Self, BrokerError> {
        let transitions = admission::list_for_version(conn, version_id)?;
        let (state, reason) = match transitions.last() {
            Some(last) => (last.to()?, last.reason.clone()),
            None => (AdmissionState::Draft, DRAFT_REASON.to_owned()),
        };
        let evidence = crate::store::evidence::find(conn, version_id)?;
        let (evaluations, evaluations_total) =
            evaluations::list_for_version(conn, version_id, LISTED)?;
        Ok(AdmissionView {
            evaluations,
            evaluations_total,
            state,
            reason,
            transitions,
            holds: admission_holds::list_for_version(conn, version_id)?,
            evidence,
        })
    }
}

/// One transition on the wire: from, to, when, cause, reason.
pub fn transition_json(t: &Transition) -> Value {
    let mut cause = Map::new();
    cause.insert("kind".into(), json!(t.cause_kind));
    if !t.cause.is_empty() {
        let key = match t.cause_kind.as_str() {
            "token" => "name",
            "deployment" => "uuid",
            _ => "id",
        };
        let value = t
            .cause
            .parse::<i64>()
            .map_or_else(|_| json!(t.cause), |id| json!(id));
        cause.insert(key.into(), value);
    }
    json!({
        "from": t.from_state,
        "to": t.to_state,
        "at": crate::api::time(t.created_at),
        "cause": cause,
        "reason": t.reason,
    })
}

/// A deployment that did not move the admission, on the wire.
fn hold_json(base: &BaseUrl, (h, uuid): &(Hold, String)) -> Value {
    json!({
        "environment": h.environment_name,
        "stage": h.stage,
        "state": h.state,
        "at": crate::api::time(h.created_at),
        "deployedVersion": base.url(&["deployed-versions", uuid]),
        "reason": h.reason,
    })
}

/// The admission resource.
pub fn admission_json(
    base: &BaseUrl,
    p: &str,
    v: &str,
    view: &AdmissionView,
) -> Result<Value, BrokerError> {
    let links = Links::new()
        .add(
            "self",
            Link::new(version_url(base, p, v, &["admission"])).title("Admission"),
        )
        .add(
            "pb:version",
            Link::new(version_url(base, p, v, &[]))
                .title("Version")
                .name(v),
        );
    let now = crate::store::now();
    let evidence = match &view.evidence {
        Some(r) => crate::evidence::view::json(r, now)?,
        None => Value::Null,
    };
    Ok(json!({
        "pacticipant": p,
        "version": v,
        "state": view.state.as_str(),
        "reason": view.reason,
        "since": view.transitions.last().map(|t| crate::api::time(t.created_at)),
        "evidence": evidence,
        "transitions": view.transitions.iter().map(transition_json).collect::<Vec<_>>(),
        "deploymentsNotMoved": view.holds.iter().map(|h| hold_json(base, h)).collect::<Vec<_>>(),
        "evaluations": view.evaluations.iter().map(evaluation_json).collect::<Vec<_>>(),
        "evaluationsTotal": view.evaluations_total,
        "evaluationsNote": APART,
        "_links": links.into_value(),
    }))
}

/// `GET /pacticipants/{p}/versions/{v}/admission`.
pub async fn get_admission(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v) = path.into_inner();
    let body = state
        .run(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            let view = AdmissionView::load(conn, v.id)?;
            admission_json(&base, &p.name, &v.number, &view)
        })
        .await?;
    Ok(hal::ok(&body))
}
