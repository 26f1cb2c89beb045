//! A2A verification: the contract's `agentCard` against the agent's Agent
//! Card (`card`), read once per run from `--agent-card-url` (default
//! `{base}/.well-known/agent-card.json`) with `A2A-Version: 1.0` and
//! reported by digest; and `A2A/Task` interactions replayed on one of the
//! card's interfaces (`interface`) over JSON-RPC or HTTP+JSON (`wire`,
//! `stream`): the send, the task's events (`events`) judged against the
//! steps (`sequence`, `parts`), cancel (`cancel`), follow-ups (`follow`),
//! the end state (`flow`), expected errors (`refusal`) and probes (`probe`).

mod answer;
mod cancel;
mod capability;
pub mod card;
mod declared;
mod drive;
mod ending;
pub mod events;
mod flow;
mod follow;
pub mod interface;
mod judgement;
mod machine;
mod modes;
mod negative;
pub mod parts;
mod plug;
mod probe;
pub mod push;
mod push_run;
pub mod refusal;
mod request;
pub mod sequence;
pub mod signature;
pub mod stream;
mod streaming;
mod watch;
pub mod wire;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::config::Token;
use crate::finding::{Finding, Layer, codes};
use crate::report::Declaration;
use crate::transport::Transport;

/// The card as read, or why it could not be.
type Read = Result<Value, Finding>;

/// Judges `agentCard` expectations.
#[derive(Debug, Default)]
pub struct A2aDriver {
    /// The card, read once per run.
    card: tokio::sync::Mutex<Option<Arc<Read>>>,
    declared: Mutex<Option<Declaration>>,
    /// The task each interaction created (by the interaction's address),
    /// for its probes.
    created: Mutex<HashMap<usize, flow::Created>>,
    /// Interactions whose send was refused where it had to be served.
    refused: Mutex<std::collections::HashSet<usize>>,
    /// Interactions (by address) that reported the card could not be read.
    card_said: Mutex<std::collections::HashSet<usize>>,
    /// The interfaces replayed on this run (`BINDING url`), for the report.
    used: Mutex<std::collections::BTreeSet<String>>,
    /// The interfaces whose version check was probed this run.
    version_probed: Mutex<std::collections::HashSet<String>>,
    /// The interfaces whose declared capabilities were probed this run.
    declared_probed: Mutex<std::collections::HashSet<String>>,
    /// The interfaces whose undeclared streaming was probed this run.
    streaming_probed: streaming::Probed,
}

/// Where the card is and how to ask for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CardSource<'a> {
    pub transport: &'a Transport,
    pub url: &'a str,
    pub custom_headers: &'a [(String, Token)],
}

/// A lock that a panic elsewhere does not poison for good.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl A2aDriver {
    async fn card(&self, cx: CardSource<'_>) -> Arc<Read> {
        let mut slot = self.card.lock().await;
        if let Some(read) = slot.as_ref() {
            return read.clone();
        }
        let (read, etag) = fetch(cx).await;
        let read = Arc::new(read);
        if let Ok(card) = read.as_ref() {
            let entries = card["skills"].as_array().map_or(0, Vec::len);
            *lock(&self.declared) = Some(Declaration {
                kind: "a2a/agent-card",
                profile: "as written".to_owned(),
                protocol_version: "1.0".to_owned(),
                digest: card::card_digest(card),
                entries,
                etag,
                used: Vec::new(),
                content: crate::report::Content::of(card.clone()),
            });
        }
        *slot = Some(read.clone());
        read
    }
}

/// Reads the Agent Card at `url` as a run does (`A2A-Version: 1.0`, the
/// run's default limits, no credential): the card, or the finding that
/// says why not. For `accord declarations publish --agent-card URL`.
pub async fn read_agent_card(url: &str) -> Result<Value, Finding> {
    let transport = Transport::new(crate::config::Limits::default()).map_err(|e| {
        Finding::new(
            Layer::Declaration,
            codes::EXPECTATION_UNCHECKED,
            "agentCard",
            e.to_string(),
        )
    })?;
    let cx = CardSource {
        transport: &transport,
        url,
        custom_headers: &[],
    };
    read_card(cx).await.map(|(card, _)| card)
}

/// Reads the card (and its `ETag`): unreachable is unchecked, not JSON is
/// an invalid card.
async fn fetch(cx: CardSource<'_>) -> (Read, Option<String>) {
    match read_card(cx).await {
        Ok((card, etag)) => (Ok(card), etag),
        Err(f) => (Err(f), None),
    }
}

async fn read_card(cx: CardSource<'_>) -> Result<(Value, Option<String>), Finding> {
    let mut request = cx
        .transport
        .client_for(cx.url)
        .get(cx.url)
        .header("accept", "application/json")
        .header("a2a-version", "1.0");
    request = crate::trace::headers(request);
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
                cx.url, f.detail
            )
            .into();
            return Err(f);
        }
    };
    if !(200..300).contains(&received.status) {
        let detail = format!(
            "the Agent Card at {} answered HTTP {}",
            cx.url, received.status
        );
        return Err(Finding::new(
            Layer::Declaration,
            codes::EXPECTATION_UNCHECKED,
            "agentCard",
            detail,
        ));
    }
    let etag = received.header("etag").map(str::to_owned);
    match serde_json::from_slice::<Value>(&received.body) {
        Ok(card @ Value::Object(_)) => Ok((card, etag)),
        _ => {
            let detail = format!("the Agent Card at {} is not a JSON object", cx.url);
            Err(Finding::new(
                Layer::Declaration,
                codes::CARD_SCHEMA_INVALID,
                "agentCard",
                detail,
            ))
        }
    }
}
