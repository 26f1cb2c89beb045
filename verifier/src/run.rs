//! The run: load the contracts, queue their chains (a chain: the
//! interactions of one contract that share provider states, in contract
//! order; see [`crate::schedule`]), replay them `jobs` chains at a time, and
//! assemble the report in contract and interaction order, so results are
//! the same whatever the parallelism.

use std::sync::Arc;

use accord_dsl::Interaction;

use crate::conclude::conclude;
use crate::config::{ContractSource, Filter, SourcedContract, VerifyConfig};
use crate::driver::Driver;
use crate::error::VerifyError;
use crate::http_driver::HttpDriver;
use crate::message_driver::MessageDriver;
use crate::plan::{Done, Plan};
use crate::replay::{Context, replay};
use crate::report::{InteractionResult, VerificationReport};

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

/// The drivers this crate provides: HTTP, messages and MCP.
pub fn default_drivers() -> Vec<Arc<dyn Driver>> {
    vec![
        Arc::new(HttpDriver),
        Arc::new(MessageDriver),
        Arc::new(crate::mcp::McpDriver::default()),
        Arc::new(crate::a2a::A2aDriver::default()),
    ]
}

/// Verifies with the default drivers on threads of its own: see
/// [`verify_on_threads`]. Not for use inside an async runtime.
pub fn verify_blocking(config: &VerifyConfig) -> Result<VerificationReport, VerifyError> {
    verify_on_threads(config, default_drivers(), None)
}

/// Verifies on `min(jobs, cores)` threads, each a single-threaded runtime
/// with its own connection pool, taking chains from one shared queue;
/// `jobs` chains are in flight in all. A chain's requests and their
/// connection tasks stay on one thread, which costs less CPU per request
/// than a work-stealing runtime (measured in `verifier/bench/compare.sh`).
/// Not for use inside an async runtime (it would nest runtimes): there,
/// call [`verify`].
pub fn verify_on_threads(
    config: &VerifyConfig,
    drivers: Vec<Arc<dyn Driver>>,
    progress: Option<Arc<dyn Progress>>,
) -> Result<VerificationReport, VerifyError> {
    let runs = crate::bindings::passes(config)?;
    if let Some((first, rest)) = runs.as_deref().and_then(<[VerifyConfig]>::split_first) {
        let mut merged = verify_planned(first, drivers.clone(), progress.clone())?;
        for run in rest {
            let report = verify_planned(run, drivers.clone(), progress.clone())?;
            merged = crate::bindings::merge(merged, report);
        }
        return Ok(merged);
    }
    verify_planned(config, drivers, progress)
}

/// [`verify_on_threads`] taking the configuration: its loaded contracts
/// are moved into the run, not copied (the CLI's call).
pub fn verify_on_threads_owned(
    mut config: VerifyConfig,
    drivers: Vec<Arc<dyn Driver>>,
    progress: Option<Arc<dyn Progress>>,
) -> Result<VerificationReport, VerifyError> {
    if crate::bindings::passes(&config)?.is_some() {
        return verify_on_threads(&config, drivers, progress);
    }
    let source = std::mem::replace(&mut config.source, ContractSource::Files(Vec::new()));
    let loaded = crate::load::load_owned(source, &config.provider)?;
    verify_planned_from(&config, loaded, drivers, progress)
}

/// [`verify_on_threads`] of one run.
fn verify_planned(
    config: &VerifyConfig,
    drivers: Vec<Arc<dyn Driver>>,
    progress: Option<Arc<dyn Progress>>,
) -> Result<VerificationReport, VerifyError> {
    let loaded = crate::load::load(&config.source, &config.provider)?;
    verify_planned_from(config, loaded, drivers, progress)
}

