//! `GET /pacticipants/{p}/versions/{v}/drift`: a provider version's drift
//! ladder — Observe → Warn → Stop Canary → Disable Route → Quarantine —
//! each step with the report that first reached it, every action with its
//! report, the admission state, and the live consumers the latest report's
//! change breaks, leaves unaffected or must have re-verified.

use actix_web::{HttpResponse, web};
use serde_json::{Value, json};

use crate::api::admission::AdmissionView;
use crate::api::version_view::{find_version, version_url};
use crate::db::AnyConnection;
use crate::drift::assess;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::drift_actions::{self, DriftAction};
use crate::store::drift_reports;
use crate::store::environments;

/// The ladder's steps: (name, the action that reaches it; none for Observe).
pub const LADDER: [(&str, Option<&str>); 5] = [
    ("observe", None),
    ("warn", Some("warn")),
    ("canary_stop", Some("canary_stop")),
    ("route_disable", Some("route_disable")),
    ("quarantine", Some("quarantine")),
];

/// A version's drift history, as the API and the page show it.
#[derive(Debug, Clone)]
pub struct DriftView {
    /// The first report's id, if any (Observe).
    pub first_report: Option<i64>,
    pub report_count: i64,
    /// Every action, oldest first, with its environment's name.
    pub actions: Vec<(DriftAction, String)>,
}

impl DriftView {
    /// Loads the version's reports and actions.
    pub fn load(conn: &mut AnyConnection, version_id: i64) -> Result<Self, BrokerError> {
        let (first_report, report_count) = drift_reports::first_and_count(conn, version_id)?;
        let mut actions = Vec::new();
        for a in drift_actions::list_for_version(conn, version_id)? {
            let env = environments::find_by_id(conn, a.environment_id)?
                .map_or_else(String::new, |e| e.name);
            actions.push((a, env));
        }
        Ok(DriftView {
            first_report,
            report_count,
            actions,
        })
    }

    /// Each step: its name and the report that first reached it.
    pub fn ladder(&self) -> Vec<(&'static str, Option<i64>)> {
        LADDER
            .iter()
            .map(|(name, action)| {
                let by = match action {
                    None => self.first_report,
                    Some(act) => self
                        .actions
                        .iter()
                        .find(|(a, _)| a.action == *act)
                        .map(|(a, _)| a.report_id),
                };
                (*name, by)
            })
            .collect()
    }
}

fn action_json(base: &BaseUrl, a: &DriftAction, env: &str) -> Value {
    json!({
        "report": base.url(&["drift-reports", &a.report_id.to_string()]),
        "reportId": a.report_id,
        "environment": env,
        "signal": a.signal,
        "action": a.action,
        "observed": a.observed,
        "threshold": a.threshold,
        "reason": a.reason,
        "at": crate::api::time(a.created_at),
    })
}

/// `GET /pacticipants/{p}/versions/{v}/drift`.
pub async fn get_drift(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v) = path.into_inner();
    let body = state
        .run(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            let view = DriftView::load(conn, v.id)?;
            let admission = AdmissionView::load(conn, v.id)?;
            let ladder: Vec<Value> = view
                .ladder()
                .into_iter()
                .map(|(step, by)| json!({"step": step, "reached": by.is_some(), "reportId": by}))
                .collect();
            let actions: Vec<Value> = view
                .actions
                .iter()
                .map(|(a, env)| action_json(&base, a, env))
                .collect();
            let consumers: Vec<Value> = assess::latest_affected(conn, p.id, v.id)?
                .iter()
                .map(|c| c.to_json())
                .collect();
            let links = Links::new()
                .add(
                    "self",
                    Link::new(version_url(&base, &p.name, &v.number, &["drift"])).title("Drift"),
                )
                .add(
                    "accord:admission",
                    Link::new(version_url(&base, &p.name, &v.number, &["admission"]))
                        .title("Admission"),
                );
            Ok(json!({
                "pacticipant": p.name,
                "version": v.number,
                "admission": admission.state.as_str(),
                "reports": view.report_count,
                "ladder": ladder,
                "actions": actions,
                "consumers": consumers,
                "_links": links.into_value(),
            }))
        })
        .await?;
    Ok(hal::ok(&body))
}
