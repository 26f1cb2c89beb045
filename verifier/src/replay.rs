//! Replaying one interaction: provider states, the principal's credential,
//! observations around the sends, and the behavioural, temporal and
//! authorization judgements around the driver's own.

use std::time::Instant;

use accord_dsl::Interaction;
use accord_dsl::model::InteractionMeta;
use serde_json::{Map, Value};

pub use crate::context::Context;
use crate::credential::Presented;
use crate::driver::{Authorization, Exchange, Sent};
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::release::Release;
use crate::report::{InteractionResult, Outcome};
use crate::states::{Action, change_states, generator_values};

/// Most sends one interaction's `repeat` may ask for: a contract (perhaps
/// from a hostile broker) must not keep a run busy for ever.
pub const MAX_REPEAT: u32 = 1000;

/// Replays one interaction and judges it, as one trace: every A2A and
/// MCP request it makes carries that trace's `traceparent`.
pub async fn replay(
    cx: &Context,
    index: usize,
    interaction: &Interaction,
    contract_pending: bool,
    contract: &accord_dsl::Contract,
) -> Result<InteractionResult, VerifyError> {
    let trace = crate::trace::Trace::new(cx.run_id.clone());
    let replayed = crate::trace::within(
        trace.clone(),
        replay_traced(cx, index, interaction, contract_pending, contract),
    )
    .await?;
    Ok(InteractionResult {
        // only where a request carried it (A2A and MCP, not Pact HTTP)
        trace_id: trace.was_used().then(|| trace.trace_id().to_owned()),
        ..replayed
    })
}

async fn replay_traced(
    cx: &Context,
    index: usize,
    interaction: &Interaction,
    contract_pending: bool,
    contract: &accord_dsl::Contract,
) -> Result<InteractionResult, VerifyError> {
    let start = Instant::now();
    let meta = interaction.meta();
    let states = &meta.provider_states;
    let url = cx.state_change.as_ref();
    let mut findings = Vec::new();
    let mut warnings = Vec::new();
    let mut checks = Vec::new();
    // Observed windows never overlap, and hold the state changes too: a
    // setup or teardown of another chain would move the counters.
    // With stand-ins, downstream calls are attributed by time: one
    // interaction at a time, as observed ones.
    let _window = match (&cx.observe_url, &cx.downstream) {
        (None, None) => None,
        _ => Some(cx.observe_lock.lock().await),
    };
    let dependencies = cx
        .downstream
        .as_ref()
        .map(crate::downstream::Downstream::state_param);
    let (dependencies, mut downstream) = (dependencies.as_ref(), Vec::new());
    // As in Pact, a failed setup skips the interaction and the teardown.
    match change_states(&cx.transport, url, states, Action::Setup, dependencies).await {
        Ok(replies) => {
            let values = generator_values(states, &replies);
            // the teardown follows the interaction's last request; it goes
            // out before the answer is judged when nothing after the send
            // reaches the provider (`crate::release`)
            let release = Release::new(early_teardown(cx, meta, url, states));
            let exercised = async {
                let done = exercise(cx, interaction, &values, &replies, contract, Some(&release));
                let done = done.await;
                release.finish(done.is_ok());
                done
            };
            let teardown = async {
                if !release.wait().await {
                    return Ok(Map::new());
                }
                change_states(&cx.transport, url, states, Action::Teardown, dependencies).await
            };
            let (exercised, torn) = tokio::join!(exercised, teardown);
            let (done, chain) = exercised?;
            findings.extend(done.findings);
            warnings.extend(done.warnings);
            checks = done.checks;
            downstream = chain;
            if let Err(f) = torn {
                findings.push(f);
            }
        }
        Err(f) => findings.push(f),
    }
    tracing::debug!(
        interaction = %meta.description,
        findings = findings.len(),
        "interaction replayed"
    );
    Ok(InteractionResult {
        index,
        interaction_id: interaction_id(meta),
        description: meta.description.clone(),
        interaction_type: interaction.type_name(),
        pending: contract_pending || meta.pending,
        outcome: if findings.is_empty() {
            Outcome::Passed
        } else {
            Outcome::Failed
        },
        findings,
        warnings,
        checks,
        duration_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
        states_not_set_up: url.is_none() && !states.is_empty(),
        trace_id: None,
        downstream,
    })
}

/// True when nothing of the interaction after its send reaches the
/// provider, so its teardown may go out while the answer is judged: a
/// teardown to send, no observation reads, no stand-ins (their calls are
/// attributed to the interaction by time), no `auth.probes`. The last
/// repeat's send is the one that may release (`sends::send_all`), and only
/// a driver whose own work after the send reaches nothing fires it.
fn early_teardown(
    cx: &Context,
    meta: &InteractionMeta,
    url: Option<&reqwest::Url>,
    states: &[accord_dsl::model::ProviderState],
) -> bool {
    let probes = meta
        .expectations
        .auth
        .as_ref()
        .is_some_and(|a| !a.probes.is_empty());
    url.is_some()
        && !states.is_empty()
        && cx.observe_url.is_none()
        && cx.downstream.is_none()
        && !probes
}

