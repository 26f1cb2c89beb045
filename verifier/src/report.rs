//! The verification report: per contract, per interaction, the outcome
//! and its findings. Verdicts are data; nothing here is an error.

use serde::Serialize;

use crate::finding::{Finding, Layer};

/// What happened to one interaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Every expectation held.
    Passed,
    /// At least one finding.
    Failed,
}

/// The result of one interaction.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InteractionResult {
    /// Position in the contract (0-based).
    pub index: usize,
    /// The broker's `_id` or the V4 `key`, when the contract has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interaction_id: Option<String>,
    pub description: String,
    /// The V4 interaction type (`Synchronous/HTTP`, …).
    pub interaction_type: &'static str,
    /// A pending interaction (or one of a pending contract) never fails the run.
    pub pending: bool,
    pub outcome: Outcome,
    pub findings: Vec<Finding>,
    /// Reported, never failing: a behaviour the official SDKs share where
    /// the spec says otherwise, or a check that could not be made.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Finding>,
    /// Calls the verifier derived and made besides the recorded ones (MCP
    /// invalid-input variants), one line each: what ran is reported.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<String>,
    /// Wall time of the interaction, state changes included.
    pub duration_ms: u64,
    /// It has provider states but no state-change URL was given: they were
    /// not set up (as in Pact, a warning, not a failure).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub states_not_set_up: bool,
    /// The W3C trace id its A2A and MCP requests carried (`traceparent`),
    /// for finding the run in the provider's own tracing; none when
    /// nothing was sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
    /// The calls the provider made to the stand-ins of its dependencies
    /// during the interaction (agent → tool → API), when any were served.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub downstream: Vec<crate::downstream::DownstreamEntry>,
}

impl InteractionResult {
    /// True when it failed and is not pending.
    pub fn fails_the_run(&self) -> bool {
        self.outcome == Outcome::Failed && !self.pending
    }
}

/// The result of one contract.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContractResult {
    pub consumer: String,
    pub provider: String,
    /// Where the contract came from (a file name, later a broker URL).
    pub source: String,
    /// The whole contract is pending (a broker's pending pact).
    pub pending: bool,
    /// A work-in-progress contract (a broker's WIP pact; also pending).
    pub wip: bool,
    /// Findings of the contract's own expectations (`mcpTools`,
    /// `agentCard`), judged once per run, before any interaction.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
    pub interactions: Vec<InteractionResult>,
}

impl ContractResult {
    /// True when no interaction failed and the contract's own
    /// expectations held.
    pub fn passed(&self) -> bool {
        self.findings.is_empty()
            && self
                .interactions
                .iter()
                .all(|i| i.outcome == Outcome::Passed)
    }

    /// True when an interaction failed that is only pending: shown, never
    /// hidden, but not failing the run.
    pub fn failed_pending(&self) -> bool {
        self.interactions
            .iter()
            .any(|i| i.outcome == Outcome::Failed && i.pending)
    }
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerificationReport {
    pub provider: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider_version: Option<String>,
    pub contracts: Vec<ContractResult>,
    /// What the provider declared, as read during the run (each profile's
    /// MCP `tools/list`), by canonical digest.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub declarations: Vec<Declaration>,
}

/// One declaration the provider made, by digest.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Declaration {
    /// `mcp/tools/list`.
    pub kind: &'static str,
    /// Who it was read as: a principal's name, `as written` (the
    /// contract's own headers) or `unauthenticated`; never a credential.
    pub profile: String,
    /// The protocol version it was read in.
    pub protocol_version: String,
    /// `sha256:` and the hex sha256 of the RFC 8785 canonical JSON of the
    /// listing, tools ordered by name.
    pub digest: String,
    /// How many entries (tools, skills) it lists.
    pub entries: usize,
    /// The HTTP `ETag` it was served with (the Agent Card), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// What of it the run used (the Agent Card's interfaces replayed on:
    /// binding and URL).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub used: Vec<String>,
    /// What was read (the card; `{"tools": […]}`), bounded by the run's
    /// limits, for `accord verify --publish` to publish as the provider
    /// version's declarations. Not in the report: the digest names it.
    #[serde(skip)]
    pub content: Content,
}

/// A declaration's content, compared by nothing: its digest identifies it.
#[derive(Debug, Clone, Default)]
pub struct Content(pub Option<std::sync::Arc<serde_json::Value>>);

