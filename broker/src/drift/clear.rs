//! Clearing a quarantine: never a flag, only a new successful verification
//! of the quarantined version that declares the digests the quarantining
//! report observed (its card, each profile's tools) — evidence bound to
//! what production serves. A quarantine from counts alone, with no digest
//! observed, is cleared by any new successful verification. The version
//! returns to the state it was quarantined from.

use std::collections::BTreeMap;

use super::verified::Verified;
use crate::admission::{self, AdmissionState, Cause};
use crate::api::declarations::Declaration;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::StoreError;
use crate::store::admission as transitions;
use crate::store::drift_reports;

/// A verification result just stored for a provider version.
#[derive(Debug, Clone, Copy)]
pub struct NewResult<'a> {
    pub id: i64,
    pub version_id: i64,
    pub success: bool,
    pub declarations: Option<&'a str>,
}

fn corrupt(what: &'static str) -> impl FnOnce(serde_json::Error) -> BrokerError {
    move |source| StoreError::CorruptJson { what, source }.into()
}

/// Lifts the version's drift quarantine when `result` verifies what the
/// quarantining report observed; does nothing otherwise.
pub fn on_verification(conn: &mut AnyConnection, result: NewResult<'_>) -> Result<(), BrokerError> {
    if !result.success {
        return Ok(());
    }
    let Some(last) = transitions::last_for_version(conn, result.version_id)? else {
        return Ok(());
    };
    if last.to()? != AdmissionState::Quarantined || last.cause_kind != "driftReport" {
        return Ok(());
    }
    let Some(report) = last
        .cause
        .parse::<i64>()
        .ok()
        .map(|id| drift_reports::find_by_id(conn, id))
        .transpose()?
        .flatten()
    else {
        return Ok(());
    };
    let declared: Vec<Declaration> = match result.declarations {
        Some(text) => serde_json::from_str(text).map_err(corrupt("verification declarations"))?,
        None => Vec::new(),
    };
    let tools: BTreeMap<String, String> = serde_json::from_str(&report.tools_digests)
        .map_err(corrupt("drift report tools digests"))?;
    if !Verified::covers(&declared, report.agent_card_digest.as_deref(), &tools) {
        return Ok(());
    }
    let before = AdmissionState::parse(&last.from_state).unwrap_or(AdmissionState::Draft);
    let back = if admission::check(AdmissionState::Quarantined, before).is_ok() {
        before
    } else {
        AdmissionState::Draft
    };
    let reason = format!(
        "verification {} verified the digests drift report {} observed: quarantine cleared",
        result.id, report.id
    );
    let cause = Cause::Verification(result.id);
    transitions::transition(conn, result.version_id, back, &cause, &reason)?;
    Ok(())
}