fn verify_planned_from(
    config: &VerifyConfig,
    loaded: Vec<SourcedContract>,
    drivers: Vec<Arc<dyn Driver>>,
    progress: Option<Arc<dyn Progress>>,
) -> Result<VerificationReport, VerifyError> {
    let plan = Arc::new(Plan::new(config, loaded, progress.as_deref())?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(VerifyError::Runtime)?;
    let observe_lock = Arc::new(tokio::sync::Mutex::new(()));
    let cx = Context::new(config, drivers.clone(), observe_lock.clone())?;
    let endpoints = crate::reach::endpoints(config, &cx, &plan);
    runtime.block_on(crate::reach::check(&cx.transport, &endpoints))?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = config.jobs.max(1).min(cores).min(plan.chains().max(1));
    cx.transport.leave_a_core(threads);
    let cx = Arc::new(cx);
    let done = if threads == 1 {
        // one thread: this one, its runtime and its client (no second
        // connection pool, TLS roots read once)
        let lanes = config.jobs.max(1);
        runtime.block_on(drain(cx.clone(), plan.clone(), lanes, progress))?
    } else {
        on_threads(config, threads, &drivers, &observe_lock, &plan, &progress)?
    };
    let own = runtime.block_on(conclude(&cx, &plan.contracts));
    let report = plan.report(config, done, own, &cx.drivers);
    drop_aside(plan);
    Ok(report)
}

/// From this many interactions on, a plan is dropped on a thread of its
/// own: freeing a large model takes milliseconds (~1.7 ms for 1,000
/// HTTP interactions) the caller need not wait for.
const DROP_ASIDE_FROM: usize = 256;

/// Drops the plan (its contracts) on another thread when it is large.
fn drop_aside(plan: Arc<Plan>) {
    let size: usize = plan
        .contracts
        .iter()
        .map(|c| c.contract.interactions.len())
        .sum();
    if size >= DROP_ASIDE_FROM {
        let _ = std::thread::Builder::new()
            .name("accord-drop".into())
            .spawn(move || drop(plan));
    }
}

/// Drains the plan on `threads` threads, each a single-threaded runtime
/// with its own context (and so its own connection pool).
fn on_threads(
    config: &VerifyConfig,
    threads: usize,
    drivers: &[Arc<dyn Driver>],
    observe_lock: &Arc<tokio::sync::Mutex<()>>,
    plan: &Arc<Plan>,
    progress: &Option<Arc<dyn Progress>>,
) -> Result<Done, VerifyError> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|n| {
                let lanes = share(config.jobs.max(1), threads, n);
                let cx = Context::new(config, drivers.to_vec(), observe_lock.clone());
                let (plan, progress) = (plan.clone(), progress.clone());
                scope.spawn(move || -> Result<Done, VerifyError> {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .map_err(VerifyError::Runtime)?;
                    let cx = cx?;
                    cx.transport.leave_a_core(threads);
                    runtime.block_on(drain(Arc::new(cx), plan, lanes, progress))
                })
            })
            .collect();
        let mut done = Done::new();
        for handle in handles {
            done.extend(handle.join().map_err(|_| VerifyError::ThreadPanicked)??);
        }
        Ok::<_, VerifyError>(done)
    })
}

/// Verifies every contract of the configuration against the provider,
/// on the caller's runtime with `jobs` chains in flight. `Err` only for an
/// operational failure.
pub async fn verify(
    config: &VerifyConfig,
    drivers: Vec<Arc<dyn Driver>>,
    progress: Option<Arc<dyn Progress>>,
) -> Result<VerificationReport, VerifyError> {
    let runs = crate::bindings::passes(config)?;
    if let Some((first, rest)) = runs.as_deref().and_then(<[VerifyConfig]>::split_first) {
        let mut merged = verify_one(first, drivers.clone(), progress.clone()).await?;
        for run in rest {
            let report = verify_one(run, drivers.clone(), progress.clone()).await?;
            merged = crate::bindings::merge(merged, report);
        }
        return Ok(merged);
    }
    verify_one(config, drivers, progress).await
}

/// [`verify`] of one run.
async fn verify_one(
    config: &VerifyConfig,
    drivers: Vec<Arc<dyn Driver>>,
    progress: Option<Arc<dyn Progress>>,
) -> Result<VerificationReport, VerifyError> {
    let loaded = crate::load::load(&config.source, &config.provider)?;
    let plan = Arc::new(Plan::new(config, loaded, progress.as_deref())?);
    let observe_lock = Arc::new(tokio::sync::Mutex::new(()));
    let cx = Arc::new(Context::new(config, drivers, observe_lock)?);
    let endpoints = crate::reach::endpoints(config, &cx, &plan);
    crate::reach::check(&cx.transport, &endpoints).await?;
    let done = drain(cx.clone(), plan.clone(), config.jobs.max(1), progress).await?;
    let own = conclude(&cx, &plan.contracts).await;
    Ok(plan.report(config, done, own, &cx.drivers))
}