impl Content {
    /// The content of `value`.
    pub fn of(value: serde_json::Value) -> Content {
        Content(Some(std::sync::Arc::new(value)))
    }
}

impl PartialEq for Content {
    fn eq(&self, _: &Content) -> bool {
        true
    }
}

impl Eq for Content {}

impl PartialOrd for Content {
    fn partial_cmp(&self, other: &Content) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Content {
    fn cmp(&self, _: &Content) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

/// Counts for the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    pub interactions: usize,
    pub passed: usize,
    pub failed: usize,
    pub pending_failed: usize,
}

impl VerificationReport {
    /// True when every non-pending interaction passed and every
    /// non-pending contract's own expectations held (exit code 0).
    pub fn passed(&self) -> bool {
        self.interactions().all(|(_, i)| !i.fails_the_run())
            && self
                .contracts
                .iter()
                .all(|c| c.pending || c.findings.is_empty())
    }

    /// Every interaction with its contract, in report order.
    pub fn interactions(&self) -> impl Iterator<Item = (&ContractResult, &InteractionResult)> {
        self.contracts
            .iter()
            .flat_map(|c| c.interactions.iter().map(move |i| (c, i)))
    }

    /// Interaction counts.
    pub fn totals(&self) -> Totals {
        let mut t = Totals::default();
        for (_, i) in self.interactions() {
            t.interactions += 1;
            match (i.outcome, i.pending) {
                (Outcome::Passed, _) => t.passed += 1,
                (Outcome::Failed, false) => t.failed += 1,
                (Outcome::Failed, true) => t.pending_failed += 1,
            }
        }
        t
    }

    /// Finding counts by layer and reason code, sorted.
    pub fn by_layer(&self) -> Vec<(Layer, &'static str, usize)> {
        let mut counts = std::collections::BTreeMap::new();
        let contract_level = self.contracts.iter().flat_map(|c| c.findings.iter());
        let interactions = self.interactions().flat_map(|(_, i)| i.findings.iter());
        for f in contract_level.chain(interactions) {
            *counts.entry((f.layer, f.reason_code)).or_insert(0) += 1;
        }
        counts.into_iter().map(|((l, c), n)| (l, c, n)).collect()
    }

    /// The report without timings, for comparing runs.
    pub fn without_timings(&self) -> VerificationReport {
        let mut copy = self.clone();
        for c in &mut copy.contracts {
            for i in &mut c.interactions {
                i.duration_ms = 0;
            }
        }
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::codes;

    fn interaction(outcome: Outcome, pending: bool) -> InteractionResult {
        let findings = match outcome {
            Outcome::Passed => vec![],
            Outcome::Failed => vec![Finding::new(
                Layer::Schema,
                codes::RESPONSE_MISMATCH,
                "status",
                "x",
            )],
        };
        InteractionResult {
            index: 0,
            interaction_id: None,
            description: "d".into(),
            interaction_type: "Synchronous/HTTP",
            pending,
            outcome,
            findings,
            warnings: Vec::new(),
            checks: Vec::new(),
            duration_ms: 3,
            states_not_set_up: false,
            trace_id: None,
            downstream: Vec::new(),
        }
    }

    fn report(interactions: Vec<InteractionResult>) -> VerificationReport {
        VerificationReport {
            declarations: Vec::new(),
            provider: "p".into(),
            provider_version: None,
            contracts: vec![ContractResult {
                findings: Vec::new(),
                consumer: "c".into(),
                provider: "p".into(),
                source: "f.json".into(),
                pending: false,
                wip: false,
                interactions,
            }],
        }
    }

    #[test]
    fn a_failing_pending_interaction_does_not_fail_the_run_but_is_counted() {
        let r = report(vec![
            interaction(Outcome::Passed, false),
            interaction(Outcome::Failed, true),
        ]);
        assert!(r.passed());
        assert!(r.contracts[0].failed_pending());
        assert_eq!(r.totals().pending_failed, 1);
    }

    #[test]
    fn a_failing_interaction_fails_the_run_and_is_counted_by_layer() {
        let r = report(vec![interaction(Outcome::Failed, false)]);
        assert!(!r.passed());
        assert_eq!(r.by_layer(), vec![(Layer::Schema, "RESPONSE_MISMATCH", 1)]);
        assert_eq!(
            r.without_timings().contracts[0].interactions[0].duration_ms,
            0
        );
    }
}
