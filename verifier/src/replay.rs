//! Replaying one interaction: provider states, the principal's credential,
//! observations around the sends, and the behavioural, temporal and
//! authorization judgements around the driver's own.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use accord_dsl::Interaction;
use accord_dsl::model::InteractionMeta;
use serde_json::{Map, Value};

use crate::config::Token;
use crate::credential::Presented;
use crate::driver::{Authorization, Driver, Exchange, Sent};
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::report::{InteractionResult, Outcome};
use crate::states::{Action, change_states, generator_values};
use crate::transport::Transport;

/// What every replay shares.
#[derive(Debug)]
pub struct Context {
    pub transport: Transport,
    pub base_url: String,
    /// The same, parsed once where request paths join it ([`crate::request_url`]).
    pub base: Option<crate::request_url::BaseUrl>,
    pub message_url: String,
    pub mcp_url: String,
    /// The same, parsed once (every MCP call posts to it).
    pub mcp: Option<reqwest::Url>,
    pub mcp_unknown_tool: crate::config::UnknownTool,
    pub agent_card_url: String,
    pub a2a_binding: crate::config::A2aBinding,
    pub trusted_card_keys: Vec<serde_json::Value>,
    pub a2a_status_mapping: crate::config::A2aStatusMapping,
    pub state_change_url: Option<String>,
    /// The same, parsed once (each interaction posts to it twice).
    pub state_change: Option<reqwest::Url>,
    pub observe_url: Option<String>,
    /// The same, parsed once (read twice per observed interaction).
    pub observe: Option<reqwest::Url>,
    pub principals: BTreeMap<String, Token>,
    pub custom_headers: Vec<(String, Token)>,
    /// Where credentials may go (the base URL's and Agent Card's origins,
    /// `--allow-origin`), and what the card's other origins get.
    pub origins: crate::origin::Origins,
    pub drivers: Vec<Arc<dyn Driver>>,
    /// Observed interactions (state changes included) never overlap:
    /// counters are the provider's, shared by every contract replayed in
    /// parallel.
    /// Shared by every thread of a run.
    pub observe_lock: Arc<tokio::sync::Mutex<()>>,
    /// The run's id (`tracestate`).
    pub run_id: Arc<str>,
    /// The stand-ins of the provider's dependencies, when served.
    pub downstream: Option<crate::downstream::Downstream>,
}

impl Context {
    /// The run's context from its configuration: every URL checked, the
    /// MCP endpoint and the Agent Card defaulting to paths under the base.
    pub fn new(
        config: &crate::config::VerifyConfig,
        drivers: Vec<Arc<dyn Driver>>,
        observe_lock: Arc<tokio::sync::Mutex<()>>,
    ) -> Result<Context, VerifyError> {
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
        let under_base = |what, url: &Option<String>, default: &str| match url {
            Some(u) => checked(what, u),
            None => Ok(format!("{}{default}", base_url.trim_end_matches('/'))),
        };
        let optional =
            |what, url: &Option<String>| url.as_deref().map(|u| checked(what, u)).transpose();
        let mut cx = Context {
            transport: Transport::new(config.limits.clone())?,
            // Pact's default: the base URL itself
            message_url: match &config.message_url {
                Some(u) => checked("the message URL", u)?,
                None => base_url.clone(),
            },
            mcp_url: under_base("the MCP URL", &config.mcp_url, "/mcp")?,
            agent_card_url: under_base(
                "the Agent Card URL",
                &config.agent_card_url,
                "/.well-known/agent-card.json",
            )?,
            mcp_unknown_tool: config.mcp_unknown_tool,
            a2a_binding: config.a2a_binding,
            trusted_card_keys: config.trusted_card_keys.clone(),
            a2a_status_mapping: config.a2a_status_mapping,
            state_change_url: optional("the state-change URL", &config.state_change_url)?,
            state_change: config
                .state_change_url
                .as_deref()
                .and_then(|u| reqwest::Url::parse(u).ok()),
            observe_url: optional("the observation URL", &config.observe_url)?,
            observe: None,
            mcp: None,
            principals: config.principals.clone(),
            custom_headers: config.custom_headers.clone(),
            origins: crate::origin::Origins::default(),
            drivers,
            observe_lock,
            run_id: Arc::from(config.run_id.as_str()),
            downstream: config.downstream.clone(),
            base: crate::request_url::BaseUrl::new(&base_url),
            base_url,
        };
        // the checked URLs parse
        cx.observe = cx
            .observe_url
            .as_deref()
            .and_then(|u| reqwest::Url::parse(u).ok());
        cx.mcp = reqwest::Url::parse(&cx.mcp_url).ok();
        cx.origins = crate::origin::Origins::new(
            &cx.base_url,
            &cx.agent_card_url,
            &config.allowed_origins,
            config.other_origin,
        );
        Ok(cx)
    }
}

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
            let (done, chain) = exercise(cx, interaction, &values, &replies, contract).await?;
            findings.extend(done.findings);
            warnings.extend(done.warnings);
            checks = done.checks;
            downstream = chain;
            let teardown = Action::Teardown;
            if let Err(f) = change_states(&cx.transport, url, states, teardown, dependencies).await
            {
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
    };
    let window = cx
        .downstream
        .as_ref()
        .map(crate::downstream::attribute::open);
    let sends =
        crate::sends::send_all(driver.as_ref(), interaction, &exchange, approval.as_ref()).await?;
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
