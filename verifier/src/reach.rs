//! Before the first request: can the provider be reached at all? One
//! request to each origin the run will talk to — the base URL, the message
//! endpoint, the Agent Card, the MCP endpoint, the state-change URL, as far
//! as the scheduled interactions and the contracts' own expectations need
//! them. Any answer, whatever its status, is a provider to judge; a
//! connection that cannot be made (refused, no such host, a TLS handshake
//! that fails, no connection within the timeout) is an operational error
//! naming the URL and the option it came from: nothing was verified, so
//! nothing is reported or published. A provider that goes away later
//! fails the interactions it fails (see `crate::sends`).

use std::time::Duration;

use accord_dsl::Interaction;

use crate::config::VerifyConfig;
use crate::driver::ContractPart;
use crate::error::VerifyError;
use crate::plan::Plan;
use crate::replay::Context;
use crate::transport::Transport;

/// A URL the run will send to, and the option that gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Endpoint {
    pub url: String,
    pub flag: &'static str,
}

/// What the run needs, by kind, in the order they are checked.
#[derive(Debug, Default)]
struct Needs {
    http: bool,
    message: bool,
    card: bool,
    mcp: bool,
    states: bool,
}

impl Needs {
    fn of(config: &VerifyConfig, plan: &Plan) -> Needs {
        let mut needs = Needs::default();
        for interaction in plan.scheduled() {
            match interaction {
                Interaction::Http(_) => needs.http = true,
                Interaction::AsyncMessage(_) | Interaction::SyncMessage(_) => needs.message = true,
                Interaction::A2aTask(_) => needs.card = true,
                Interaction::McpToolCall(_) => needs.mcp = true,
            }
            let states = !interaction.meta().provider_states.is_empty();
            needs.states |= states && config.state_change_url.is_some();
        }
        for sourced in &plan.contracts {
            for part in ContractPart::of(&sourced.contract) {
                match part {
                    ContractPart::AgentCard => needs.card = true,
                    ContractPart::McpTools => needs.mcp = true,
                }
            }
        }
        needs
    }
}

/// The endpoints the run will use, one per origin (the first that needs
/// it): an origin that answers one request answers the others too, or
/// its answers are verdicts.
pub(crate) fn endpoints(config: &VerifyConfig, cx: &Context, plan: &Plan) -> Vec<Endpoint> {
    let needs = Needs::of(config, plan);
    let given = |set: bool, flag| if set { flag } else { "--provider-base-url" };
    let candidates = [
        (needs.http, &cx.base_url, "--provider-base-url"),
        (
            needs.message,
            &cx.message_url,
            given(config.message_url.is_some(), "--message-url"),
        ),
        (
            needs.card,
            &cx.agent_card_url,
            given(config.agent_card_url.is_some(), "--agent-card-url"),
        ),
        (
            needs.mcp,
            &cx.mcp_url,
            given(config.mcp_url.is_some(), "--mcp-url"),
        ),
    ];
    let state = cx.state_change_url.as_ref().filter(|_| needs.states);
    let mut origins = Vec::new();
    let mut out = Vec::new();
    let used = candidates.into_iter().filter(|(n, _, _)| *n);
    let used = used.map(|(_, url, flag)| (url, flag));
    for (url, flag) in used.chain(state.map(|u| (u, "--state-change-url"))) {
        let origin = reqwest::Url::parse(url).ok().map(|u| u.origin());
        if origins.contains(&origin) {
            continue;
        }
        origins.push(origin);
        out.push(Endpoint {
            url: url.clone(),
            flag,
        });
    }
    out
}

/// Checks every endpoint in order; the first that cannot be reached is
/// the error.
pub(crate) async fn check(
    transport: &Transport,
    endpoints: &[Endpoint],
) -> Result<(), VerifyError> {
    for endpoint in endpoints {
        if let Err(reason) = reach(transport, &endpoint.url).await {
            return Err(VerifyError::Unreachable {
                url: endpoint.url.clone(),
                flag: endpoint.flag,
                reason,
            });
        }
    }
    Ok(())
}

/// One GET without credentials (no token goes anywhere before the run
/// starts): `Err` with the cause when no connection could be made. A
/// connection that was made but not answered in time, or broke before the
/// answer, is a provider that can be reached: its interactions judge it.
async fn reach(transport: &Transport, url: &str) -> Result<(), String> {
    // the client gives up connecting after the request timeout: wait a
    // little longer, so that a connection made but not answered is told
    // apart from one never made
    let wait = transport.limits().request_timeout + Duration::from_secs(1);
    // `application/json` only: an MCP endpoint answers 406 at once instead
    // of opening its event stream
    let request = transport
        .client_for(url)
        .get(url)
        .header("accept", "application/json")
        .send();
    match tokio::time::timeout(wait, request).await {
        Ok(Err(e)) if e.is_connect() => Err(innermost(&e)),
        _ => Ok(()),
    }
}

/// The innermost cause of a connection error ("Connection refused (os
/// error 111)", "failed to lookup address information: …", "invalid peer
/// certificate: …"): the outer ones repeat the URL and the client's steps.
fn innermost(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}
