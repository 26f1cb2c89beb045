//! A server's `tools/list`, read outside a verification run — for
//! `accord declarations publish --mcp-tools URL` — by the verifier's own
//! client: the same transport limits (request timeout, response size, no
//! redirects, so a credential never reaches another host), `initialize`
//! for a legacy era, every `nextCursor` page under the listing's budget
//! (`list.rs`), and a principal's token as a bearer credential, as a
//! replay sends it. The result is the `{"tools": [...]}` a run records.

use serde_json::{Value, json};

use super::driver::McpDriver;
use super::listing::Listing;
use super::wire::{Endpoint, Era};
use crate::config::{Limits, Token};
use crate::driver::Authorization;
use crate::finding::{Finding, Layer, codes};
use crate::transport::Transport;

/// Where a finding of this read points.
const AT: &str = "tools/list";

fn unread(detail: impl Into<String>) -> Finding {
    Finding::new(Layer::Declaration, codes::EXPECTATION_UNCHECKED, AT, detail)
}

/// Reads every page of the `tools/list` of the MCP endpoint `url` in
/// `era`, as `bearer` when given (else without a credential). `Err` says
/// why it could not be read whole: unreachable, refused, not MCP, or past
/// the listing's budget.
pub async fn read_tool_list(url: &str, era: Era, bearer: Option<&Token>) -> Result<Value, Finding> {
    let transport = Transport::new(Limits::default()).map_err(|e| unread(e.to_string()))?;
    let endpoint = Endpoint {
        transport: &transport,
        url,
        parsed: None,
        authorization: bearer.map_or(Authorization::Without, |t| {
            Authorization::Bearer(t.expose())
        }),
        custom_headers: &[],
    };
    let session = match era {
        Era::Modern => None,
        Era::Legacy(_) => match endpoint.initialize(era).await {
            Ok(Ok(session)) => Some(session),
            Ok(Err(refused)) => {
                let why = match refused.outcome {
                    Ok(Err(e)) => format!("error {}: {}", e.code, e.message),
                    Ok(Ok(_)) => "no protocolVersion in the result".to_owned(),
                    Err(why) => why,
                };
                return Err(unread(format!(
                    "initialize was refused (HTTP {}): {why}",
                    refused.status
                )));
            }
            Err(cut) => return Err(unread(cut.finding("initialize").detail.to_string())),
        },
    };
    let listing = McpDriver::default()
        .list_tools(&endpoint, era, session.as_ref())
        .await;
    if let Some(session) = &session {
        endpoint.close(session).await;
    }
    match &listing {
        Listing::Read(tools) => serde_json::from_slice::<Value>(&tools.text())
            .map(|tools| json!({ "tools": tools }))
            .map_err(|e| unread(e.to_string())),
        Listing::Unread(why) => Err(unread(why.clone())),
        Listing::TooLarge(_) => Err(listing
            .take_finding(AT)
            .unwrap_or_else(|| unread("the listing is past its budget"))),
    }
}
