//! The drift and admission part of the provider version page: the
//! admission state and why, the ladder with the report behind each step,
//! the actions taken, and the live consumer contracts that rely on what
//! the latest report saw differ — each judged by its own expectations when
//! the broker holds the observed content ("breaks …: BREAKING_ENUM_REMOVAL
//! at …", "unaffected: …"), else worded as what it is ("relies on the
//! card, must re-verify").

use crate::api::admission::AdmissionView;
use crate::api::drift_ladder::DriftView;
use crate::db::AnyConnection;
use crate::drift::assess;
use crate::error::BrokerError;
use crate::store::{deployments, environments};

/// One step of the ladder.
#[derive(Debug, Clone)]
pub struct LadderStep {
    pub name: &'static str,
    /// The API link of the report that first reached it.
    pub report_href: Option<String>,
    pub report_id: Option<i64>,
}

/// A consumer contract that relies on what differs.
#[derive(Debug, Clone)]
pub struct Relying {
    pub consumer: String,
    pub versions: String,
    /// `breaks`, `unaffected` or `mustReverify`.
    pub verdict: &'static str,
    pub note: String,
}

/// The section.
#[derive(Debug, Clone)]
pub struct DriftSection {
    pub state: String,
    pub reason: String,
    /// The admission evidence record, as label/value lines (empty: none).
    pub evidence: Vec<(String, String)>,
    pub reports: i64,
    pub ladder: Vec<LadderStep>,
    /// "report 12 · production · unknown_error_codes: 5 at or over …".
    pub actions: Vec<String>,
    pub relying: Vec<Relying>,
    /// "production: canary stopped by drift report 3" per stopped live
    /// deployment.
    pub canary_stops: Vec<String>,
}

/// Loads the section for provider version `version_id`.
pub fn load(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
) -> Result<DriftSection, BrokerError> {
    let admission = AdmissionView::load(conn, version_id)?;
    let view = DriftView::load(conn, version_id)?;
    let ladder = view
        .ladder()
        .into_iter()
        .map(|(name, by)| LadderStep {
            name,
            report_href: by.map(|id| format!("/drift-reports/{id}")),
            report_id: by,
        })
        .collect();
    let actions = view
        .actions
        .iter()
        .map(|(a, env)| format!("report {} · {env} · {}", a.report_id, a.reason))
        .collect();
    let evidence = match &admission.evidence {
        Some(r) => crate::evidence::view::lines(r, crate::store::now())?,
        None => Vec::new(),
    };
    Ok(DriftSection {
        evidence,
        state: admission.state.as_str().to_owned(),
        reason: admission.reason,
        reports: view.report_count,
        ladder,
        actions,
        relying: relying(conn, provider_id, version_id)?,
        canary_stops: canary_stops(conn, version_id)?,
    })
}

/// The version's live deployments a drift report stopped.
fn canary_stops(conn: &mut AnyConnection, version_id: i64) -> Result<Vec<String>, BrokerError> {
    let mut out = Vec::new();
    for (env_id, report) in deployments::canary_stops(conn, version_id)? {
        let env =
            environments::find_by_id(conn, env_id)?.map_or_else(|| env_id.to_string(), |e| e.name);
        out.push(format!("{env}: canary stopped by drift report {report}"));
    }
    Ok(out)
}

/// The consumers relying on what the latest report saw differ, each with
/// what it does to them.
fn relying(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
) -> Result<Vec<Relying>, BrokerError> {
    let affected = assess::latest_affected(conn, provider_id, version_id)?;
    Ok(affected
        .into_iter()
        .map(|a| Relying {
            note: a.note(),
            verdict: a.verdict.as_str(),
            consumer: a.consumer,
            versions: a.versions.join(", "),
        })
        .collect())
}
