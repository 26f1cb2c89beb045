//! MCP 2026-07-28 routes by headers, so a server must refuse a request
//! whose `Mcp-Method`/`Mcp-Name` headers disagree with its body (400,
//! -32020 HeaderMismatch). Probed once per endpoint and credential in a
//! run, with a request that changes nothing: a `tools/list` body sent
//! under `Mcp-Method: tools/call`.
//!
//! | answer | verdict |
//! | --- | --- |
//! | served (a result) | HEADER_MISMATCH_ACCEPTED (protocol) |
//! | refused otherwise than 400 / -32020 | a warning: ERROR_CODE_MISMATCH |
//! | 400 / -32020 | passes |

use serde_json::json;

use super::driver::{McpDriver, lock};
use super::resend::Answer;
use super::wire::{Endpoint, Era, Reply, modern_meta, reply};
use crate::driver::Sent;
use crate::finding::{Finding, Layer, codes};
use crate::transport::CutOff;

/// The header a probe's `Mcp-Name` carries.
const PROBE_NAME: &str = "accord-header-probe";

impl McpDriver {
    /// Sends the header-mismatch probe unless this profile was probed.
    pub(super) async fn header_probe(&self, endpoint: &Endpoint<'_>, era: Era, key: &str) -> Sent {
        let mut out = Sent::default();
        if era != Era::Modern {
            return out;
        }
        let probed = format!("{key}\nheaders");
        if !lock(&self.varied).insert(probed) {
            return out;
        }
        let answer = match misrouted(endpoint, self.id()).await {
            Ok(reply) => reply,
            Err(cut) => {
                out.warnings.push(cut.finding("Mcp-Method"));
                return out;
            }
        };
        let seen = Answer::of(&answer).seen(&[]);
        out.checks.push(format!(
            "a tools/list body under Mcp-Method: tools/call: {}",
            seen.chars().take(120).collect::<String>()
        ));
        match judge_probe(&answer) {
            Some(Ok(f)) => out.findings.push(f),
            Some(Err(w)) => out.warnings.push(w),
            None => {}
        }
        out
    }
}

/// A `tools/list` request under the headers of a `tools/call`.
async fn misrouted(endpoint: &Endpoint<'_>, id: u64) -> Result<Reply, CutOff> {
    let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list",
        "params": {"_meta": modern_meta("tools/list")}});
    let framing = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", Era::Modern.version()),
        ("mcp-method", "tools/call"),
        ("mcp-name", PROBE_NAME),
    ];
    let span = crate::trace::span();
    let mut out = endpoint.request(reqwest::Method::POST, framing, &span);
    out.body = Some(message.to_string().into_bytes());
    let received = endpoint.transport.send_out(out).await?;
    Ok(reply(received, Some(id)).await)
}

/// `Ok`: a finding; `Err`: a warning. Pure.
fn judge_probe(reply: &Reply) -> Option<Result<Finding, Finding>> {
    match &reply.outcome {
        Ok(Ok(_)) => Some(Ok(Finding::new(
            Layer::Protocol,
            codes::HEADER_MISMATCH_ACCEPTED,
            "Mcp-Method",
            "a request whose Mcp-Method header (tools/call) disagrees with its body (tools/list) was served; MCP 2026-07-28 servers must refuse it (400, -32020)",
        ))),
        Ok(Err(e)) if e.code == -32020 && reply.status == 400 => None,
        outcome => {
            let detail = match outcome {
                Ok(Err(e)) => format!(
                    "a header mismatch was refused with HTTP {} and JSON-RPC code {}, not 400 and -32020 (HeaderMismatch)",
                    reply.status, e.code
                ),
                _ => format!(
                    "the header-mismatch probe got HTTP {} without a JSON-RPC answer",
                    reply.status
                ),
            };
            Some(Err(Finding::new(
                Layer::Protocol,
                codes::ERROR_CODE_MISMATCH,
                "Mcp-Method",
                detail,
            )))
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::mcp::wire::RpcError;

    fn answered(
        status: u16,
        outcome: Result<Result<serde_json::Value, RpcError>, String>,
    ) -> Reply {
        Reply::answered(status, outcome)
    }

    fn rpc(code: i64) -> Result<Result<serde_json::Value, RpcError>, String> {
        Ok(Err(RpcError {
            code,
            message: "m".into(),
            data: None,
        }))
    }

    #[test]
    fn a_served_mismatch_fails_a_refusal_passes_or_warns_by_its_code() {
        let served = judge_probe(&answered(200, Ok(Ok(json!({"tools": []})))));
        assert!(matches!(served, Some(Ok(f)) if f.reason_code == "HEADER_MISMATCH_ACCEPTED"));
        assert!(judge_probe(&answered(400, rpc(-32020))).is_none());
        assert!(matches!(
            judge_probe(&answered(400, rpc(-32600))),
            Some(Err(_))
        ));
        assert!(matches!(
            judge_probe(&answered(404, Err("no body".into()))),
            Some(Err(_))
        ));
    }
}
