//! The plan of a run: the contracts loaded (and filtered by consumer),
//! their chains in one queue, what cannot be run, and the report assembled
//! in contract and interaction order from what the lanes did.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use accord_dsl::Interaction;

use crate::config::{SourcedContract, VerifyConfig};
use crate::driver::Driver;
use crate::error::VerifyError;
use crate::report::{ContractResult, InteractionResult, VerificationReport};
use crate::run::{Progress, selected};
use crate::schedule::chains;

/// Results by contract index.
pub(crate) type Done = Vec<(usize, InteractionResult)>;

/// The contracts and the queue of their chains, in contract order.
pub(crate) struct Plan {
    pub(crate) contracts: Vec<Arc<SourcedContract>>,
    /// Per contract, why it cannot be run (a broker's pact stored before
    /// the broker refused such contracts); empty when it can.
    pub(crate) unrunnable: Vec<Vec<String>>,
    queue: Mutex<VecDeque<(usize, Vec<usize>)>>,
}

impl Plan {
    /// Schedules the chains of the contracts (as [`crate::load`] gave
    /// them) and tells `progress` how many interactions will run.
    pub(crate) fn new(
        config: &VerifyConfig,
        loaded: Vec<SourcedContract>,
        progress: Option<&dyn Progress>,
    ) -> Result<Plan, VerifyError> {
        let contracts: Vec<Arc<SourcedContract>> = loaded
            .into_iter()
            .filter(|c| config.filter.keeps_consumer(&c.contract.consumer.name))
            .map(Arc::new)
            .collect();
        let queue: VecDeque<(usize, Vec<usize>)> = contracts
            .iter()
            .enumerate()
            .flat_map(|(n, c)| schedule(config, c).into_iter().map(move |chain| (n, chain)))
            .collect();
        let unrunnable: Vec<Vec<String>> = contracts
            .iter()
            .map(|c| crate::load::unrunnable(c))
            .collect();
        // what is refused as unrunnable is never sent: it needs nothing
        let runnable: VecDeque<_> = queue
            .iter()
            .filter(|(n, _)| unrunnable.get(*n).is_none_or(Vec::is_empty))
            .cloned()
            .collect();
        crate::preflight::check(config, &contracts, &runnable)?;
        if let Some(p) = progress {
            p.planned(queue.iter().map(|(_, chain)| chain.len()).sum());
        }
        Ok(Plan {
            contracts,
            unrunnable,
            queue: Mutex::new(queue),
        })
    }

    pub(crate) fn chains(&self) -> usize {
        self.queue.lock().map_or(0, |q| q.len())
    }

    /// The next chain, or `None` when the queue is empty (or poisoned by
    /// a panicked lane, whose thread reports it).
    pub(crate) fn next(&self) -> Option<(usize, Vec<usize>)> {
        self.queue.lock().ok()?.pop_front()
    }

    /// The interactions the run will send: the queued chains of the
    /// contracts that can be run, before any is taken.
    pub(crate) fn scheduled(&self) -> Vec<&Interaction> {
        let queue = self.queue.lock().map(|q| q.clone()).unwrap_or_default();
        queue
            .into_iter()
            .filter(|(n, _)| self.unrunnable.get(*n).is_none_or(Vec::is_empty))
            .filter_map(|(n, chain)| Some((self.contracts.get(n)?, chain)))
            .flat_map(|(sourced, chain)| {
                let all = &sourced.contract.interactions;
                chain.into_iter().filter_map(move |i| all.get(i))
            })
            .collect()
    }

    /// Stops handing out chains (after an operational failure).
    pub(crate) fn abandon(&self) {
        if let Ok(mut q) = self.queue.lock() {
            q.clear();
        }
    }

    /// The report, in contract and interaction order.
    pub(crate) fn report(
        &self,
        config: &VerifyConfig,
        mut done: Done,
        mut own: Vec<Vec<crate::finding::Finding>>,
        drivers: &[Arc<dyn Driver>],
    ) -> VerificationReport {
        let mut declarations: Vec<_> = drivers.iter().flat_map(|d| d.declarations()).collect();
        declarations.sort();
        done.sort_by_key(|(contract, i)| (*contract, i.index));
        let mut by_contract: Vec<Vec<InteractionResult>> = vec![Vec::new(); self.contracts.len()];
        for (contract, result) in done {
            if let Some(list) = by_contract.get_mut(contract) {
                list.push(result);
            }
        }
        VerificationReport {
            declarations,
            provider: config.provider.clone(),
            provider_version: config.provider_version.clone(),
            contracts: self
                .contracts
                .iter()
                .zip(by_contract)
                .enumerate()
                .map(|(n, (sourced, interactions))| {
                    let mut result = contract_result(sourced, interactions);
                    result.findings = own.get_mut(n).map(std::mem::take).unwrap_or_default();
                    result
                })
                .collect(),
        }
    }
}

/// The chains of a contract: with one job, all its interactions in order
/// (exactly Pact's sequence); with more, one chain per shared state.
fn schedule(config: &VerifyConfig, sourced: &SourcedContract) -> Vec<Vec<usize>> {
    let keep = |i: &Interaction| selected(&config.filter, i);
    let interactions = &sourced.contract.interactions;
    if config.jobs > 1 {
        return chains(interactions, keep);
    }
    let all: Vec<usize> = (0..interactions.len())
        .filter(|&n| interactions.get(n).is_some_and(keep))
        .collect();
    if all.is_empty() {
        Vec::new()
    } else {
        vec![all]
    }
}

fn contract_result(
    sourced: &SourcedContract,
    interactions: Vec<InteractionResult>,
) -> ContractResult {
    ContractResult {
        findings: Vec::new(),
        consumer: sourced.contract.consumer.name.clone(),
        provider: sourced.contract.provider.name.clone(),
        source: sourced.source.clone(),
        pending: sourced.pending || sourced.wip,
        wip: sourced.wip,
        interactions,
    }
}
