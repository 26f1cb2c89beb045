use super::AdmissionState::*;
use super::*;

#[test]
fn every_state_reads_back_from_its_wire_name() {
    for s in STATES {
        assert_eq!(AdmissionState::parse(s.as_str()), Some(s));
    }
    assert_eq!(AdmissionState::parse("draft"), None);
    assert_eq!(AdmissionState::parse("ADMITTED"), None);
}

#[test]
fn the_ladder_is_climbed_one_state_at_a_time() {
    assert!(check(Draft, StaticValidated).is_ok());
    assert!(check(StaticValidated, ConformanceVerified).is_ok());
    assert!(check(SecurityVerified, RegistryAdmitted).is_ok());
    assert!(check(RegistryAdmitted, Canary).is_ok());
    assert!(check(Canary, Active).is_ok());
    assert!(
        check(RegistryAdmitted, Active).is_ok(),
        "canary is optional"
    );
    let skipped = check(Draft, RegistryAdmitted).expect_err("skips the evidence");
    assert_eq!(skipped.why, "the ladder is climbed one state at a time");
    assert!(check(StaticValidated, SecurityVerified).is_err());
}

#[test]
fn expired_evidence_or_a_new_digest_drops_a_version_down_the_ladder() {
    assert!(check(Active, Draft).is_ok());
    assert!(check(SecurityVerified, StaticValidated).is_ok());
}

#[test]
fn any_version_but_a_deprecated_one_can_be_quarantined() {
    for s in STATES {
        let allowed = check(s, Quarantined).is_ok();
        assert_eq!(allowed, !matches!(s, Quarantined | Deprecated), "{s}");
    }
}

#[test]
fn a_cleared_quarantine_returns_to_the_ladder_only() {
    assert!(check(Quarantined, Active).is_ok());
    assert!(check(Quarantined, Draft).is_ok());
    assert!(check(Quarantined, Deprecated).is_ok());
    assert!(check(Quarantined, Rejected).is_err());
}

#[test]
fn only_unadmitted_versions_are_rejected_and_they_start_over_from_draft() {
    assert!(check(ConformanceVerified, Rejected).is_ok());
    assert!(check(Active, Rejected).is_err());
    assert!(check(Rejected, Draft).is_ok());
    assert!(check(Rejected, StaticValidated).is_err());
}

#[test]
fn deprecated_is_final_and_no_state_moves_to_itself() {
    for s in STATES {
        assert!(check(Deprecated, s).is_err(), "{s}");
        assert!(check(s, s).is_err(), "{s}");
    }
}

#[test]
fn registries_admit_only_the_top_three_rungs() {
    let admitted: Vec<_> = STATES.into_iter().filter(|s| s.is_admitted()).collect();
    assert_eq!(admitted, [RegistryAdmitted, Canary, Active]);
}

#[test]
fn a_cause_is_stored_as_a_kind_and_a_reference() {
    assert_eq!(Cause::DriftReport(7).kind(), "driftReport");
    assert_eq!(Cause::DriftReport(7).reference(), "7");
    assert_eq!(Cause::Token("ci".into()).reference(), "ci");
    assert_eq!(Cause::Broker.reference(), "");
}
