//! A provider's drift policy: per signal a threshold and an action, with
//! optional overrides per environment, in the seed's `drift_policy` form:
//!
//! ```yaml
//! drift_policy:
//!   rules:
//!     agent_card_digest: { threshold: 1, action: quarantine }
//!     output_schema_violations: { threshold: 10, action: canary_stop }
//!   environments:
//!     production:
//!       cross_tenant_allows: { threshold: 1, action: quarantine }
//! ```
//!
//! Pure: [`Policy::rule`] says which rule applies, [`judge`] what to do.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::report::{Counts, Signal};

/// What a policy can watch: the two digests and every counted signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicySignal {
    AgentCardDigest,
    ToolsDigest,
    OutputSchemaViolations,
    UnknownErrorCodes,
    ImpossibleTaskTransitions,
    AnnotationMismatches,
    WritesAfterCancel,
    CrossTenantAllows,
    ConsumerDecodeFailures,
}

impl PolicySignal {
    /// The signal's name in a policy (`agent_card_digest`).
    pub fn as_str(self) -> &'static str {
        use PolicySignal::*;
        match self {
            AgentCardDigest => "agent_card_digest",
            ToolsDigest => "tools_digest",
            OutputSchemaViolations => "output_schema_violations",
            UnknownErrorCodes => "unknown_error_codes",
            ImpossibleTaskTransitions => "impossible_task_transitions",
            AnnotationMismatches => "annotation_mismatches",
            WritesAfterCancel => "writes_after_cancel",
            CrossTenantAllows => "cross_tenant_allows",
            ConsumerDecodeFailures => "consumer_decode_failures",
        }
    }

    /// The policy signal of a counted report signal.
    pub fn of(signal: Signal) -> PolicySignal {
        use PolicySignal::*;
        match signal {
            Signal::OutputSchemaViolations => OutputSchemaViolations,
            Signal::UnknownErrorCodes => UnknownErrorCodes,
            Signal::ImpossibleTaskTransitions => ImpossibleTaskTransitions,
            Signal::AnnotationMismatches => AnnotationMismatches,
            Signal::WritesAfterCancel => WritesAfterCancel,
            Signal::CrossTenantAllows => CrossTenantAllows,
            Signal::ConsumerDecodeFailures => ConsumerDecodeFailures,
        }
    }
}

/// Every counted signal, in report order.
pub const COUNTED: [Signal; 7] = [
    Signal::OutputSchemaViolations,
    Signal::UnknownErrorCodes,
    Signal::ImpossibleTaskTransitions,
    Signal::AnnotationMismatches,
    Signal::WritesAfterCancel,
    Signal::CrossTenantAllows,
    Signal::ConsumerDecodeFailures,
];

/// What the broker does when a signal reaches its threshold, on the ladder
/// Observe → Warn → Stop Canary → Disable Route → Quarantine
/// (`incident_open` is recorded beside it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Warn,
    CanaryStop,
    RouteDisable,
    IncidentOpen,
    Quarantine,
}

impl Action {
    /// The action's name (`canary_stop`).
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Warn => "warn",
            Action::CanaryStop => "canary_stop",
            Action::RouteDisable => "route_disable",
            Action::IncidentOpen => "incident_open",
            Action::Quarantine => "quarantine",
        }
    }

    /// The action called `name`, if any.
    pub fn parse(name: &str) -> Option<Action> {
        [
            Action::Warn,
            Action::CanaryStop,
            Action::RouteDisable,
            Action::IncidentOpen,
            Action::Quarantine,
        ]
        .into_iter()
        .find(|a| a.as_str() == name)
    }
}

/// One rule: at `threshold` or more in a report's window, do `action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    pub threshold: u32,
    pub action: Action,
}

/// The policy as stored and served.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    #[serde(default)]
    pub rules: BTreeMap<PolicySignal, Rule>,
    /// Environment name → rules that replace the general ones there.
    #[serde(default)]
    pub environments: BTreeMap<String, BTreeMap<PolicySignal, Rule>>,
}

/// The seed's form: the policy under a `drift_policy` key (optional).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum PolicyDocument {
    Wrapped { drift_policy: Policy },
    Bare(Policy),
}