/// Thread `n`'s share of `jobs` lanes over `threads` threads.
fn share(jobs: usize, threads: usize, n: usize) -> usize {
    jobs / threads + usize::from(n < jobs % threads)
}

/// Runs `lanes` tasks on the current runtime, each replaying chains from
/// the plan's queue until it is empty.
async fn drain(
    cx: Arc<Context>,
    plan: Arc<Plan>,
    lanes: usize,
    progress: Option<Arc<dyn Progress>>,
) -> Result<Done, VerifyError> {
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..lanes.max(1) {
        let (cx, plan, progress) = (cx.clone(), plan.clone(), progress.clone());
        tasks.spawn(async move {
            let mut done = Done::new();
            while let Some((contract, chain)) = plan.next() {
                let sourced = plan.contracts.get(contract).cloned();
                let Some(sourced) = sourced else { continue };
                let refused = plan.unrunnable.get(contract).map_or(&[][..], Vec::as_slice);
                let replayed = if refused.is_empty() {
                    replay_chain(&cx, &sourced, chain, progress.as_deref()).await
                } else {
                    Ok(refuse_chain(&sourced, chain, refused, progress.as_deref()))
                };
                match replayed {
                    Ok(results) => done.extend(results.into_iter().map(|r| (contract, r))),
                    Err(e) => {
                        plan.abandon();
                        return Err(e);
                    }
                }
            }
            Ok(done)
        });
    }
    let mut done = Done::new();
    while let Some(lane) = tasks.join_next().await {
        done.extend(lane.map_err(VerifyError::Task)??);
    }
    Ok(done)
}

/// One chain of one contract, replayed in order.
async fn replay_chain(
    cx: &Context,
    sourced: &SourcedContract,
    chain: Vec<usize>,
    progress: Option<&dyn Progress>,
) -> Result<Vec<InteractionResult>, VerifyError> {
    let contract = &sourced.contract;
    let pending = sourced.pending || sourced.wip;
    let mut out = Vec::new();
    for index in chain {
        let Some(interaction) = contract.interactions.get(index) else {
            continue;
        };
        let result = replay(cx, index, interaction, pending, contract).await?;
        if let Some(p) = progress {
            p.finished(&contract.consumer.name, &result);
        }
        out.push(result);
    }
    Ok(out)
}

/// A chain of a contract that cannot be run: each interaction fails with
/// CONTRACT_UNRUNNABLE and nothing is sent.
fn refuse_chain(
    sourced: &SourcedContract,
    chain: Vec<usize>,
    problems: &[String],
    progress: Option<&dyn Progress>,
) -> Vec<InteractionResult> {
    let pending = sourced.pending || sourced.wip;
    let contract = &sourced.contract;
    chain
        .into_iter()
        .filter_map(|index| {
            let interaction = contract.interactions.get(index)?;
            let result = crate::replay::not_run(index, interaction, pending, problems);
            if let Some(p) = progress {
                p.finished(&contract.consumer.name, &result);
            }
            Some(result)
        })
        .collect()
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
    let stateless = !filter.no_state || meta.provider_states.is_empty();
    let kind = crate::bindings::replayed(filter.a2a_only, interaction);
    description && state && stateless && kind
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn lanes_are_shared_out_so_that_jobs_chains_are_in_flight_in_all() {
        for jobs in 1..12 {
            for threads in 1..=jobs {
                let lanes: Vec<usize> = (0..threads).map(|n| share(jobs, threads, n)).collect();
                assert_eq!(lanes.iter().sum::<usize>(), jobs);
                assert!(
                    lanes.iter().all(|&l| l >= 1),
                    "{jobs} over {threads}: {lanes:?}"
                );
                let spread = lanes.iter().max().unwrap_or(&0) - lanes.iter().min().unwrap_or(&0);
                assert!(spread <= 1, "{lanes:?}");
            }
        }
    }
}
