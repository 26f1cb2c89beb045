//! The expiry sweep every `accord serve` runs: a version whose evidence
//! record expired drops from CONFORMANCE_VERIFIED or above back to
//! STATIC_VALIDATED, and the transition says when the evidence expired.
//! Safe with several replicas on one database: each version is handled in
//! its own transaction under its row lock, and re-checked under the lock
//! (a replica that comes second finds it swept, or a fresh record).

use std::sync::Arc;

use crate::admission::{AdmissionState, Cause};
use crate::config::BrokerConfig;
use crate::db::{self, AnyConnection, Pool};
use crate::store::{StoreError, admission, evidence, now, versions};

/// How many expired records one round handles.
const BATCH: i64 = 100;

/// The reason a version whose evidence expired at `at` is given.
pub fn expired_reason(at: chrono::NaiveDateTime) -> String {
    format!(
        "evidence expired at {}: verify the live consumer contracts again",
        crate::api::time(at)
    )
}

/// Starts the sweep on the current actix runtime; it stops with it.
pub fn spawn(pool: Pool, config: Arc<BrokerConfig>) {
    actix_web::rt::spawn(async move {
        loop {
            actix_web::rt::time::sleep(config.evidence_sweep).await;
            let pool = pool.clone();
            let swept = tokio::task::spawn_blocking(move || {
                let mut conn = pool.get().map_err(StoreError::Pool)?;
                run(&mut conn, now())
            })
            .await;
            match swept {
                Ok(Err(e)) => tracing::warn!(error = %e, "evidence sweep failed"),
                Err(e) => tracing::warn!(error = %e, "evidence sweep stopped"),
                Ok(Ok(_)) => {}
            }
        }
    });
}

/// One round: drops every version whose evidence expired by `at`; answers
/// how many moved.
pub fn run(conn: &mut AnyConnection, at: chrono::NaiveDateTime) -> Result<usize, StoreError> {
    let mut moved = 0;
    for version_id in evidence::expired_unswept(conn, at, BATCH)? {
        if db::write_transaction(conn, |conn| sweep_one(conn, version_id, at))? {
            moved += 1;
        }
    }
    Ok(moved)
}

/// Drops one version if, under its lock, its record is still expired and
/// unswept and its state rests on it.
fn sweep_one(
    conn: &mut AnyConnection,
    version_id: i64,
    at: chrono::NaiveDateTime,
) -> Result<bool, StoreError> {
    if versions::lock(conn, version_id)?.is_none() {
        return Ok(false);
    }
    let Some(record) = evidence::find(conn, version_id)? else {
        return Ok(false);
    };
    if record.expires_at > at || record.swept_at.is_some() {
        return Ok(false);
    }
    evidence::mark_swept(conn, version_id, at)?;
    let state = admission::current(conn, version_id)?;
    if state.rung().is_none_or(|r| r < 2) {
        return Ok(false);
    }
    let reason = expired_reason(record.expires_at);
    let to = AdmissionState::StaticValidated;
    match admission::transition(conn, version_id, to, &Cause::Broker, &reason) {
        Ok(_) => Ok(true),
        Err(admission::TransitionError::Store(e)) => Err(e),
        Err(admission::TransitionError::Refused(_)) => Ok(false),
    }
}
