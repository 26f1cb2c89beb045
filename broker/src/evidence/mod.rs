//! Evidence-driven admission after replay (issue 25). When a verifier
//! publishes a result for provider version V, V's evidence is judged again
//! in the same transaction ([`on_replay`]):
//!
//! - a result on another producer digest than V's evidence record starts
//!   the evidence over from DRAFT (the static check then runs again on the
//!   current declarations);
//! - STATIC_VALIDATED → CONFORMANCE_VERIFIED → SECURITY_VERIFIED, one rung
//!   at a time, as far as [`judge::judge`] says the evidence supports;
//! - a version at CONFORMANCE_VERIFIED or above whose evidence no longer
//!   supports it (above REGISTRY_ADMITTED: only a failed replay) goes down
//!   to the rung it does support, with the failing consumers and codes.
//!
//! The evidence record of a version at CONFORMANCE_VERIFIED or above is
//! kept beside its state; [`sweep`] drops the state of expired evidence.

pub mod facts;
pub mod judge;
pub mod sweep;
pub mod view;

use serde_json::json;

use crate::admission::{AdmissionState, Cause};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::admission;
use crate::store::evidence::{self, Record, ResultEvidence};
use facts::Facts;
use judge::Verdict;

/// Stores the evidence of replay result `ev.verification_id` by version
/// `version_id` of provider `provider_id`, and moves the version as its
/// evidence now supports.
pub fn on_replay(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
    ev: &ResultEvidence,
) -> Result<(), BrokerError> {
    evidence::insert_result(conn, ev)?;
    if admission::current(conn, version_id)?
        .rung()
        .is_none_or(|r| r < 1)
    {
        return Ok(()); // DRAFT (the static check comes first) or off the ladder
    }
    // judged under the version's row lock: two results published at once
    // (two consumers' CI jobs) are judged one after the other, the second
    // seeing the first, so neither misses the other's evidence
    crate::store::versions::lock(conn, version_id)?;
    if admission::current(conn, version_id)?
        .rung()
        .is_none_or(|r| r < 1)
    {
        return Ok(());
    }
    let producer = ev.producer_digest.as_deref();
    if let Some(record) = evidence::find(conn, version_id)?
        && record.producer_digest.as_deref() != producer
    {
        start_over(conn, provider_id, version_id, ev, record.producer_digest)?;
        if admission::current(conn, version_id)? != AdmissionState::StaticValidated {
            return Ok(());
        }
    }
    let facts = facts::gather(conn, provider_id, version_id, producer)?;
    let verdict = judge::judge(&facts.live, facts.authorization_cases);
    let cause = Cause::Verification(ev.verification_id);
    apply(conn, version_id, &verdict, &cause)?;
    let now_at = admission::current(conn, version_id)?;
    let supported = verdict.supports.rung().unwrap_or(0) >= 2;
    if supported && now_at.rung().is_some_and(|r| r >= 2) {
        evidence::put(conn, &record(version_id, &facts, &verdict, ev)?)?;
    } else if now_at.rung().is_some_and(|r| r < 2) {
        evidence::delete(conn, version_id)?;
    }
    Ok(())
}

/// A new producer digest: the version goes back to DRAFT and its record
/// goes; the static check of its current declarations runs again.
fn start_over(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
    ev: &ResultEvidence,
    was: Option<String>,
) -> Result<(), BrokerError> {
    let name = |d: Option<&str>| d.unwrap_or("none").to_owned();
    let reason = format!(
        "a new producer artifact digest ({}, the evidence was on {}): the evidence starts over",
        name(ev.producer_digest.as_deref()),
        name(was.as_deref())
    );
    let cause = Cause::Verification(ev.verification_id);
    admission::transition(conn, version_id, AdmissionState::Draft, &cause, &reason)?;
    evidence::delete(conn, version_id)?;
    crate::api::declared::cross_check::run(conn, provider_id, version_id, "")?;
    Ok(())
}

/// Moves the version to the rung `verdict` supports: up one rung at a time
/// from STATIC_VALIDATED or CONFORMANCE_VERIFIED; down from
/// CONFORMANCE_VERIFIED or SECURITY_VERIFIED; down from a promoted state
/// only after a failed replay.
fn apply(
    conn: &mut AnyConnection,
    version_id: i64,
    verdict: &Verdict,
    cause: &Cause,
) -> Result<(), BrokerError> {
    let current = admission::current(conn, version_id)?;
    let (Some(from), Some(to)) = (current.rung(), verdict.supports.rung()) else {
        return Ok(());
    };
    let down = to < from && (from <= 3 || verdict.failed);
    if down {
        admission::transition(conn, version_id, verdict.supports, cause, &verdict.reason)?;
        return Ok(());
    }
    if from > 3 {
        return Ok(());
    }
    for state in [
        AdmissionState::ConformanceVerified,
        AdmissionState::SecurityVerified,
    ] {
        let rung = state.rung().unwrap_or(0);
        if rung > from && rung <= to {
            admission::transition(conn, version_id, state, cause, &verdict.reason)?;
        }
    }
    Ok(())
}

/// The evidence record the judged facts make.
fn record(
    version_id: i64,
    facts: &Facts,
    verdict: &Verdict,
    ev: &ResultEvidence,
) -> Result<Record, BrokerError> {
    let mut profiles = std::collections::BTreeSet::new();
    for (_, e) in &facts.results {
        let listed: Vec<String> = serde_json::from_str(&e.profiles).unwrap_or_default();
        profiles.extend(listed);
    }
    let verified_at = facts.results.iter().map(|(r, _)| r.execution_date).max();
    let expires_at = facts.results.iter().map(|(_, e)| e.expires_at).min();
    let (Some(verified_at), Some(expires_at)) = (verified_at, expires_at) else {
        return Err(BrokerError::Store(crate::store::StoreError::MissingRow {
            what: "replay result of the evidence",
            id: version_id,
        }));
    };
    let ids: Vec<i64> = facts.results.iter().map(|(r, _)| r.id).collect();
    Ok(Record {
        version_id,
        card_digest: facts.digests.card.clone(),
        tools_digests: json!(facts.digests.tools).to_string(),
        contract_digests: json!(facts.contracts).to_string(),
        producer_digest: ev.producer_digest.clone(),
        profiles: json!(profiles).to_string(),
        harness_version: ev.harness_version.clone(),
        verification_ids: json!(ids).to_string(),
        security: verdict.security_gap.is_empty(),
        security_reason: verdict.security_gap.clone(),
        verified_at,
        expires_at,
        swept_at: None,
    })
}
