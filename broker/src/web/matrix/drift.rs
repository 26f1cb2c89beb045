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
    /// "2 evaluation results (1 pass, 1 fail)", `None` without any: the
    /// results themselves are listed in the evaluation section.
    pub evaluations: Option<String>,
    /// Deployments into stage environments that did not move the version
    /// (`deploymentsNotMoved`): "at · reason".
    pub holds: Vec<String>,
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
    let holds = admission
        .holds
        .iter()
        .map(|(h, _)| format!("{} · {}", crate::api::time(h.created_at), h.reason))
        .collect();
    Ok(DriftSection {
        evaluations: evaluations_line(&admission),
        holds,
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

/// How many evaluation results the version has and how many pass (of the
/// newest listed), said beside the admission state they never change.
fn evaluations_line(a: &AdmissionView) -> Option<String> {
    if a.evaluations_total == 0 {
        return None;
    }
    let pass = a.evaluations.iter().filter(|e| e.passed).count();
    let fail = a.evaluations.len() - pass;
    let s = if a.evaluations_total == 1 { "" } else { "s" };
    Some(format!(
        "{} evaluation result{s} ({pass} pass, {fail} fail{})",
        a.evaluations_total,
        if a.evaluations_total > a.evaluations.len() as i64 {
            " among the newest listed"
        } else {
            ""
        }
    ))
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
