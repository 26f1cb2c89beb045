//! The run: load the contracts, replay them `jobs` chains at a time (a
//! chain: the interactions of one contract that share provider states, in
//! contract order; see [`crate::schedule`]), and assemble the report in
//! contract and interaction order, so results are the same whatever the
//! parallelism.

use std::sync::Arc;

use accord_dsl::Interaction;

use crate::config::{Filter, SourcedContract, VerifyConfig};
use crate::driver::Driver;
use crate::error::VerifyError;
use crate::http_driver::HttpDriver;
use crate::load::load;
use crate::message_driver::MessageDriver;
use crate::replay::{Context, replay};
use crate::report::{ContractResult, InteractionResult, VerificationReport};
use crate::schedule::chains;
use crate::transport::Transport;

/// Told how many interactions will be replayed, then each interaction's
/// result as soon as it is known (for progress output).
pub trait Progress: Send + Sync {
    /// Called once, before the first interaction, with how many will run
    /// (after the filters).
    fn planned(&self, _interactions: usize) {}
    /// Called with each result and its consumer's name, in completion
    /// order (which, with `jobs` > 1, is not contract order).
    fn finished(&self, consumer: &str, result: &InteractionResult);
}

/// The drivers this crate provides: HTTP and messages.
pub fn default_drivers() -> Vec<Arc<dyn Driver>> {
    vec![Arc::new(HttpDriver), Arc::new(MessageDriver)]
}

/// Verifies with the default drivers, on a runtime of its own. Not for
/// use inside an async runtime (it would nest runtimes): call [`verify`].
pub fn verify_blocking(config: &VerifyConfig) -> Result<VerificationReport, VerifyError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.jobs.clamp(1, 8))
        .enable_all()
        .build()
        .map_err(VerifyError::Runtime)?;
    runtime.block_on(verify(config, default_drivers(), None))
}

/// Verifies every contract of the configuration against the provider.
/// `Err` only for an operational failure.
pub async fn verify(
    config: &VerifyConfig,
    drivers: Vec<Arc<dyn Driver>>,
    progress: Option<Arc<dyn Progress>>,
) -> Result<VerificationReport, VerifyError> {
    let contracts = load(&config.source, &config.provider)?;
    let cx = Arc::new(context(config, drivers)?);
    let permits = Arc::new(tokio::sync::Semaphore::new(config.jobs.max(1)));
    let plans: Vec<(Arc<SourcedContract>, Vec<Vec<usize>>)> = contracts
        .into_iter()
        .map(|sourced| {
            let chains = schedule(config, &sourced);
            (Arc::new(sourced), chains)
        })
        .collect();
    if let Some(p) = &progress {
        p.planned(plans.iter().flat_map(|(_, c)| c).map(Vec::len).sum());
    }
    let mut scheduled = Vec::new();
    for (sourced, chains) in plans {
        let mut tasks = Vec::new();
        for chain in chains {
            let run = ChainRun {
                cx: cx.clone(),
                sourced: sourced.clone(),
                progress: progress.clone(),
            };
            let permits = permits.clone();
            tasks.push(tokio::spawn(async move {
                let _permit = permits.acquire_owned().await;
                run.replay(chain).await
            }));
        }
        scheduled.push((sourced, tasks));
    }
    let mut results = Vec::new();
    for (sourced, tasks) in scheduled {
        let mut interactions = Vec::new();
        for task in tasks {
            interactions.extend(task.await.map_err(VerifyError::Task)??);
        }
        interactions.sort_by_key(|i| i.index);
        results.push(contract_result(&sourced, interactions));
    }
    Ok(VerificationReport {
        provider: config.provider.clone(),
        provider_version: config.provider_version.clone(),
        contracts: results,
    })
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

/// One chain of one contract, replayed in order.
struct ChainRun {
    cx: Arc<Context>,
    sourced: Arc<SourcedContract>,
    progress: Option<Arc<dyn Progress>>,
}

impl ChainRun {
    async fn replay(self, chain: Vec<usize>) -> Result<Vec<InteractionResult>, VerifyError> {
        let contract = &self.sourced.contract;
        let mut out = Vec::new();
        for index in chain {
            let Some(interaction) = contract.interactions.get(index) else {
                continue;
            };
            let pending = self.sourced.pending || self.sourced.wip;
            let result = replay(&self.cx, index, interaction, pending).await?;
            if let Some(p) = &self.progress {
                p.finished(&contract.consumer.name, &result);
            }
            out.push(result);
        }
        Ok(out)
    }
}

fn contract_result(
    sourced: &SourcedContract,
    interactions: Vec<InteractionResult>,
) -> ContractResult {
    ContractResult {
        consumer: sourced.contract.consumer.name.clone(),
        provider: sourced.contract.provider.name.clone(),
        source: sourced.source.clone(),
        pending: sourced.pending || sourced.wip,
        wip: sourced.wip,
        interactions,
    }
}

fn context(config: &VerifyConfig, drivers: Vec<Arc<dyn Driver>>) -> Result<Context, VerifyError> {
    let checked = |what: &'static str, url: &str| -> Result<String, VerifyError> {
        match reqwest::Url::parse(url) {
            Ok(u) if u.scheme() == "http" || u.scheme() == "https" => Ok(url.to_string()),
            _ => Err(VerifyError::InvalidUrl {
                what,
                url: url.to_string(),
            }),
        }
    };
    let base_url = checked("the provider base URL", &config.provider_base_url)?;
    let message_url = match &config.message_url {
        Some(u) => checked("the message URL", u)?,
        None => base_url.clone(),
    };
    let optional =
        |what, url: &Option<String>| url.as_deref().map(|u| checked(what, u)).transpose();
    Ok(Context {
        transport: Transport::new(config.limits.clone())?,
        base_url,
        message_url,
        state_change_url: optional("the state-change URL", &config.state_change_url)?,
        observe_url: optional("the observation URL", &config.observe_url)?,
        principals: config.principals.clone(),
        drivers,
        observe_lock: tokio::sync::Mutex::new(()),
    })
}

/// True when the interaction passes the description and state filters.
pub fn selected(filter: &Filter, interaction: &Interaction) -> bool {
    let meta = interaction.meta();
    let description = filter
        .description
        .as_ref()
        .is_none_or(|r| r.is_match(&meta.description));
    let state = filter
        .state
        .as_ref()
        .is_none_or(|r| meta.provider_states.iter().any(|s| r.is_match(&s.name)));
    description && state
}
