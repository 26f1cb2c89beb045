//! The run: load the contracts, replay them (`jobs` contracts at a time,
//! interactions of one contract in order), and assemble the report in
//! contract order, so results are the same whatever the parallelism.

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
use crate::transport::Transport;

/// Called with each interaction's result as soon as it is known (for
/// progress output), with the consumer's name.
pub type Progress = Arc<dyn Fn(&str, &InteractionResult) + Send + Sync>;

/// The drivers this crate provides: HTTP and messages.
pub fn default_drivers() -> Vec<Arc<dyn Driver>> {
    vec![Arc::new(HttpDriver), Arc::new(MessageDriver)]
}

/// Verifies with the default drivers, on a runtime of its own.
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
    progress: Option<Progress>,
) -> Result<VerificationReport, VerifyError> {
    let contracts = load(&config.source, &config.provider)?;
    let cx = Arc::new(context(config, drivers)?);
    let permits = Arc::new(tokio::sync::Semaphore::new(config.jobs.max(1)));
    let mut tasks = Vec::new();
    for contract in contracts {
        let (cx, permits, progress) = (cx.clone(), permits.clone(), progress.clone());
        let filter = config.filter.clone();
        tasks.push(tokio::spawn(async move {
            let _permit = permits.acquire_owned().await;
            verify_contract(&cx, contract, &filter, progress.as_ref()).await
        }));
    }
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.map_err(VerifyError::Task)??);
    }
    Ok(VerificationReport {
        provider: config.provider.clone(),
        provider_version: config.provider_version.clone(),
        contracts: results,
    })
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

async fn verify_contract(
    cx: &Context,
    sourced: SourcedContract,
    filter: &Filter,
    progress: Option<&Progress>,
) -> Result<ContractResult, VerifyError> {
    let contract = &sourced.contract;
    let mut interactions = Vec::new();
    for (index, interaction) in contract.interactions.iter().enumerate() {
        if !selected(filter, interaction) {
            continue;
        }
        let result = replay(cx, index, interaction, sourced.pending).await?;
        if let Some(p) = progress {
            p(&contract.consumer.name, &result);
        }
        interactions.push(result);
    }
    Ok(ContractResult {
        consumer: contract.consumer.name.clone(),
        provider: contract.provider.name.clone(),
        source: sourced.source,
        pending: sourced.pending,
        interactions,
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
