//! Replaying `A2A/Task` interactions over more than one binding: with
//! `--a2a-binding all` every A2A interaction, and by default (`auto`) those
//! of a contract whose `agentCard.interfaces` rely on both JSON-RPC and
//! HTTP+JSON, are replayed once per binding — as two runs (JSON-RPC, then
//! HTTP+JSON with only those contracts' A2A interactions) over the
//! contracts loaded once, merged into one result per interaction; a
//! finding says which binding it was seen on. A binding the Agent Card
//! does not offer is left out under `all` (its only finding would be
//! UNSUPPORTED_PROTOCOL_BINDING); the card offering neither is reported by
//! the first run.

use accord_dsl::Interaction;

use crate::a2a::wire::Binding;
use crate::config::{A2aBinding, ContractSource, SourcedContract, VerifyConfig};
use crate::error::VerifyError;
use crate::finding::{Finding, codes};
use crate::report::{Outcome, VerificationReport};

/// The runs to make instead of `config`'s: `None` for one ordinary run.
pub(crate) fn passes(config: &VerifyConfig) -> Result<Option<Vec<VerifyConfig>>, VerifyError> {
    let all = match config.a2a_binding {
        A2aBinding::All => true,
        A2aBinding::Auto => false,
        A2aBinding::JsonRpc | A2aBinding::HttpJson => return Ok(None),
    };
    let read;
    let loaded: &[SourcedContract] = match &config.source {
        // checked (provider, runnable) by the run's own load
        ContractSource::Loaded(list) => list,
        ContractSource::Files(_) => {
            read = crate::load::load(&config.source, &config.provider)?;
            &read
        }
    };
    let twice: Vec<SourcedContract> = loaded
        .iter()
        .filter(|c| has_a2a(c) && (all || relies_on_both(c)))
        .cloned()
        .collect();
    if twice.is_empty() && matches!(config.source, ContractSource::Loaded(_)) {
        // one ordinary run over the contracts already loaded: no copy
        return Ok(None);
    }
    let mut first = config.clone();
    first.source = ContractSource::Loaded(loaded.to_vec());
    if twice.is_empty() {
        return Ok(Some(vec![first]));
    }
    first.a2a_binding = A2aBinding::JsonRpc;
    let mut second = config.clone();
    second.source = ContractSource::Loaded(twice);
    second.a2a_binding = A2aBinding::HttpJson;
    second.filter.a2a_only = true;
    Ok(Some(vec![first, second]))
}

fn has_a2a(c: &SourcedContract) -> bool {
    c.contract
        .interactions
        .iter()
        .any(|i| matches!(i, Interaction::A2aTask(_)))
}

/// The contract's `agentCard.interfaces` name both bindings.
fn relies_on_both(c: &SourcedContract) -> bool {
    let relied: Vec<Binding> = c
        .contract
        .agent_card
        .iter()
        .flat_map(|a| &a.interfaces)
        .filter_map(|i| Binding::of(&i.protocol_binding))
        .collect();
    relied.contains(&Binding::JsonRpc) && relied.contains(&Binding::HttpJson)
}

/// True when the interaction is replayed by a run with `a2a_only`.
pub(crate) fn replayed(a2a_only: bool, interaction: &Interaction) -> bool {
    !a2a_only || matches!(interaction, Interaction::A2aTask(_))
}

/// The run's only finding is that the card offers no interface of its
/// binding.
fn only_unsupported(findings: &[Finding]) -> bool {
    matches!(findings, [only] if only.reason_code == codes::UNSUPPORTED_PROTOCOL_BINDING)
}

fn tagged(mut f: Finding, binding: &str) -> Finding {
    f.detail = format!("[{binding}] {}", f.detail).into();
    f
}

