//! Promotions and admission stages (issue 25), on top of [`super::check`].
//!
//! Pure: which states a person may ask for by hand, why a promotion is
//! refused (in the words the API answers with), and what a deployment into
//! an environment marked for a stage does to a version. The evidence
//! states (STATIC_VALIDATED, CONFORMANCE_VERIFIED, SECURITY_VERIFIED)
//! follow from evidence and QUARANTINED from runtime drift: never by hand,
//! and a quarantine is not lifted by hand either.

use super::AdmissionState::{self, *};

/// The states a promotion (`POST …/admission`) may name.
pub const BY_HAND: [AdmissionState; 5] = [RegistryAdmitted, Canary, Active, Deprecated, Rejected];

/// Why `to` can never be asked for by hand; `None` when it can.
pub fn not_by_hand(to: AdmissionState) -> Option<&'static str> {
    match to {
        Draft => Some(
            "DRAFT is where a version starts; it goes back there when its evidence starts over, not by hand",
        ),
        StaticValidated | ConformanceVerified | SecurityVerified => Some(
            "follows from evidence (the static check, replay, the security checks) and cannot be set by hand",
        ),
        Quarantined => Some("is set by runtime drift and cannot be set by hand"),
        RegistryAdmitted | Canary | Active | Deprecated | Rejected => None,
    }
}

/// The state a version must have reached before it may be promoted to `to`.
fn needs(to: AdmissionState) -> Option<AdmissionState> {
    match to {
        RegistryAdmitted => Some(SecurityVerified),
        Canary | Active => Some(RegistryAdmitted),
        _ => None,
    }
}

/// Why version `number`, now in `from`, cannot be promoted to `to` by hand
/// (`None`: the evidence allows it; [`super::check`] still has its say).
///
/// REGISTRY_ADMITTED needs SECURITY_VERIFIED (or an admitted version coming
/// back down); CANARY and ACTIVE need REGISTRY_ADMITTED or above. A
/// quarantined version may only be deprecated by hand.
pub fn refusal(number: &str, from: AdmissionState, to: AdmissionState) -> Option<String> {
    if from == Quarantined && to != Deprecated {
        return Some(format!(
            "version {number} is QUARANTINED by runtime drift: a quarantine is lifted by a new verification that clears it, not by hand"
        ));
    }
    let needed = needs(to)?;
    let reached = match (from.rung(), needed.rung()) {
        (Some(f), Some(n)) => f >= n,
        _ => false,
    };
    if reached {
        return None;
    }
    let evidence = if to == RegistryAdmitted {
        " evidence"
    } else {
        ""
    };
    Some(format!(
        "{to} needs {needed}{evidence}; version {number} is {from}"
    ))
}

/// An environment's admission stage (`admissionStage` on the environment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Canary,
    Active,
}

impl Stage {
    /// The stage's wire name: `canary`, `active`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Canary => "canary",
            Stage::Active => "active",
        }
    }

    /// The stage called `name`, if any.
    pub fn parse(name: &str) -> Option<Stage> {
        [Stage::Canary, Stage::Active]
            .into_iter()
            .find(|s| s.as_str() == name)
    }

    /// The admission state a deployment into the stage moves a version to.
    pub fn state(self) -> AdmissionState {
        match self {
            Stage::Canary => Canary,
            Stage::Active => Active,
        }
    }
}

/// What recording a deployment into a stage environment does to a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageMove {
    /// The version moves to this state.
    Move(AdmissionState),
    /// The version is already at the stage or past it: nothing happens.
    Past,
    /// The version is not admitted (below REGISTRY_ADMITTED, or off the
    /// ladder): the deployment is recorded, the admission does not move.
    Hold,
}

/// A deployment of a version in `from` into an environment of `stage`:
/// REGISTRY_ADMITTED → CANARY on a canary one; REGISTRY_ADMITTED or CANARY
/// → ACTIVE on an active one.
pub fn on_deployment(stage: Stage, from: AdmissionState) -> StageMove {
    match (stage, from) {
        (Stage::Canary, RegistryAdmitted) => StageMove::Move(Canary),
        (Stage::Canary, Canary | Active) => StageMove::Past,
        (Stage::Active, RegistryAdmitted | Canary) => StageMove::Move(Active),
        (Stage::Active, Active) => StageMove::Past,
        _ => StageMove::Hold,
    }
}

/// Why a version in `state` does not meet `required` (a rung of the
/// ladder): below it, or off the ladder. `None` when it meets it.
pub fn below(state: AdmissionState, required: AdmissionState) -> Option<&'static str> {
    match (state.rung(), required.rung()) {
        (Some(s), Some(r)) if s >= r => None,
        (Some(_), _) => Some("below"),
        (None, _) => Some("off the admission ladder, not at or above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_promotions_deprecation_and_rejection_are_set_by_hand() {
        for s in super::super::STATES {
            assert_eq!(not_by_hand(s).is_none(), BY_HAND.contains(&s), "{s}");
        }
    }

    #[test]
    fn a_promotion_without_the_evidence_says_what_it_needs() {
        assert_eq!(
            refusal("1.2.0", StaticValidated, RegistryAdmitted).as_deref(),
            Some(
                "REGISTRY_ADMITTED needs SECURITY_VERIFIED evidence; version 1.2.0 is STATIC_VALIDATED"
            )
        );
        assert_eq!(
            refusal("1", SecurityVerified, Canary).as_deref(),
            Some("CANARY needs REGISTRY_ADMITTED; version 1 is SECURITY_VERIFIED")
        );
        assert_eq!(refusal("1", SecurityVerified, RegistryAdmitted), None);
        assert_eq!(refusal("1", Canary, Active), None);
        assert_eq!(refusal("1", Active, RegistryAdmitted), None);
        assert!(refusal("1", Rejected, RegistryAdmitted).is_some());
        assert!(refusal("1", Quarantined, Active).is_some_and(|r| r.contains("not by hand")));
        assert_eq!(refusal("1", Quarantined, Deprecated), None);
        assert_eq!(refusal("1", Draft, Deprecated), None);
    }

    #[test]
    fn deployments_move_admitted_versions_only() {
        assert_eq!(
            on_deployment(Stage::Canary, RegistryAdmitted),
            StageMove::Move(Canary)
        );
        assert_eq!(on_deployment(Stage::Canary, Active), StageMove::Past);
        assert_eq!(
            on_deployment(Stage::Active, Canary),
            StageMove::Move(Active)
        );
        assert_eq!(on_deployment(Stage::Active, Active), StageMove::Past);
        for from in [Draft, SecurityVerified, Quarantined, Rejected, Deprecated] {
            assert_eq!(
                on_deployment(Stage::Canary, from),
                StageMove::Hold,
                "{from}"
            );
            assert_eq!(
                on_deployment(Stage::Active, from),
                StageMove::Hold,
                "{from}"
            );
        }
    }

    #[test]
    fn below_a_required_state_or_off_the_ladder() {
        assert_eq!(below(Canary, RegistryAdmitted), None);
        assert_eq!(below(StaticValidated, RegistryAdmitted), Some("below"));
        assert!(below(Quarantined, Draft).is_some());
        assert_eq!(below(Draft, Draft), None);
    }
}
