//! The drift and admission part of the provider version page: the
//! admission state and why, the ladder with the report behind each step,
//! the actions taken, and the live consumer contracts that rely on what
//! the latest report saw differ — worded as what it is ("relies on the
//! card, must re-verify"), not as a verdict.

use std::collections::BTreeMap;

use crate::api::admission::AdmissionView;
use crate::api::drift_ladder::DriftView;
use crate::db::AnyConnection;
use crate::drift::assess;
use crate::error::BrokerError;
use crate::store::{StoreError, drift_reports};

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
    pub note: String,
}

/// The section.
#[derive(Debug, Clone)]
pub struct DriftSection {
    pub state: String,
    pub reason: String,
    pub reports: i64,
    pub ladder: Vec<LadderStep>,
    /// "report 12 · production · unknown_error_codes: 5 at or over …".
    pub actions: Vec<String>,
    pub relying: Vec<Relying>,
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
    Ok(DriftSection {
        state: admission.state.as_str().to_owned(),
        reason: admission.reason,
        reports: view.report_count,
        ladder,
        actions,
        relying: relying(conn, provider_id, version_id)?,
    })
}

/// The consumers relying on what the latest report saw differ.
fn relying(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
) -> Result<Vec<Relying>, BrokerError> {
    let Some(latest) = drift_reports::list_for_version(conn, version_id, 1)?.pop() else {
        return Ok(Vec::new());
    };
    let verified = assess::verified(conn, version_id)?;
    let card = verified.card_differs(latest.agent_card_digest.as_deref());
    let tools: BTreeMap<String, String> =
        serde_json::from_str(&latest.tools_digests).map_err(|source| StoreError::CorruptJson {
            what: "drift report tools digests",
            source,
        })?;
    let differ = verified.tools_differ(tools.iter().map(|(p, d)| (p.as_str(), d.as_str())));
    let affected = assess::affected(conn, provider_id, card, !differ.is_empty())?;
    Ok(affected
        .into_iter()
        .map(|a| Relying {
            consumer: a.consumer,
            versions: a.versions.join(", "),
            note: format!(
                "relies on the {}, must re-verify",
                a.relies_on.join(" and ")
            ),
        })
        .collect())
}