/// The rule when a policy says nothing: a card that differs from the
/// verified one quarantines, anything else warns from its first count.
pub fn default_rule(signal: PolicySignal) -> Rule {
    let action = match signal {
        PolicySignal::AgentCardDigest => Action::Quarantine,
        _ => Action::Warn,
    };
    Rule {
        threshold: 1,
        action,
    }
}

impl Policy {
    /// The rule for `signal` in `environment`: the environment's own, the
    /// general one, or the default.
    pub fn rule(&self, environment: &str, signal: PolicySignal) -> Rule {
        self.environments
            .get(environment)
            .and_then(|rules| rules.get(&signal))
            .or_else(|| self.rules.get(&signal))
            .copied()
            .unwrap_or_else(|| default_rule(signal))
    }
}

/// What the policy makes of one signal seen `count` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub signal: PolicySignal,
    pub count: u32,
    pub threshold: u32,
    pub action: Action,
    /// False: under the threshold, so only a warning.
    pub over_threshold: bool,
}

/// The steps for the signals a report raised (`digests`: the digest
/// signals that differ from the verified ones, with how many differ).
pub fn judge(
    policy: &Policy,
    environment: &str,
    digests: &[(PolicySignal, u32)],
    counts: &Counts,
) -> Vec<Step> {
    let counted = COUNTED
        .into_iter()
        .map(|s| (PolicySignal::of(s), counts.get(s)));
    digests
        .iter()
        .copied()
        .chain(counted)
        .filter(|(_, count)| *count > 0)
        .map(|(signal, count)| {
            let rule = policy.rule(environment, signal);
            let over_threshold = count >= rule.threshold;
            Step {
                signal,
                count,
                threshold: rule.threshold,
                action: if over_threshold {
                    rule.action
                } else {
                    Action::Warn
                },
                over_threshold,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(unknown_error_codes: u32) -> Counts {
        Counts {
            unknown_error_codes,
            ..Counts::default()
        }
    }

    #[test]
    fn a_changed_card_quarantines_by_default_and_counts_warn() {
        let steps = judge(
            &Policy::default(),
            "production",
            &[(PolicySignal::AgentCardDigest, 1)],
            &counts(2),
        );
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[0].action, Action::Quarantine);
        assert_eq!(steps[1].signal, PolicySignal::UnknownErrorCodes);
        assert_eq!(steps[1].action, Action::Warn);
    }

    #[test]
    fn under_the_threshold_a_signal_only_warns() {
        let rule = Rule {
            threshold: 5,
            action: Action::RouteDisable,
        };
        let policy = Policy {
            rules: [(PolicySignal::UnknownErrorCodes, rule)].into(),
            ..Policy::default()
        };
        let under = judge(&policy, "production", &[], &counts(4));
        assert_eq!(under[0].action, Action::Warn);
        assert!(!under[0].over_threshold);
        let over = judge(&policy, "production", &[], &counts(5));
        assert_eq!(over[0].action, Action::RouteDisable);
    }

    #[test]
    fn an_environments_rule_replaces_the_general_one_there_only() {
        let general = Rule {
            threshold: 1,
            action: Action::Warn,
        };
        let strict = Rule {
            threshold: 1,
            action: Action::Quarantine,
        };
        let policy = Policy {
            rules: [(PolicySignal::CrossTenantAllows, general)].into(),
            environments: [(
                "production".to_owned(),
                [(PolicySignal::CrossTenantAllows, strict)].into(),
            )]
            .into(),
        };
        assert_eq!(
            policy.rule("production", PolicySignal::CrossTenantAllows),
            strict
        );
        assert_eq!(
            policy.rule("staging", PolicySignal::CrossTenantAllows),
            general
        );
    }

    #[test]
    fn the_seeds_wrapped_form_and_the_bare_form_both_read() {
        let wrapped: PolicyDocument = serde_json::from_str(
            r#"{"drift_policy": {"rules": {"tools_digest": {"threshold": 1, "action": "route_disable"}}}}"#,
        )
        .expect("wrapped");
        assert!(matches!(wrapped, PolicyDocument::Wrapped { .. }));
        let bare: PolicyDocument = serde_json::from_str(r#"{"rules": {}}"#).expect("bare");
        assert!(matches!(bare, PolicyDocument::Bare(_)));
    }
}
