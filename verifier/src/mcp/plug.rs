//! How the MCP driver plugs into the engine: the era check, the send, the
//! probes, the contract-level `mcpTools` check and the closing of sessions.

use accord_dsl::Interaction;
use accord_dsl::model::accord::Probe;

use super::driver::{McpDriver, Open, close, lock, profile_key};
use accord_dsl::model::accord::McpToolCall;

use super::wire::{Endpoint, Era, Reply};
use crate::driver::{BoxFuture, ContractCheck, ContractPart, Driver, Exchange, Sent};
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::transport::Transport;

impl Driver for McpDriver {
    fn handles(&self, interaction: &Interaction) -> bool {
        matches!(interaction, Interaction::McpToolCall(_))
    }

    fn send<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
    ) -> BoxFuture<'a, Result<Sent, VerifyError>> {
        Box::pin(async move {
            let Interaction::McpToolCall(mcp) = interaction else {
                return Ok(Sent::default());
            };
            let Some(era) = exchange.mcp_version.and_then(Era::of) else {
                let detail = format!(
                    "MCP version {} is not one the verifier speaks (2026-07-28, 2025-11-25, 2025-06-18)",
                    exchange.mcp_version.unwrap_or("(none)")
                );
                let f = Finding::new(
                    Layer::Protocol,
                    codes::INTERACTION_TYPE_UNSUPPORTED,
                    "metadata.accord.mcp",
                    detail,
                );
                return Ok(Sent {
                    findings: vec![f],
                    ..Sent::default()
                });
            };
            let negative = mcp.meta.expectations.refusal_expected();
            // the expected result gets the state values the arguments get
            let (call, unchecked) = crate::expected::mcp_call(&mcp.call, exchange.state_values);
            let temporal = mcp.meta.expectations.temporal.as_ref();
            let within = temporal.and_then(|t| t.completion_within_ms);
            Ok(
                match self.replay(&call, negative, within, era, exchange).await {
                    Ok((mut sent, reply)) => {
                        sent.findings.extend(unchecked);
                        let top = mcp.meta.expectations.retryable;
                        sent.findings.extend(retry_finding(&mcp.call, top, &reply));
                        sent.warnings.extend(retry_unchecked(&mcp.call, top));
                        sent
                    }
                    Err(cut) => Sent {
                        findings: vec![cut.finding("response")],
                        ..Sent::default()
                    },
                },
            )
        })
    }

    fn probe<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
        probe: &'a Probe,
        index: usize,
    ) -> BoxFuture<'a, Result<Vec<Finding>, VerifyError>> {
        Box::pin(async move {
            let (Interaction::McpToolCall(mcp), Some(era)) =
                (interaction, exchange.mcp_version.and_then(Era::of))
            else {
                // an era the verifier does not speak is already a finding
                return Ok(Vec::new());
            };
            Ok(self
                .probe_call(&mcp.call, era, exchange, probe, index)
                .await)
        })
    }

    fn derived_checks<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
    ) -> BoxFuture<'a, Result<Sent, VerifyError>> {
        Box::pin(async move {
            let (Interaction::McpToolCall(mcp), Some(era)) =
                (interaction, exchange.mcp_version.and_then(Era::of))
            else {
                return Ok(Sent::default());
            };
            let endpoint = Endpoint {
                transport: exchange.transport,
                url: exchange.mcp_url,
                parsed: exchange.mcp_at,
                authorization: exchange.authorization,
                custom_headers: exchange.custom_headers,
            };
            let key = profile_key(&endpoint, era);
            let mut out = self
                .invalid_inputs(&mcp.call, era, &endpoint, &key, exchange)
                .await;
            let probed = self.header_probe(&endpoint, era, &key).await;
            out.findings.extend(probed.findings);
            out.warnings.extend(probed.warnings);
            out.checks.extend(probed.checks);
            Ok(out)
        })
    }

    fn declarations(&self) -> Vec<crate::report::Declaration> {
        lock(&self.declared).iter().cloned().collect()
    }

    fn contract_parts(&self) -> &'static [ContractPart] {
        &[ContractPart::McpTools]
    }

    fn check_contract<'a>(
        &'a self,
        contract: &'a accord_dsl::Contract,
        cx: &'a ContractCheck<'a>,
    ) -> BoxFuture<'a, Vec<Finding>> {
        Box::pin(self.check_tools(contract, cx))
    }

    fn finish<'a>(&'a self, transport: &'a Transport) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let sessions: Vec<Open> = lock(&self.sessions).drain().map(|(_, o)| o).collect();
            for open in sessions {
                close(transport, &open).await;
            }
        })
    }
}

/// `retryable` of an expected protocol error (on the error, else the
/// interaction's own), against the reply's retry signals.
fn retry_finding(call: &McpToolCall, top: Option<bool>, reply: &Reply) -> Option<Finding> {
    let expected = call.error.as_ref()?;
    let retryable = expected.retryable.or(top)?;
    crate::retry::judge(retryable, reply.status, reply.header("retry-after"))
}

/// `retryable` of an expected tool error: MCP gives it no signal.
fn retry_unchecked(call: &McpToolCall, top: Option<bool>) -> Option<Finding> {
    let result = call.result.as_ref().filter(|r| r.is_error)?;
    result.retryable.or(top)?;
    Some(crate::retry::unchecked("a tool error (isError: true)"))
}
