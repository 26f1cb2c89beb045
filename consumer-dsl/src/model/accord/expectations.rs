//! Behavioural expectations any interaction may carry: side effects on
//! observed counters, temporal limits, the principal it is sent as, negative
//! cases and repeats.

use std::fmt;

use indexmap::IndexMap;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::a2a_flow::A2aOperation;
use super::negative::Negative;

/// Behavioural expectations any interaction may carry.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Expectations {
    /// Expected change of the provider's fixture counters (`sideEffects`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_effects: Option<SideEffects>,
    /// Temporal limits (`temporal`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temporal: Option<Temporal>,
    /// Who sends the interaction, and who probes what it created (`auth`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<Auth>,
    /// A case the provider must refuse (`negative: true`, or the kind of
    /// refusal: `negative: cross_tenant`).
    #[serde(default, skip_serializing_if = "Negative::is_no")]
    pub negative: Negative,
    /// Send the interaction several times (`repeat`), e.g. for idempotency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<Repeat>,
    /// Whether the expected failure may be retried by the consumer
    /// (`retryable`); for HTTP interactions, whose error is the response.
    /// A2A and MCP carry it on their [`super::ErrorExpectation`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    /// The interaction commits only with a granted approval (`approval`):
    /// sent without one, it must commit nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<Approval>,
}

impl Expectations {
    /// The interaction attributes that hold expectations.
    pub const JSON_KEYS: &'static [&'static str] = &[
        "sideEffects",
        "temporal",
        "auth",
        "negative",
        "repeat",
        "retryable",
        "approval",
    ];

    /// True when no expectation is set.
    pub fn is_empty(&self) -> bool {
        *self == Expectations::default()
    }

    /// The provider must refuse the interaction: a `negative` case, or a
    /// call sent without the approval it needs.
    pub fn refusal_expected(&self) -> bool {
        self.negative.is_set() || self.approval.as_ref().is_some_and(|a| !a.granted)
    }
}

/// Whether the interaction carries a granted approval, and the counter
/// that counts commits (for an MCP call, the tool's `mcpTools` entry may
/// name it instead).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Approval {
    /// `true`: sent with a granted approval, it commits (the counter
    /// grows); `false`: sent without, it is refused and commits nothing.
    pub granted: bool,
    /// The counter that counts commits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<String>,
}

/// Expected change of named counters between the observation before the
/// interaction (all its repeats) and the one after it.
pub type SideEffects = IndexMap<String, CounterChange>;

/// The expected change of one counter: an integer, or `{"min", "max"}`
/// bounds (both optional: `{}` is any change), nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum CounterChange {
    /// Exactly this delta (`1`, `0`, `-1`).
    Exact(i64),
    /// A delta within bounds (both inclusive, either optional).
    Range {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<i64>,
    },
}

impl<'de> Deserialize<'de> for CounterChange {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Change;
        impl<'de> Visitor<'de> for Change {
            type Value = CounterChange;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a counter change: an integer or {\"min\", \"max\"}")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<CounterChange, E> {
                Ok(CounterChange::Exact(n))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<CounterChange, E> {
                i64::try_from(n)
                    .map(CounterChange::Exact)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(n), &self))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CounterChange, A::Error> {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Bounds {
                    #[serde(default)]
                    min: Option<i64>,
                    #[serde(default)]
                    max: Option<i64>,
                }
                let Bounds { min, max } = Bounds::deserialize(MapAccessDeserializer::new(map))?;
                Ok(CounterChange::Range { min, max })
            }
        }
        d.deserialize_any(Change)
    }
}

impl CounterChange {
    /// True when an observed delta satisfies this expectation.
    pub fn accepts(&self, delta: i64) -> bool {
        match *self {
            CounterChange::Exact(d) => d == delta,
            CounterChange::Range { min, max } => {
                min.is_none_or(|m| delta >= m) && max.is_none_or(|m| delta <= m)
            }
        }
    }
}

/// Temporal limits, in milliseconds from the moment the request was sent.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Temporal {
    /// The provider acknowledges (first response byte / first stream event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acknowledge_within_ms: Option<u64>,
    /// The first progress event (a status update past SUBMITTED, or an artifact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_progress_within_ms: Option<u64>,
    /// The task reaches a terminal state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_within_ms: Option<u64>,
    /// After the cancel acknowledgement, the cancellation takes effect
    /// (terminal state observed, counters stop moving).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancellation_effect_within_ms: Option<u64>,
    /// No counter may move after the cancel acknowledgement (observed until
    /// the end of the cancel scenario's observation window).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_new_side_effect_after_cancel_ack: bool,
}

