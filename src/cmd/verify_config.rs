//! `VerifyArgs` into a typed `VerifyConfig`: the base URL (Pact's
//! `--hostname`/`--port`/`--scheme`/`--base-path` too), principals, headers,
//! trusted card keys, filters and limits.

use std::time::Duration;

use accord_verifier::{ContractSource, VerifyConfig};
use accord_verifier::{Filter, Limits};

use super::VerifyArgs;

/// Pact verifier's parts of the provider's base URL, instead of
/// `--provider-base-url`.
pub(super) const BASE_URL_PARTS: [&str; 4] = ["hostname", "port", "scheme", "base_path"];

pub(super) fn config(args: &VerifyArgs, source: ContractSource) -> anyhow::Result<VerifyConfig> {
    let mut config = VerifyConfig::new(&args.provider, base_url(args), source);
    config.provider_version = args.provider_version.clone();
    config.state_change_url = args.state_change_url.clone();
    config.observe_url = args.observe_url.clone();
    config.message_url = args.message_url.clone();
    config.mcp_url = args.mcp_url.clone();
    config.agent_card_url = args.agent_card_url.clone();
    config.mcp_unknown_tool = args.mcp_unknown_tool.into();
    config.a2a_binding = args.a2a_binding.into();
    config.a2a_status_mapping = args.a2a_status_mapping.into();
    for file in &args.trust_card_keys {
        config
            .trusted_card_keys
            .extend(crate::cmd::verify_parse::read_card_keys(file)?);
    }
    config.principals = args
        .principals
        .iter()
        .map(|p| crate::cmd::verify_parse::parse_principal(p))
        .collect::<anyhow::Result<_>>()?;
    config.custom_headers = args
        .headers
        .iter()
        .map(|h| crate::cmd::verify_parse::parse_header(h))
        .collect::<anyhow::Result<_>>()?;
    config.jobs = usize::from(args.jobs);
    config.filter = Filter::parse(
        args.filter_description.as_deref(),
        args.filter_state.as_deref(),
    )?;
    config.filter.no_state = args.filter_no_state;
    config.filter.consumers = args.filter_consumers.clone();
    config.limits = Limits {
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        max_response_bytes: args.max_response_bytes,
        follow_redirects: args.follow_redirects,
        ..Limits::default()
    };
    args.guard.apply(&mut config)?;
    Ok(config)
}

/// `--provider-base-url`, or the URL Pact's verifier makes of its parts:
/// `{scheme}://{hostname}[:{port}]{base path}`, by default
/// `http://localhost` (clap requires one of them and refuses both kinds).
pub(super) fn base_url(args: &VerifyArgs) -> String {
    if let Some(url) = &args.provider_base_url {
        return url.clone();
    }
    let scheme = args.scheme.as_deref().unwrap_or("http");
    let host = match args.hostname.as_deref().unwrap_or("localhost") {
        ipv6 if ipv6.contains(':') && !ipv6.starts_with('[') => format!("[{ipv6}]"),
        host => host.to_owned(),
    };
    let port = args.port.map(|p| format!(":{p}")).unwrap_or_default();
    let path = args
        .base_path
        .as_deref()
        .unwrap_or("")
        .trim_end_matches('/');
    let slash = if path.is_empty() || path.starts_with('/') {
        ""
    } else {
        "/"
    };
    format!("{scheme}://{host}{port}{slash}{path}")
}

/// A verification error naming the options the user gave: a base URL made
/// of Pact's parts is named by them, not by `--provider-base-url`.
pub(super) fn as_given(args: &VerifyArgs, err: accord_verifier::VerifyError) -> anyhow::Error {
    match err {
        accord_verifier::VerifyError::Unreachable { url, flag, reason }
            if flag == "--provider-base-url" && args.provider_base_url.is_none() =>
        {
            accord_verifier::VerifyError::Unreachable {
                url,
                flag: "--hostname/--port/--scheme/--base-path",
                reason,
            }
            .into()
        }
        other => other.into(),
    }
}
