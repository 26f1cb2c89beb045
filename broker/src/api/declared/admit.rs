//! The admission moves that follow a static cross-check (issue 25). The
//! check runs when a declaration changes digest, and evidence is never
//! reused across digests: a version above DRAFT goes back to DRAFT (with
//! the failed consumers' codes, or because the digest changed); when every
//! live consumer contract passed (at least one, each wholly judged: what it
//! relies on was declared), DRAFT → STATIC_VALIDATED.
//! QUARANTINED, REJECTED and DEPRECATED versions are left where they are.

use crate::admission::{AdmissionState, Cause};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::admission;

/// Moves version `version_id` after its check; `verdicts` are (consumer
/// label, codes found) for every live consumer contract, `None` for one
/// relying on a card or tools the version did not declare (not judged:
/// no evidence). Answers the state reached, if it moved.
pub fn after_check(
    conn: &mut AnyConnection,
    version_id: i64,
    digest: &str,
    verdicts: &[(String, Option<Vec<&'static str>>)],
) -> Result<Option<&'static str>, BrokerError> {
    let on_ladder = |s: AdmissionState| s.rung().is_some_and(|r| r >= 1);
    let failed: Vec<String> = verdicts
        .iter()
        .filter_map(|(label, codes)| codes.as_ref().map(|c| (label, c)))
        .filter(|(_, codes)| !codes.is_empty())
        .map(|(label, codes)| format!("{label}: {}", codes.join(", ")))
        .collect();
    let all_judged = verdicts.iter().all(|(_, codes)| codes.is_some());
    let mut moved = None;
    if on_ladder(admission::current(conn, version_id)?) {
        let reason = if failed.is_empty() {
            format!("a new declaration ({digest}): the evidence starts over")
        } else {
            format!("static check of the declarations: {}", failed.join("; "))
        };
        move_to(conn, version_id, AdmissionState::Draft, &reason)?;
        crate::store::evidence::delete(conn, version_id)?;
        moved = Some(AdmissionState::Draft.as_str());
    }
    let draft = admission::current(conn, version_id)? == AdmissionState::Draft;
    if failed.is_empty() && all_judged && !verdicts.is_empty() && draft {
        let labels: Vec<&str> = verdicts.iter().map(|(l, _)| l.as_str()).collect();
        let reason = format!(
            "static check of the declarations passed against every live consumer contract: {}",
            labels.join("; ")
        );
        move_to(conn, version_id, AdmissionState::StaticValidated, &reason)?;
        moved = Some(AdmissionState::StaticValidated.as_str());
    }
    Ok(moved)
}

fn move_to(
    conn: &mut AnyConnection,
    version_id: i64,
    to: AdmissionState,
    reason: &str,
) -> Result<(), BrokerError> {
    admission::transition(conn, version_id, to, &Cause::Broker, reason)?;
    Ok(())
}