/// The result of an interaction of a contract that cannot be run: failed
/// with CONTRACT_UNRUNNABLE, nothing sent.
pub fn not_run(
    index: usize,
    interaction: &Interaction,
    contract_pending: bool,
    problems: &[String],
) -> InteractionResult {
    let meta = interaction.meta();
    let detail = format!("the contract cannot be run: {}", problems.join("; "));
    InteractionResult {
        index,
        interaction_id: interaction_id(meta),
        description: meta.description.clone(),
        interaction_type: interaction.type_name(),
        pending: contract_pending || meta.pending,
        outcome: Outcome::Failed,
        findings: vec![Finding::new(
            Layer::Protocol,
            codes::CONTRACT_UNRUNNABLE,
            "$",
            detail,
        )],
        warnings: Vec::new(),
        checks: Vec::new(),
        duration_ms: 0,
        states_not_set_up: false,
        trace_id: None,
        downstream: Vec::new(),
    }
}

/// The broker's `_id`, else the V4 `key`.
fn interaction_id(meta: &InteractionMeta) -> Option<String> {
    meta.extra
        .get("_id")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| meta.key.clone())
}

/// Sends the interaction (all its repeats) between observations.
/// `state_values` feed the generators; credentials come from `replies`
/// (what the setup calls answered) only, never from the contract's params.
async fn exercise(
    cx: &Context,
    interaction: &Interaction,
    state_values: &Map<String, Value>,
    replies: &Map<String, Value>,
    contract: &accord_dsl::Contract,
    release: Option<&Release>,
) -> Result<(Sent, Vec<crate::downstream::DownstreamEntry>), VerifyError> {
    let meta = interaction.meta();
    let Some(driver) = cx.drivers.iter().find(|d| d.handles(interaction)) else {
        let detail = format!("no driver replays {} interactions", interaction.type_name());
        let unsupported = Finding::new(
            Layer::Protocol,
            codes::INTERACTION_TYPE_UNSUPPORTED,
            "type",
            detail,
        );
        let sent = Sent {
            findings: vec![unsupported],
            ..Sent::default()
        };
        return Ok((sent, Vec::new()));
    };
    let approval = match crate::approval::resolve(interaction, contract) {
        Some(Err(unchecked)) => {
            let sent = Sent {
                findings: vec![unchecked],
                ..Sent::default()
            };
            return Ok((sent, Vec::new()));
        }
        Some(Ok(a)) => Some(a),
        None => None,
    };
    let counted = meta.expectations.side_effects.is_some() || approval.is_some();
    let observe_url = match (&cx.observe_url, counted) {
        (Some(u), _) => Some(u.as_str()),
        (None, true) => {
            return Err(VerifyError::ObservationRequired {
                interaction: meta.description.clone(),
            });
        }
        (None, false) => None,
    };
    let presented = crate::credential::credential(cx, meta, replies)?;
    let exchange = Exchange {
        transport: &cx.transport,
        base_url: &cx.base_url,
        base_at: cx.base.as_ref(),
        message_url: &cx.message_url,
        state_values,
        authorization: match &presented {
            Presented::AsWritten => Authorization::AsWritten,
            Presented::Bearer(token) => Authorization::Bearer(token),
            Presented::Nothing => Authorization::Without,
        },
        principals: &cx.principals,
        custom_headers: &cx.custom_headers,
        observe_url,
        observe_at: observe_url.and(cx.observe.as_ref()),
        observed: None,
        mcp_url: &cx.mcp_url,
        mcp_at: cx.mcp.as_ref(),
        mcp_unknown_tool: cx.mcp_unknown_tool,
        mcp_version: contract.accord.as_ref().and_then(|a| a.mcp.as_deref()),
        mcp_tools: &contract.mcp_tools,
        interactions: &contract.interactions,
        agent_card_url: &cx.agent_card_url,
        origins: &cx.origins,
        a2a_binding: cx.a2a_binding,
        a2a_status_mapping: cx.a2a_status_mapping,
        agent_card: contract.agent_card.as_ref(),
        // probes and derived checks draw their own values (the sends get
        // theirs from `sends::send_all`)
        generation: crate::driver::Generation {
            seed: rand::random(),
            pin: None,
            views: false,
        },
        release: None,
    };
    let window = cx
        .downstream
        .as_ref()
        .map(crate::downstream::attribute::open);
    let sends = crate::sends::send_all(
        driver.as_ref(),
        interaction,
        &exchange,
        approval.as_ref(),
        release,
    )
    .await?;
    let (mut findings, mut warnings) = (sends.findings, sends.warnings);
    let mut checks = Vec::new();
    if findings.is_empty() && !meta.expectations.refusal_expected() {
        let derived =
            crate::probing::derived(driver.as_ref(), interaction, &exchange, sends.last).await?;
        findings.extend(derived.findings);
        warnings.extend(derived.warnings);
        checks = derived.checks;
    }
    // what never reached the provider created nothing to probe
    if sends.reached {
        let probed =
            crate::probing::probe_all(cx, driver.as_ref(), interaction, &exchange, replies);
        findings.extend(probed.await?);
    }
    let mut chain = Vec::new();
    if let (Some(downstream), Some(window)) = (&cx.downstream, window) {
        let canaries = crate::canary::Canaries::of_exchange(&exchange);
        let (found, observed) = crate::downstream::attribute::close(
            downstream,
            &window,
            interaction,
            contract,
            &canaries,
        );
        findings.extend(found);
        warnings.extend(window.outside);
        chain = observed;
    }
    if cx.downstream.is_none() {
        warnings.extend(crate::downstream::attribute::unobserved(interaction));
    }
    let sent = Sent {
        findings,
        warnings,
        checks,
        ..Sent::default()
    };
    Ok((sent, chain))
}
