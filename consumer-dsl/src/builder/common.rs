//! What every interaction builder can say: provider states, principal and
//! credential, probes, side effects, temporal limits, negative, repeat.

use serde_json::{Map, Value};

use crate::model::accord::{A2aOperation, Credential, Negative, RefusalKind, TaskState};
use crate::spec::CounterSpec;
use crate::spec::StateSpec;
use crate::spec::ast::{ApprovalSpec, CommonSpec, ProbeSpec, RepeatSpec, WithinSpec};

/// Keys every interaction builder shares.
pub trait Common: Sized {
    /// The common part of the interaction being built.
    fn common(&mut self) -> &mut CommonSpec;

    /// A provider state without parameters.
    fn given(mut self, state: impl Into<String>) -> Self {
        self.common().given.push(StateSpec {
            name: state.into(),
            params: Map::new(),
        });
        self
    }

    /// A provider state with parameters (a JSON object; other values give none).
    fn given_with(mut self, state: impl Into<String>, params: Value) -> Self {
        let params = match params {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        self.common().given.push(StateSpec {
            name: state.into(),
            params,
        });
        self
    }

    /// V4 `key` of the interaction.
    fn key(mut self, key: impl Into<String>) -> Self {
        self.common().key = Some(key.into());
        self
    }

    /// V4 `comments`.
    fn comments(mut self, comments: Value) -> Self {
        self.common().comments = Some(comments);
        self
    }

    /// V4 `pending`.
    fn pending(mut self) -> Self {
        self.common().pending = true;
        self
    }

    /// Sent as this declared principal.
    // `as_principal` reads as the spec's `as:` key; it consumes the builder like every step.
    #[allow(clippy::wrong_self_convention)]
    fn as_principal(mut self, principal: impl Into<String>) -> Self {
        self.common().principal = Some(principal.into());
        self
    }

    /// Sent without any credential.
    fn unauthenticated(mut self) -> Self {
        self.common().credential = Some(Credential::None);
        self
    }

    /// Sent with an expired credential of the principal.
    fn expired_credential(mut self) -> Self {
        self.common().credential = Some(Credential::Expired);
        self
    }

    /// Sent with a malformed credential.
    fn invalid_credential(mut self) -> Self {
        self.common().credential = Some(Credential::Invalid);
        self
    }

    /// Probe what the interaction created as another principal (all A2A operations).
    fn probe_as(mut self, principal: impl Into<String>) -> Self {
        self.common().probe_as.push(ProbeSpec {
            principal: principal.into(),
            ..ProbeSpec::default()
        });
        self
    }

    /// Probe with these operations only, or (MCP/HTTP) compare with the
    /// call whose arguments are overlaid with `unknown`.
    fn probe_as_with(
        mut self,
        principal: impl Into<String>,
        operations: Vec<A2aOperation>,
        unknown: Option<Map<String, Value>>,
    ) -> Self {
        self.common().probe_as.push(ProbeSpec {
            principal: principal.into(),
            operations,
            unknown,
            after: None,
        });
        self
    }

    /// A2A: probe as `principal` once the task reached `state`, while it
    /// still runs.
    fn probe_as_after(mut self, principal: impl Into<String>, state: TaskState) -> Self {
        self.common().probe_as.push(ProbeSpec {
            principal: principal.into(),
            after: Some(state),
            ..ProbeSpec::default()
        });
        self
    }

    /// The counter changes by exactly `delta`.
    fn side_effect(mut self, counter: impl Into<String>, delta: i64) -> Self {
        self.common().side_effects.insert(
            counter.into(),
            CounterSpec {
                min: Some(delta),
                max: Some(delta),
            },
        );
        self
    }

    /// The counter changes by a delta within bounds.
    fn side_effect_between(
        mut self,
        counter: impl Into<String>,
        min: Option<i64>,
        max: Option<i64>,
    ) -> Self {
        self.common()
            .side_effects
            .insert(counter.into(), CounterSpec { min, max });
        self
    }

    /// Temporal limits.
    fn within(mut self, f: impl FnOnce(WithinSpec) -> WithinSpec) -> Self {
        let w = self.common().within.take().unwrap_or_default();
        self.common().within = Some(f(w));
        self
    }

    /// A case the provider must refuse.
    fn negative(mut self) -> Self {
        self.common().negative = Negative::Refused;
        self
    }

    /// A case the provider must refuse, for this reason: a served one is
    /// reported with the code of what the refusal protects.
    fn negative_as(mut self, kind: RefusalKind) -> Self {
        self.common().negative = Negative::Kind(kind);
        self
    }

    /// Send `times` times; side effects judged over all of them.
    fn repeat(mut self, times: u32) -> Self {
        self.common().repeat = Some(RepeatSpec {
            times,
            each: false,
            each_matches: true,
            key: None,
            same_fields: Vec::new(),
        });
        self
    }

    /// Send `times` times with the business idempotency key at `key` (a
    /// path into the request, e.g. `$.body.requestId`) kept and everything
    /// else generated anew; the answers' `same_fields` must be equal.
    fn repeat_keyed(mut self, times: u32, key: &str, same_fields: &[&str]) -> Self {
        self.common().repeat = Some(RepeatSpec {
            times,
            each: false,
            each_matches: true,
            key: Some(key.to_owned()),
            same_fields: same_fields.iter().map(|f| (*f).to_owned()).collect(),
        });
        self
    }

    /// Send `times` times; side effects judged for each send.
    fn repeat_each(mut self, times: u32) -> Self {
        self.common().repeat = Some(RepeatSpec {
            times,
            each: true,
            each_matches: true,
            key: None,
            same_fields: Vec::new(),
        });
        self
    }

    /// The expected failure is (not) retryable (HTTP).
    fn retryable(mut self, retryable: bool) -> Self {
        self.common().retryable = Some(retryable);
        self
    }

    /// Sent without the approval it needs: refused, `counter` (commits)
    /// must not grow (`None`: the counter the tool's `mcp_tools` entry
    /// names).
    fn without_approval(mut self, counter: Option<&str>) -> Self {
        self.common().approval = Some(ApprovalSpec {
            granted: false,
            counter: counter.map(str::to_owned),
        });
        self
    }

    /// Sent with a granted approval: it commits, `counter` grows.
    fn with_approval(mut self, counter: Option<&str>) -> Self {
        self.common().approval = Some(ApprovalSpec {
            granted: true,
            counter: counter.map(str::to_owned),
        });
        self
    }
}

impl WithinSpec {
    /// Acknowledge within `ms`.
    pub fn acknowledge_ms(mut self, ms: u64) -> Self {
        self.acknowledge_ms = Some(ms);
        self
    }

    /// First progress within `ms`.
    pub fn first_progress_ms(mut self, ms: u64) -> Self {
        self.first_progress_ms = Some(ms);
        self
    }

    /// Terminal state within `ms`.
    pub fn completion_ms(mut self, ms: u64) -> Self {
        self.completion_ms = Some(ms);
        self
    }

    /// Cancellation takes effect within `ms` of the cancel acknowledgement.
    pub fn cancellation_effect_ms(mut self, ms: u64) -> Self {
        self.cancellation_effect_ms = Some(ms);
        self
    }

    /// No counter moves after the cancel acknowledgement.
    pub fn no_side_effects_after_cancel_ack(mut self) -> Self {
        self.no_side_effects_after_cancel_ack = true;
        self
    }
}
