//! Before the first request: everything the run will need that can be
//! known from the contracts and the configuration. A run that would stop
//! at its 17th interaction for want of an `--observe-url` is refused up
//! front, naming every missing piece.

use std::collections::VecDeque;
use std::sync::Arc;

use accord_dsl::Interaction;
use accord_dsl::model::accord::{Auth, Credential};

use crate::config::{SourcedContract, VerifyConfig};
use crate::error::VerifyError;
use crate::replay::MAX_REPEAT;

/// The problems of the scheduled interactions: none, the one (as its own
/// error), or all of them.
pub fn check(
    config: &VerifyConfig,
    contracts: &[Arc<SourcedContract>],
    queue: &VecDeque<(usize, Vec<usize>)>,
) -> Result<(), VerifyError> {
    let mut problems = Vec::new();
    for (n, chain) in queue {
        let Some(sourced) = contracts.get(*n) else {
            continue;
        };
        for i in chain {
            if let Some(interaction) = sourced.contract.interactions.get(*i) {
                problems.extend(of(config, interaction));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert(p.to_string()));
    match problems.len() {
        0 => Ok(()),
        1 => Err(problems.remove(0)),
        _ => Err(VerifyError::CannotRun(problems)),
    }
}

/// What one interaction needs that the configuration does not give.
fn of(config: &VerifyConfig, interaction: &Interaction) -> Vec<VerifyError> {
    let meta = interaction.meta();
    let e = &meta.expectations;
    let name = || meta.description.clone();
    let mut out = Vec::new();
    // an A2A follow-up's own `sideEffects` are read around it
    let follow_ups_count = match interaction {
        Interaction::A2aTask(a2a) => a2a.task.follow_ups.iter().any(|f| f.side_effects.is_some()),
        _ => false,
    };
    let counted = e.side_effects.is_some() || e.approval.is_some() || follow_ups_count;
    if counted && config.observe_url.is_none() {
        out.push(VerifyError::ObservationRequired {
            interaction: name(),
        });
    }
    if let Some(times) = e
        .repeat
        .as_ref()
        .map(|r| r.times)
        .filter(|t| *t > MAX_REPEAT)
    {
        out.push(VerifyError::RepeatTooLarge {
            interaction: name(),
            times,
            max: MAX_REPEAT,
        });
    }
    // a token can come from a state's reply only when states are set up
    let states_issue = config.state_change_url.is_some() && !meta.provider_states.is_empty();
    let known = |p: &str| states_issue || config.principals.contains_key(p);
    // the interaction's own credential, its probes', its follow-ups'
    let mut auths: Vec<&Auth> = e.auth.iter().collect();
    if let Interaction::A2aTask(a2a) = interaction {
        auths.extend(a2a.task.follow_ups.iter().filter_map(|f| f.auth.as_ref()));
    }
    for auth in auths {
        if auth.credential == Credential::Expired && !states_issue {
            out.push(VerifyError::NoExpiredCredential {
                interaction: name(),
            });
        }
        let sent_as = auth
            .principal
            .as_deref()
            .filter(|_| auth.credential == Credential::Valid);
        let probing = auth.probes.iter().map(|p| p.principal.as_str());
        for principal in sent_as.into_iter().chain(probing) {
            if !known(principal) {
                out.push(VerifyError::UnknownPrincipal {
                    interaction: name(),
                    principal: principal.to_owned(),
                });
            }
        }
    }
    out
}
