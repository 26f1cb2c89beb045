//! `negative`: a case the provider must refuse, and why (`true`: the
//! verifier derives the kind from the interaction).

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// Why the provider must refuse a negative case. A served negative is
/// reported with the reason code of what the refusal protects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// Sent without a credential, or with an invalid one
    /// (UNAUTHENTICATED_ACCESS).
    Unauthenticated,
    /// Sent with an expired credential (EXPIRED_CREDENTIAL_ACCEPTED).
    ExpiredCredential,
    /// Another tenant's or principal's resource (CROSS_TENANT_ACCESS).
    CrossTenant,
    /// Input the provider's schema or rules forbid (INVALID_INPUT_ACCEPTED).
    InvalidInput,
    /// A commit sent without the approval it needs (APPROVAL_BYPASSED).
    MissingApproval,
    /// A protocol version the provider does not support
    /// (VERSION_NOT_REJECTED).
    UnsupportedVersion,
    /// A message to a task that already ended
    /// (TERMINAL_TASK_ACCEPTED_MESSAGE).
    TerminalTask,
    /// An operation the card does not declare, e.g. streaming
    /// (UNDECLARED_CAPABILITY_ACCEPTED).
    UndeclaredCapability,
}

impl RefusalKind {
    /// Every kind, in the order the documentation lists them.
    pub const ALL: [RefusalKind; 8] = [
        RefusalKind::Unauthenticated,
        RefusalKind::ExpiredCredential,
        RefusalKind::CrossTenant,
        RefusalKind::InvalidInput,
        RefusalKind::MissingApproval,
        RefusalKind::UnsupportedVersion,
        RefusalKind::TerminalTask,
        RefusalKind::UndeclaredCapability,
    ];

    /// The name the contract uses.
    pub fn as_str(self) -> &'static str {
        match self {
            RefusalKind::Unauthenticated => "unauthenticated",
            RefusalKind::ExpiredCredential => "expired_credential",
            RefusalKind::CrossTenant => "cross_tenant",
            RefusalKind::InvalidInput => "invalid_input",
            RefusalKind::MissingApproval => "missing_approval",
            RefusalKind::UnsupportedVersion => "unsupported_version",
            RefusalKind::TerminalTask => "terminal_task",
            RefusalKind::UndeclaredCapability => "undeclared_capability",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<RefusalKind> {
        RefusalKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The names, for error messages.
    pub fn names() -> String {
        RefusalKind::ALL.map(RefusalKind::as_str).join(", ")
    }
}

/// The `negative` attribute: `false` (absent), `true` (refused, the kind
/// derived by the verifier) or the kind of refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Negative {
    /// Not a negative case.
    #[default]
    No,
    /// The provider must refuse; the verifier derives why.
    Refused,
    /// The provider must refuse, for this reason.
    Kind(RefusalKind),
}

impl Negative {
    /// True unless [`Negative::No`].
    pub fn is_set(&self) -> bool {
        !matches!(self, Negative::No)
    }

    /// The kind the contract names, if any.
    pub fn kind(&self) -> Option<RefusalKind> {
        match self {
            Negative::Kind(k) => Some(*k),
            _ => None,
        }
    }

    /// For `skip_serializing_if`.
    pub fn is_no(&self) -> bool {
        !self.is_set()
    }
}

impl From<bool> for Negative {
    fn from(b: bool) -> Self {
        if b { Negative::Refused } else { Negative::No }
    }
}

impl Serialize for Negative {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Negative::No => s.serialize_bool(false),
            Negative::Refused => s.serialize_bool(true),
            Negative::Kind(k) => s.serialize_str(k.as_str()),
        }
    }
}

impl<'de> Deserialize<'de> for Negative {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Negative;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(
                    f,
                    "true, false or the kind of refusal ({})",
                    RefusalKind::names()
                )
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Negative, E> {
                Ok(v.into())
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Negative, E> {
                RefusalKind::from_name(v)
                    .map(Negative::Kind)
                    .ok_or_else(|| {
                        E::custom(format!(
                            "unknown kind of refusal `{v}` (expected true, false or one of {})",
                            RefusalKind::names()
                        ))
                    })
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn negative_reads_and_writes_booleans_and_kinds() {
        for (v, n) in [
            (json!(false), Negative::No),
            (json!(true), Negative::Refused),
            (
                json!("cross_tenant"),
                Negative::Kind(RefusalKind::CrossTenant),
            ),
        ] {
            let read: Negative = serde_json::from_value(v.clone()).expect("readable");
            assert_eq!(read, n);
            assert_eq!(serde_json::to_value(read).expect("writable"), v);
        }
        let bad = serde_json::from_value::<Negative>(json!("nope")).expect_err("refused");
        assert!(bad.to_string().contains("unknown kind of refusal `nope`"));
        assert!(bad.to_string().contains("expired_credential"));
    }

    #[test]
    fn every_kind_round_trips_its_name() {
        for k in RefusalKind::ALL {
            assert_eq!(RefusalKind::from_name(k.as_str()), Some(k));
            let v = serde_json::to_value(k).expect("writable");
            assert_eq!(v, json!(k.as_str()));
        }
    }
}
