//! `accord verify`'s guards against the provider under test: where
//! credentials may go (the Agent Card is the provider's: its interfaces
//! on another origin never get them) and how long an event stream may
//! last.

use std::time::Duration;

use accord_verifier::{Origin, OtherOrigin, VerifyConfig};
use clap::{Args, ValueEnum};

/// The guard flags, flattened into `VerifyArgs`.
#[derive(Debug, Args)]
pub struct GuardArgs {
    /// An origin besides the provider base URL's (and --agent-card-url's) that credentials
    /// (principals' tokens, --header values) may go to, e.g. an Agent Card interface on
    /// another host or port (repeatable).
    #[arg(long = "allow-origin", value_name = "URL")]
    allow_origins: Vec<String>,
    /// An Agent Card interface on another origin is a finding (INTERFACE_URL_OTHER_ORIGIN) and
    /// never gets credentials; `refuse` sends it nothing, `without-credentials` replays on it
    /// without them. An internal address (loopback, private, link-local, cloud metadata) other
    /// than the base URL's host is refused either way, unless --allow-origin names it.
    #[arg(long, value_enum, default_value = "refuse")]
    other_origin_interface: OtherOriginArg,
    /// The whole of an A2A event stream must end within this many seconds, however often
    /// events come (each event still within the request timeout); a longer one is cut off
    /// (RESPONSE_TIMEOUT).
    #[arg(long, value_name = "SECS", default_value_t = 120,
          value_parser = clap::value_parser!(u64).range(1..))]
    stream_timeout: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OtherOriginArg {
    Refuse,
    WithoutCredentials,
}

impl GuardArgs {
    /// Sets the guards on `config`: the allowed origins parsed.
    pub fn apply(&self, config: &mut VerifyConfig) -> anyhow::Result<()> {
        config.allowed_origins = self
            .allow_origins
            .iter()
            .map(|u| Origin::parse(u))
            .collect::<Result<_, _>>()?;
        config.other_origin = match self.other_origin_interface {
            OtherOriginArg::Refuse => OtherOrigin::Refuse,
            OtherOriginArg::WithoutCredentials => OtherOrigin::WithoutCredentials,
        };
        config.limits.stream_timeout = Duration::from_secs(self.stream_timeout);
        Ok(())
    }
}