impl Temporal {
    /// The limits set that need a task's progress or cancellation
    /// (`firstProgressWithinMs`, `cancellationEffectWithinMs`,
    /// `noNewSideEffectAfterCancelAck`), by name.
    pub fn task_limits_set(&self) -> Vec<&'static str> {
        [
            (
                "firstProgressWithinMs",
                self.first_progress_within_ms.is_some(),
            ),
            (
                "cancellationEffectWithinMs",
                self.cancellation_effect_within_ms.is_some(),
            ),
            (
                "noNewSideEffectAfterCancelAck",
                self.no_new_side_effect_after_cancel_ack,
            ),
        ]
        .into_iter()
        .filter_map(|(name, set)| set.then_some(name))
        .collect()
    }
}

/// The principal an interaction is sent as, and the credential it presents.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Auth {
    /// Name of the principal (the provider's state-change endpoint issues
    /// synthetic credentials for it); `None` with [`Credential::None`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub principal: Option<String>,
    /// The tenant the principal belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant: Option<String>,
    /// The kind of credential presented.
    #[serde(default, skip_serializing_if = "Credential::is_valid")]
    pub credential: Credential,
    /// Probes of what this interaction created, made as other principals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<Probe>,
}

/// The kind of credential an interaction presents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Credential {
    /// A valid credential of the principal.
    #[default]
    Valid,
    /// No credential at all: an unauthenticated caller.
    None,
    /// A credential of the principal that has expired.
    Expired,
    /// A malformed or wrongly signed credential.
    Invalid,
}

impl Credential {
    /// True for [`Credential::Valid`].
    pub fn is_valid(&self) -> bool {
        matches!(self, Credential::Valid)
    }
}

/// Access to the created task or resource as another principal: the answer
/// must be indistinguishable from the answer for an unknown id.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Probe {
    /// The other principal.
    pub principal: String,
    /// The other principal's tenant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant: Option<String>,
    /// A2A operations to probe with; empty means GetTask, CancelTask,
    /// SubscribeToTask, ListTasks and SendMessage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<A2aOperation>,
    /// MCP/HTTP: arguments replacing the originals to form the
    /// "unknown id" call the probe's answer is compared with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown: Option<Map<String, Value>>,
    /// A2A: probe once the task reached this state (while it still runs),
    /// instead of after the interaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<super::TaskState>,
}

impl Probe {
    /// The A2A operations to probe with: the listed ones, or by default
    /// GetTask, CancelTask, SubscribeToTask, ListTasks and SendMessage.
    pub fn effective_operations(&self) -> Vec<A2aOperation> {
        if self.operations.is_empty() {
            vec![
                A2aOperation::GetTask,
                A2aOperation::CancelTask,
                A2aOperation::SubscribeToTask,
                A2aOperation::ListTasks,
                A2aOperation::SendMessage,
            ]
        } else {
            self.operations.clone()
        }
    }
}

/// How often an interaction is sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Repeat {
    /// Number of sends (≥ 1).
    pub times: u32,
    /// How `sideEffects` are judged.
    #[serde(default)]
    pub side_effects: RepeatJudgement,
    /// Every repeat must get an answer matching the expectation (default
    /// true); false lets later repeats fail (e.g. a duplicate refused).
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub each_matches: bool,
    /// Where the request carries the business idempotency key (a path
    /// into the request as sent, e.g. `$.body.requestId`): its value is
    /// the same in every repeat, while every other generated value is
    /// generated anew, so the provider is tested on the key, not on a
    /// byte-identical request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Paths into the answer whose values must be equal in every repeat
    /// (IDEMPOTENCY_VIOLATION otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_fields: Vec<String>,
}

fn yes() -> bool {
    true
}

/// How side effects are judged over repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RepeatJudgement {
    /// Once over all repeats together: "the same request twice, one record".
    #[default]
    Total,
    /// Each repeat on its own.
    Each,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counter_changes_read_exact_and_ranged_forms() {
        let s: SideEffects =
            serde_json::from_value(json!({"records": 1, "approvals": {"min": 1}})).expect("valid");
        assert_eq!(s["records"], CounterChange::Exact(1));
        assert!(s["approvals"].accepts(3));
        assert!(!s["approvals"].accepts(0));
        assert!(!s["records"].accepts(2));
    }

    #[test]
    fn default_credential_and_repeat_flags_are_not_written() {
        let e = Expectations {
            auth: Some(Auth {
                principal: Some("alice".into()),
                ..Auth::default()
            }),
            repeat: Some(Repeat {
                times: 2,
                side_effects: RepeatJudgement::Total,
                each_matches: true,
                key: None,
                same_fields: Vec::new(),
            }),
            ..Expectations::default()
        };
        let v = serde_json::to_value(&e).expect("serialisable");
        assert_eq!(
            v,
            json!({"auth": {"principal": "alice"}, "repeat": {"times": 2, "sideEffects": "total"}})
        );
        let back: Expectations = serde_json::from_value(v).expect("readable");
        assert_eq!(back, e);
    }
}
