//! Which rung a provider version's replay evidence supports (issue 25),
//! judged from facts the caller gathered. Pure.
//!
//! - CONFORMANCE_VERIFIED: every live consumer contract has, as its latest
//!   replay result by the version, a success recorded on the version's
//!   current declared digests and producer digest, not expired.
//! - SECURITY_VERIFIED: that, with no authorization-layer finding in those
//!   results, and authorization cases in the live contracts.
//! - Otherwise STATIC_VALIDATED (the static check's rung, which replay
//!   does not touch); `failed` says whether a replay failed.

use crate::admission::AdmissionState;

/// The latest replay result by the version of one live contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    pub verification_id: i64,
    pub success: bool,
    /// Its declarations name exactly the version's current digests.
    pub on_declared_digests: bool,
    /// It was recorded before the evidence last started over (a new
    /// declaration, a new producer digest).
    pub before_restart: bool,
    /// Its producer digest is the one being judged.
    pub on_producer_digest: bool,
    /// Its evidence expired (`Some(when)`).
    pub expired: Option<String>,
    /// Reason codes of its findings; of its authorization-layer findings.
    pub codes: Vec<String>,
    pub authorization_codes: Vec<String>,
}

/// One live consumer contract and its latest replay by the version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Live {
    /// `consumer 1.0, 1.1`: who relies on it.
    pub label: String,
    pub replay: Option<Replay>,
}

/// What the evidence supports, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub supports: AdmissionState,
    /// A replay of a live contract failed.
    pub failed: bool,
    pub reason: String,
    /// Why SECURITY_VERIFIED is not supported (empty when it is).
    pub security_gap: String,
}

/// What the contract set lacks for security evidence.
pub const NO_AUTHORIZATION_CASES: &str = "the live contracts contain no authorization case (a negative of kind unauthenticated or cross_tenant, or a probe_as)";

/// Judges the live contracts' replays; `authorization_cases` says whether
/// the live contracts hold any.
pub fn judge(live: &[Live], authorization_cases: bool) -> Verdict {
    let below = |failed, reason: String| Verdict {
        supports: AdmissionState::StaticValidated,
        failed,
        reason,
        security_gap: String::new(),
    };
    if live.is_empty() {
        return below(
            false,
            "no live consumer contract to verify by replay".into(),
        );
    }
    let failed: Vec<String> = live.iter().filter_map(failure).collect();
    if !failed.is_empty() {
        return below(true, format!("replay failed: {}", failed.join("; ")));
    }
    let missing: Vec<String> = live.iter().filter_map(gap).collect();
    if !missing.is_empty() {
        let reason = format!(
            "not every live consumer contract is verified by replay on the declared digests: {}",
            missing.join("; ")
        );
        return below(false, reason);
    }
    let labels: Vec<&str> = live.iter().map(|l| l.label.as_str()).collect();
    let verified = format!(
        "every live consumer contract verified by replay on the declared digests: {}",
        labels.join("; ")
    );
    let security_gap = security_gap(live, authorization_cases);
    if security_gap.is_empty() {
        return Verdict {
            supports: AdmissionState::SecurityVerified,
            failed: false,
            reason: format!("{verified}; with authorization cases and no authorization finding"),
            security_gap,
        };
    }
    Verdict {
        supports: AdmissionState::ConformanceVerified,
        failed: false,
        reason: format!("{verified}; not SECURITY_VERIFIED: {security_gap}"),
        security_gap,
    }
}

/// `label (verification N): CODES` for a failed replay.
fn failure(l: &Live) -> Option<String> {
    let r = l.replay.as_ref().filter(|r| !r.success)?;
    let codes = if r.codes.is_empty() {
        "no reason code".to_owned()
    } else {
        r.codes.join(", ")
    };
    Some(format!(
        "{} (verification {}): {codes}",
        l.label, r.verification_id
    ))
}