/// The first run's report with the second run's A2A results merged in.
pub(crate) fn merge(
    mut first: VerificationReport,
    second: VerificationReport,
) -> VerificationReport {
    for theirs in second.contracts {
        let same = |c: &&mut crate::report::ContractResult| {
            (&c.consumer, &c.source) == (&theirs.consumer, &theirs.source)
        };
        let Some(mine) = first.contracts.iter_mut().find(same) else {
            continue;
        };
        for other in theirs.interactions {
            let not_offered = only_unsupported(&other.findings);
            let Some(one) = mine
                .interactions
                .iter_mut()
                .find(|i| i.index == other.index)
            else {
                continue;
            };
            if not_offered || one.interaction_type != other.interaction_type {
                continue;
            }
            // JSON-RPC not offered, HTTP+JSON replayed: only the latter counts
            let kept = match only_unsupported(&one.findings) {
                true => {
                    // only the second binding ran: its trace is the one
                    one.trace_id.clone_from(&other.trace_id);
                    Vec::new()
                }
                false => std::mem::take(&mut one.findings),
            };
            one.findings = kept
                .into_iter()
                .map(|f| tagged(f, "JSONRPC"))
                .chain(other.findings.into_iter().map(|f| tagged(f, "HTTP+JSON")))
                .collect();
            one.warnings
                .extend(other.warnings.into_iter().map(|f| tagged(f, "HTTP+JSON")));
            one.checks.extend(other.checks);
            one.downstream.extend(other.downstream);
            one.duration_ms += other.duration_ms;
            one.states_not_set_up |= other.states_not_set_up;
            one.outcome = match one.findings.is_empty() {
                true => Outcome::Passed,
                false => Outcome::Failed,
            };
        }
    }
    // the same card read by both runs: one declaration, both interfaces used
    for d in second.declarations {
        let same = |e: &&mut crate::report::Declaration| {
            (e.kind, &e.profile, &e.protocol_version, &e.digest)
                == (d.kind, &d.profile, &d.protocol_version, &d.digest)
        };
        match first.declarations.iter_mut().find(same) {
            Some(e) => {
                e.used.extend(d.used);
                e.used.sort();
                e.used.dedup();
            }
            None => first.declarations.push(d),
        }
    }
    first.declarations.sort();
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Layer;
    use crate::report::{ContractResult, InteractionResult};

    fn report(findings: Vec<Finding>) -> VerificationReport {
        let outcome = match findings.is_empty() {
            true => Outcome::Passed,
            false => Outcome::Failed,
        };
        let interaction = InteractionResult {
            index: 0,
            interaction_id: None,
            description: "draft".into(),
            interaction_type: "A2A/Task",
            pending: false,
            outcome,
            findings,
            warnings: Vec::new(),
            checks: Vec::new(),
            duration_ms: 1,
            states_not_set_up: false,
            trace_id: None,
            downstream: Vec::new(),
        };
        VerificationReport {
            provider: "p".into(),
            provider_version: None,
            contracts: vec![ContractResult {
                consumer: "c".into(),
                provider: "p".into(),
                source: "s".into(),
                pending: false,
                wip: false,
                findings: Vec::new(),
                interactions: vec![interaction],
            }],
            declarations: Vec::new(),
        }
    }

    fn finding(code: &'static str) -> Finding {
        Finding::new(Layer::Protocol, code, "x", "why")
    }

    fn codes(r: &VerificationReport) -> Vec<(String, Outcome)> {
        r.contracts[0].interactions[0]
            .findings
            .iter()
            .map(|f| (f.detail.to_string(), r.contracts[0].interactions[0].outcome))
            .collect()
    }

    #[test]
    fn findings_of_both_runs_name_their_binding_in_one_result() {
        let one = report(vec![finding(codes::CONTENT_MODE_MISMATCH)]);
        let two = report(vec![finding(codes::CONTENT_MODE_MISMATCH)]);
        let merged = merge(one, two);
        assert_eq!(
            codes(&merged),
            [
                ("[JSONRPC] why".to_owned(), Outcome::Failed),
                ("[HTTP+JSON] why".to_owned(), Outcome::Failed)
            ]
        );
        assert_eq!(merged.contracts[0].interactions[0].duration_ms, 2);
    }

    #[test]
    fn a_binding_the_card_does_not_offer_is_left_out_either_way() {
        let unsupported = || report(vec![finding(codes::UNSUPPORTED_PROTOCOL_BINDING)]);
        let merged = merge(report(Vec::new()), unsupported());
        assert_eq!(merged.contracts[0].interactions[0].outcome, Outcome::Passed);
        let merged = merge(unsupported(), report(Vec::new()));
        assert_eq!(merged.contracts[0].interactions[0].outcome, Outcome::Passed);
        assert!(merged.contracts[0].interactions[0].findings.is_empty());
        let merged = merge(
            unsupported(),
            report(vec![finding(codes::ERROR_CODE_MISMATCH)]),
        );
        assert_eq!(
            codes(&merged),
            [("[HTTP+JSON] why".to_owned(), Outcome::Failed)]
        );
    }
}
