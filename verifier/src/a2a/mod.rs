//! A2A verification. Today: the contract's `agentCard` against the agent's
//! Agent Card (`card.rs`), read once per run from `--agent-card-url`
//! (default `{base}/.well-known/agent-card.json`) with `A2A-Version: 1.0`,
//! and reported by digest. `A2A/Task` interactions are not replayed yet:
//! the engine reports them INTERACTION_TYPE_UNSUPPORTED.

pub mod card;

use std::sync::{Arc, Mutex};

use accord_dsl::{Contract, Interaction};
use serde_json::Value;

use crate::driver::{BoxFuture, ContractCheck, ContractPart, Driver};
use crate::finding::{Finding, Layer, codes};
use crate::report::Declaration;

/// The card as read, or why it could not be.
type Read = Result<Value, Finding>;

/// Judges `agentCard` expectations.
#[derive(Debug, Default)]
pub struct A2aDriver {
    /// The card, read once per run.
    card: tokio::sync::Mutex<Option<Arc<Read>>>,
    declared: Mutex<Option<Declaration>>,
}

impl A2aDriver {
    async fn card(&self, cx: &ContractCheck<'_>) -> Arc<Read> {
        let mut slot = self.card.lock().await;
        if let Some(read) = slot.as_ref() {
            return read.clone();
        }
        let read = Arc::new(fetch(cx).await);
        if let Ok(card) = read.as_ref() {
            let digest = accord_dsl::canonical::digest(card);
            let entries = card["skills"].as_array().map_or(0, Vec::len);
            *self
                .declared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Declaration {
                kind: "a2a/agent-card",
                profile: "as written".to_owned(),
                protocol_version: "1.0".to_owned(),
                digest: format!("sha256:{digest}"),
                entries,
            });
        }
        *slot = Some(read.clone());
        read
    }
}

/// Reads the card: unreachable is unchecked, not JSON is an invalid card.
async fn fetch(cx: &ContractCheck<'_>) -> Read {
    let mut request = cx
        .transport
        .client()
        .get(cx.agent_card_url)
        .header("accept", "application/json")
        .header("a2a-version", "1.0");
    for (name, value) in cx.custom_headers {
        request = request.header(name.as_str(), value.expose());
    }
    let received = match cx.transport.send(request).await {
        Ok(r) => r,
        Err(cut) => {
            let mut f = cut.finding("agentCard");
            f.layer = Layer::Declaration;
            f.reason_code = codes::EXPECTATION_UNCHECKED;
            f.detail = format!(
                "the Agent Card at {} could not be read: {}",
                cx.agent_card_url, f.detail
            );
            return Err(f);
        }
    };
    if !(200..300).contains(&received.status) {
        let detail = format!(
            "the Agent Card at {} answered HTTP {}",
            cx.agent_card_url, received.status
        );
        return Err(Finding::new(
            Layer::Declaration,
            codes::EXPECTATION_UNCHECKED,
            "agentCard",
            detail,
        ));
    }
    match serde_json::from_slice::<Value>(&received.body) {
        Ok(card @ Value::Object(_)) => Ok(card),
        _ => {
            let detail = format!(
                "the Agent Card at {} is not a JSON object",
                cx.agent_card_url
            );
            Err(Finding::new(
                Layer::Declaration,
                codes::CARD_SCHEMA_INVALID,
                "agentCard",
                detail,
            ))
        }
    }
}

impl Driver for A2aDriver {
    fn handles(&self, _interaction: &Interaction) -> bool {
        false
    }

    fn send<'a>(
        &'a self,
        _interaction: &'a Interaction,
        _exchange: &'a crate::driver::Exchange<'a>,
    ) -> BoxFuture<'a, Result<crate::driver::Sent, crate::error::VerifyError>> {
        Box::pin(async { Ok(crate::driver::Sent::default()) })
    }

    fn contract_parts(&self) -> &'static [ContractPart] {
        &[ContractPart::AgentCard]
    }

    fn check_contract<'a>(
        &'a self,
        contract: &'a Contract,
        cx: &'a ContractCheck<'a>,
    ) -> BoxFuture<'a, Vec<Finding>> {
        Box::pin(async move {
            let Some(expect) = &contract.agent_card else {
                return Vec::new();
            };
            match self.card(cx).await.as_ref() {
                Ok(card) => card::check_card(expect, card),
                Err(f) => vec![f.clone()],
            }
        })
    }

    fn declarations(&self) -> Vec<Declaration> {
        self.declared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }
}
