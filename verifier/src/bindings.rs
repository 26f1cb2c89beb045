//! `--a2a-binding all`: every `A2A/Task` interaction is replayed once over
//! each binding the verifier speaks (JSON-RPC, then HTTP+JSON), as two
//! runs whose results are merged into one per interaction — a finding
//! says which binding it was seen on. The second run replays only the A2A
//! interactions. A binding the Agent Card does not offer is left out (its
//! only finding would be UNSUPPORTED_PROTOCOL_BINDING); the card offering
//! neither is reported by the first run.

use accord_dsl::Interaction;

use crate::config::{A2aBinding, VerifyConfig};
use crate::finding::{Finding, codes};
use crate::report::{Outcome, VerificationReport};

/// The two runs of `--a2a-binding all`; `None` for any other choice.
pub(crate) fn passes(config: &VerifyConfig) -> Option<(VerifyConfig, VerifyConfig)> {
    if config.a2a_binding != A2aBinding::All {
        return None;
    }
    let mut first = config.clone();
    first.a2a_binding = A2aBinding::JsonRpc;
    let mut second = config.clone();
    second.a2a_binding = A2aBinding::HttpJson;
    second.filter.a2a_only = true;
    Some((first, second))
}

/// True when the interaction is replayed by a run with `a2a_only`.
pub(crate) fn replayed(a2a_only: bool, interaction: &Interaction) -> bool {
    !a2a_only || matches!(interaction, Interaction::A2aTask(_))
}

fn tagged(mut f: Finding, binding: &str) -> Finding {
    f.detail = format!("[{binding}] {}", f.detail);
    f
}

/// The first run's report with the second run's A2A results merged in.
pub(crate) fn merge(
    mut first: VerificationReport,
    second: VerificationReport,
) -> VerificationReport {
    for (mine, theirs) in first.contracts.iter_mut().zip(second.contracts) {
        if (&mine.consumer, &mine.source) != (&theirs.consumer, &theirs.source) {
            continue;
        }
        for other in theirs.interactions {
            let not_offered = matches!(other.findings.as_slice(),
                [only] if only.reason_code == codes::UNSUPPORTED_PROTOCOL_BINDING);
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
            one.findings = std::mem::take(&mut one.findings)
                .into_iter()
                .map(|f| tagged(f, "JSONRPC"))
                .chain(other.findings.into_iter().map(|f| tagged(f, "HTTP+JSON")))
                .collect();
            one.warnings
                .extend(other.warnings.into_iter().map(|f| tagged(f, "HTTP+JSON")));
            one.checks.extend(other.checks);
            one.duration_ms += other.duration_ms;
            one.states_not_set_up |= other.states_not_set_up;
            if !one.findings.is_empty() {
                one.outcome = Outcome::Failed;
            }
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
