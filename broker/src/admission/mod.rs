//! Admission: the state of a provider version on its way into (and out of)
//! a registry, and which moves between states are allowed.
//!
//! Pure: no I/O. The store (`store::admission`) records each transition
//! with its cause inside the caller's transaction, after asking
//! [`check`] here. The evidence-driven moves (static check, replay,
//! security) and the promotions are added on top of this table; runtime
//! drift uses it to quarantine a version.

pub mod promote;
#[cfg(test)]
mod tests;

use std::fmt;

/// A provider version's admission state. A version with no recorded
/// transition is [`AdmissionState::Draft`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AdmissionState {
    Draft,
    StaticValidated,
    ConformanceVerified,
    SecurityVerified,
    RegistryAdmitted,
    Canary,
    Active,
    Rejected,
    Quarantined,
    Deprecated,
}

/// Every state, in the order the pages list them.
pub const STATES: [AdmissionState; 10] = [
    AdmissionState::Draft,
    AdmissionState::StaticValidated,
    AdmissionState::ConformanceVerified,
    AdmissionState::SecurityVerified,
    AdmissionState::RegistryAdmitted,
    AdmissionState::Canary,
    AdmissionState::Active,
    AdmissionState::Rejected,
    AdmissionState::Quarantined,
    AdmissionState::Deprecated,
];

impl AdmissionState {
    /// The state's wire name (`REGISTRY_ADMITTED`).
    pub fn as_str(self) -> &'static str {
        use AdmissionState::*;
        match self {
            Draft => "DRAFT",
            StaticValidated => "STATIC_VALIDATED",
            ConformanceVerified => "CONFORMANCE_VERIFIED",
            SecurityVerified => "SECURITY_VERIFIED",
            RegistryAdmitted => "REGISTRY_ADMITTED",
            Canary => "CANARY",
            Active => "ACTIVE",
            Rejected => "REJECTED",
            Quarantined => "QUARANTINED",
            Deprecated => "DEPRECATED",
        }
    }

    /// The state called `name` (its wire name), if any.
    pub fn parse(name: &str) -> Option<AdmissionState> {
        STATES.into_iter().find(|s| s.as_str() == name)
    }

    /// The position on the admission ladder DRAFT → … → ACTIVE; `None`
    /// for REJECTED, QUARANTINED and DEPRECATED, which are off it.
    pub fn rung(self) -> Option<u8> {
        use AdmissionState::*;
        match self {
            Draft => Some(0),
            StaticValidated => Some(1),
            ConformanceVerified => Some(2),
            SecurityVerified => Some(3),
            RegistryAdmitted => Some(4),
            Canary => Some(5),
            Active => Some(6),
            Rejected | Quarantined | Deprecated => None,
        }
    }

    /// True for the states a registry lists and admits: REGISTRY_ADMITTED,
    /// CANARY, ACTIVE.
    pub fn is_admitted(self) -> bool {
        self.rung().is_some_and(|r| r >= 4)
    }
}

impl fmt::Display for AdmissionState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who or what caused a transition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// A runtime drift report (its id).
    DriftReport(i64),
    /// A verification result (its id).
    Verification(i64),
    /// A person or job, by the name of the token it used.
    Token(String),
    /// A deployment recorded into an environment marked for an admission
    /// stage (the deployed version's uuid).
    Deployment(String),
    /// The broker itself (evidence expired, a digest changed).
    Broker,
}

impl Cause {
    /// The stored kind: `driftReport`, `verification`, `token`,
    /// `deployment`, `broker`.
    pub fn kind(&self) -> &'static str {
        match self {
            Cause::DriftReport(_) => "driftReport",
            Cause::Verification(_) => "verification",
            Cause::Token(_) => "token",
            Cause::Deployment(_) => "deployment",
            Cause::Broker => "broker",
        }
    }

    /// The stored reference: the id, token name or deployment uuid (empty
    /// for the broker).
    pub fn reference(&self) -> String {
        match self {
            Cause::DriftReport(id) | Cause::Verification(id) => id.to_string(),
            Cause::Token(name) | Cause::Deployment(name) => name.clone(),
            Cause::Broker => String::new(),
        }
    }
}

/// A transition [`check`] refuses, with the sentence that says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a version cannot go from {from} to {to}: {why}")]
pub struct Refused {
    pub from: AdmissionState,
    pub to: AdmissionState,
    pub why: &'static str,
}

/// Whether a version may go from `from` to `to`.
///
/// - Up the ladder one rung at a time (REGISTRY_ADMITTED may skip CANARY
///   to ACTIVE); down the ladder to any lower rung (evidence expired or a
///   digest changed: the evidence starts over).
/// - REJECTED from a rung below REGISTRY_ADMITTED; back to DRAFT only.
/// - QUARANTINED from anything but DEPRECATED; out of it to any rung (the
///   store puts it back where it was once it is cleared) or DEPRECATED.
/// - DEPRECATED from anything; nothing leaves it.
pub fn check(from: AdmissionState, to: AdmissionState) -> Result<(), Refused> {
    use AdmissionState::*;
    let refuse = |why| Err(Refused { from, to, why });
    if from == to {
        return refuse("it is already there");
    }
    match (from, to) {
        (Deprecated, _) => refuse("a deprecated version stays deprecated"),
        (_, Deprecated) => Ok(()),
        (_, Quarantined) => Ok(()),
        (Quarantined, t) if t.rung().is_some() => Ok(()),
        (Quarantined, _) => refuse("a quarantined version returns to the ladder or is deprecated"),
        (Rejected, Draft) => Ok(()),
        (Rejected, _) => refuse("a rejected version starts over from DRAFT"),
        (f, Rejected) if f.rung().is_some_and(|r| r < 4) => Ok(()),
        (_, Rejected) => refuse("an admitted version is quarantined or deprecated, not rejected"),
        (f, t) => ladder(f, t).or_else(refuse),
    }
}

/// A move between two rungs of the ladder.
fn ladder(from: AdmissionState, to: AdmissionState) -> Result<(), &'static str> {
    let (Some(f), Some(t)) = (from.rung(), to.rung()) else {
        return Err("not a move on the admission ladder");
    };
    let skips_canary = from == AdmissionState::RegistryAdmitted && to == AdmissionState::Active;
    if t < f || t == f + 1 || skips_canary {
        Ok(())
    } else {
        Err("the ladder is climbed one state at a time")
    }
}