/// Why a passing (or absent) replay is not evidence.
fn gap(l: &Live) -> Option<String> {
    let why = match &l.replay {
        None => "no replay result".to_owned(),
        Some(r) if !r.on_declared_digests => format!(
            "verification {} is on other digests than the declared ones",
            r.verification_id
        ),
        Some(r) if r.before_restart => format!(
            "verification {} predates the current declarations or producer digest",
            r.verification_id
        ),
        Some(r) if !r.on_producer_digest => format!(
            "verification {} is on another producer digest",
            r.verification_id
        ),
        Some(r) => match &r.expired {
            Some(at) => format!(
                "the evidence of verification {} expired at {at}",
                r.verification_id
            ),
            None => return None,
        },
    };
    Some(format!("{} ({why})", l.label))
}

fn security_gap(live: &[Live], authorization_cases: bool) -> String {
    let findings: Vec<String> = live
        .iter()
        .filter_map(|l| l.replay.as_ref())
        .filter(|r| !r.authorization_codes.is_empty())
        .map(|r| {
            format!(
                "verification {}: {}",
                r.verification_id,
                r.authorization_codes.join(", ")
            )
        })
        .collect();
    if !findings.is_empty() {
        format!("authorization-layer findings ({})", findings.join("; "))
    } else if !authorization_cases {
        NO_AUTHORIZATION_CASES.to_owned()
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passed(id: i64) -> Replay {
        Replay {
            verification_id: id,
            success: true,
            on_declared_digests: true,
            before_restart: false,
            on_producer_digest: true,
            expired: None,
            codes: Vec::new(),
            authorization_codes: Vec::new(),
        }
    }

    fn live(label: &str, replay: Option<Replay>) -> Live {
        Live {
            label: label.into(),
            replay,
        }
    }

    #[test]
    fn every_live_contract_verified_with_authorization_cases_is_security() {
        let v = judge(&[live("a 1.0", Some(passed(1)))], true);
        assert_eq!(v.supports, AdmissionState::SecurityVerified);
        assert!(v.security_gap.is_empty());
    }

    #[test]
    fn without_authorization_cases_it_stays_conformance_and_says_why() {
        let v = judge(&[live("a 1.0", Some(passed(1)))], false);
        assert_eq!(v.supports, AdmissionState::ConformanceVerified);
        assert!(v.reason.contains(NO_AUTHORIZATION_CASES), "{}", v.reason);
    }

    #[test]
    fn an_authorization_finding_keeps_it_at_conformance() {
        let mut r = passed(4);
        r.authorization_codes = vec!["CROSS_TENANT_ACCESS".into()];
        let v = judge(&[live("a 1.0", Some(r))], true);
        assert_eq!(v.supports, AdmissionState::ConformanceVerified);
        assert!(v.reason.contains("CROSS_TENANT_ACCESS"), "{}", v.reason);
    }

    #[test]
    fn a_missing_stale_or_expired_replay_is_no_evidence() {
        let mut other = passed(2);
        other.on_declared_digests = false;
        let mut producer = passed(3);
        producer.on_producer_digest = false;
        let mut expired = passed(5);
        expired.expired = Some("2026-12-01T00:00:00Z".into());
        let mut old = passed(6);
        old.before_restart = true;
        for replay in [None, Some(other), Some(producer), Some(expired), Some(old)] {
            let v = judge(
                &[live("a 1.0", Some(passed(1))), live("b 2.0", replay)],
                true,
            );
            assert_eq!(v.supports, AdmissionState::StaticValidated, "{}", v.reason);
            assert!(!v.failed);
            assert!(v.reason.contains("b 2.0"), "{}", v.reason);
        }
    }

    #[test]
    fn a_failed_replay_names_the_consumer_and_codes() {
        let mut r = passed(7);
        r.success = false;
        r.codes = vec!["SCHEMA_MISMATCH".into()];
        let v = judge(
            &[live("a 1.0", Some(passed(1))), live("b 2.0", Some(r))],
            true,
        );
        assert_eq!(v.supports, AdmissionState::StaticValidated);
        assert!(v.failed);
        assert!(
            v.reason.contains("b 2.0 (verification 7): SCHEMA_MISMATCH"),
            "{}",
            v.reason
        );
    }

    #[test]
    fn no_live_contract_is_no_replay_evidence() {
        assert_eq!(judge(&[], true).supports, AdmissionState::StaticValidated);
    }
}
