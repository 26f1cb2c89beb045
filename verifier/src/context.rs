//! What every replay of a run shares: the transport, the provider's
//! URLs (checked, and parsed once where requests join them), the
//! principals, the drivers and the run's id.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::config::Token;
use crate::driver::Driver;
use crate::error::VerifyError;
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
