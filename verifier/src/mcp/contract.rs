//! The contract-level half of the MCP driver: a contract's `mcpTools`
//! against the listing of each tool's profile (`surface.rs` judges).

use super::driver::{McpDriver, profile_key};
use super::listing::Listing;
use super::wire::{Endpoint, Era};
use crate::canary::Canaries;
use crate::driver::{Authorization, ContractCheck};
use crate::finding::{Finding, Layer, codes};
use accord_dsl::Contract;

/// A contract-level expectation that could not be checked.
fn unchecked(path: String, detail: impl Into<String>) -> Finding {
    Finding::new(
        Layer::Declaration,
        codes::EXPECTATION_UNCHECKED,
        path,
        detail,
    )
}

impl McpDriver {
    /// `mcpTools` against each profile's listing (`surface.rs`).
    pub(super) async fn check_tools(
        &self,
        contract: &Contract,
        cx: &ContractCheck<'_>,
    ) -> Vec<Finding> {
        let pin = contract.accord.as_ref().and_then(|a| a.mcp.as_deref());
        let Some(era) = pin.and_then(Era::of) else {
            let detail = format!(
                "MCP version {} is not one the verifier speaks",
                pin.unwrap_or("(none)")
            );
            return vec![unchecked("mcpTools".into(), detail)];
        };
        let mut out = Vec::new();
        let mut scanned = std::collections::HashSet::new();
        for expect in &contract.mcp_tools {
            let at = format!("mcpTools[{}]", expect.name);
            let authorization = match &expect.profile {
                None => Authorization::AsWritten,
                Some(p) => match cx.principals.get(p) {
                    Some(t) => Authorization::Bearer(t.expose()),
                    None => {
                        out.push(unchecked(at, format!("profile `{p}` has no token to list its tools with: pass --principal {p}=TOKEN")));
                        continue;
                    }
                },
            };
            let endpoint = Endpoint {
                transport: cx.transport,
                url: cx.mcp_url,
                parsed: None,
                authorization,
                custom_headers: cx.custom_headers,
            };
            let key = profile_key(&endpoint, era);
            let session = match era {
                Era::Modern => None,
                Era::Legacy(_) => {
                    match self.session(&endpoint, era, &key, false).await {
                        Ok(Ok(s)) => Some(s),
                        Ok(Err(refused)) => {
                            out.push(unchecked(at, format!("initialize was refused (HTTP {}): the tools could not be listed", refused.status)));
                            continue;
                        }
                        Err(cut) => {
                            out.push(unchecked(
                                at,
                                format!(
                                    "the tools could not be listed: {}",
                                    cut.finding("initialize").detail
                                ),
                            ));
                            continue;
                        }
                    }
                }
            };
            let label = || super::digest::label(authorization, cx.principals);
            let listing = self
                .listing(&endpoint, era, session.as_ref(), &key, label)
                .await;
            match listing.as_ref() {
                Listing::Read(tools) => {
                    let listed = tools.find(&expect.name).map(|t| t.value());
                    out.extend(super::surface::check_tool(expect, listed));
                    // each profile's listing once
                    if scanned.insert(key.clone()) {
                        let canaries =
                            Canaries::of(cx.principals, authorization, cx.custom_headers);
                        let text = tools.text();
                        out.extend(canaries.judge(&text, false, &format!("{at}.tools/list")));
                    }
                }
                // one finding for the endpoint, none per tool
                Listing::TooLarge(_) => out.extend(listing.take_finding("tools/list")),
                Listing::Unread(why) => out.push(unchecked(
                    at,
                    format!("the tools could not be listed: {why}"),
                )),
            }
        }
        out
    }
}
