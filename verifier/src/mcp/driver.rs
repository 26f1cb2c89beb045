//! The `MCP/ToolCall` driver: speaks the era the contract pins, keeps one
//! legacy session and one `tools/list` per profile (endpoint, era and
//! credential: a principal is only ever compared with its own listing, so
//! permission filtering is never taken for drift), sends the call with its
//! generators applied and judges the reply (`judge.rs`).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use accord_dsl::model::accord::McpToolCall;
use serde_json::{Value, json};

use super::claims::FirstCall;
use super::enums::judge_enums;
use super::resend::{Answer, call_params_with};
use super::sent::sent;
use super::wire::{Endpoint, Era, Reply, Session};
use crate::canary::Canaries;
use crate::config::Token;
use crate::driver::{Authorization, Exchange, Sent};
use crate::finding::{Finding, Layer, codes};
use crate::transport::{CutOff, Transport};

pub(super) use super::listing::Listing;

/// An open legacy session and what it takes to close it.
#[derive(Clone)]
pub(super) struct Open {
    session: Session,
    url: String,
    bearer: Option<Token>,
    headers: Vec<(String, Token)>,
}

/// Replays MCP tool calls.
#[derive(Default)]
pub struct McpDriver {
    next_id: AtomicU64,
    /// By profile key (which holds a credential: never printed).
    pub(super) sessions: std::sync::Mutex<HashMap<String, Open>>,
    pub(super) listings: std::sync::Mutex<HashMap<String, Arc<Listing>>>,
    /// By endpoint and era: a listing past its budget (`listing.rs`); the
    /// endpoint's other profiles are not listed again.
    pub(super) oversized: std::sync::Mutex<HashMap<String, Arc<Listing>>>,
    /// The listings read, by digest (for the report).
    pub(super) declared: std::sync::Mutex<std::collections::BTreeSet<crate::report::Declaration>>,
    /// Tools (by profile key) whose invalid-input variants were sent.
    pub(super) varied: std::sync::Mutex<std::collections::HashSet<String>>,
    /// Endpoints (URL and era) whose `initialize` answered another
    /// protocol version, reported once.
    pub(super) other_versions: std::sync::Mutex<std::collections::HashSet<String>>,
}

impl std::fmt::Debug for McpDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // the cache keys carry tokens: only counts are shown
        f.debug_struct("McpDriver")
            .field("sessions", &lock(&self.sessions).len())
            .field("listings", &lock(&self.listings).len())
            .finish()
    }
}

impl McpDriver {
    pub(super) fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// The legacy session of a profile, opened if needed; `Err` with the
    /// reply that refused `initialize`.
    pub(super) async fn session(
        &self,
        endpoint: &Endpoint<'_>,
        era: Era,
        key: &str,
        fresh: bool,
    ) -> Result<Result<Session, Reply>, CutOff> {
        if !fresh && let Some(session) = lock(&self.sessions).get(key).map(|o| o.session.clone()) {
            return Ok(Ok(session));
        }
        let opened = endpoint.initialize(era).await?;
        let Ok(session) = opened else {
            return Ok(opened);
        };
        let open = Open {
            session: session.clone(),
            url: endpoint.url.to_owned(),
            bearer: match endpoint.authorization {
                Authorization::Bearer(t) => Some(Token::new(t)),
                _ => None,
            },
            headers: endpoint.custom_headers.to_vec(),
        };
        // another thread may have opened the profile's session meanwhile:
        // keep one, close the other
        let replaced = {
            let mut sessions = lock(&self.sessions);
            match sessions.get(key) {
                Some(theirs) if !fresh => Some((theirs.session.clone(), open)),
                _ => sessions
                    .insert(key.to_owned(), open)
                    .map(|old| (session.clone(), old)),
            }
        };
        match replaced {
            Some((kept, surplus)) => {
                close(endpoint.transport, &surplus).await;
                Ok(Ok(kept))
            }
            None => Ok(Ok(session)),
        }
    }

    /// The profile's `tools/list`, every page, read once per run; `label`
    /// names who it was read as (asked only when it is read).
    pub(super) async fn listing(
        &self,
        endpoint: &Endpoint<'_>,
        era: Era,
        session: Option<&Session>,
        key: &str,
        label: impl FnOnce() -> String,
    ) -> Arc<Listing> {
        if let Some(l) = lock(&self.listings).get(key).cloned() {
            return l;
        }
        let site = format!("{}\n{}", endpoint.url, era.version());
        if let Some(l) = lock(&self.oversized).get(&site).cloned() {
            return l;
        }
        let listing = Arc::new(self.list_tools(endpoint, era, session).await);
        lock(&self.listings).insert(key.to_owned(), listing.clone());
        match listing.as_ref() {
            Listing::Read(tools) => {
                let declared = super::digest::declaration(label(), era, tools);
                lock(&self.declared).insert(declared);
            }
            Listing::TooLarge(_) => {
                lock(&self.oversized).insert(site, listing.clone());
            }
            Listing::Unread(_) => {}
        }
        listing
    }

    pub(super) async fn replay(
        &self,
        call: &McpToolCall,
        negative: bool,
        completion_within_ms: Option<u64>,
        era: Era,
        exchange: &Exchange<'_>,
    ) -> Result<(Sent, Reply), CutOff> {
        let endpoint = Endpoint {
            transport: exchange.transport,
            url: exchange.mcp_url,
            parsed: exchange.mcp_at,
            authorization: exchange.authorization,
            custom_headers: exchange.custom_headers,
        };
        let key = profile_key(&endpoint, era);
        let params = call_params_with(call, exchange.state_values, &exchange.generation);
        let request_view = exchange
            .generation
            .views
            .then(|| Value::Object(params.clone()));
        let mut session = None;
        if let Era::Legacy(_) = era {
            match self.session(&endpoint, era, &key, false).await? {
                Ok(s) => session = Some(s),
                // the refusal of initialize is the answer to judge
                Err(refused) => {
                    let judged = sent(call, era, &refused, None, negative, exchange);
                    return Ok((judged, refused));
                }
            }
        }
        let label = || super::digest::label(exchange.authorization, exchange.principals);
        let listing = self
            .listing(&endpoint, era, session.as_ref(), &key, label)
            .await;
        let tool = listing.tool(&call.tool);
        let watched = tool
            .filter(|t| super::hints::claims_anything(t) || super::claims::claims_idempotency(t));
        // the engine's reading right before this send is as good (a
        // listing changes nothing)
        let before = match (watched, exchange.observed) {
            (Some(_), Some(read)) => Some(read.clone()),
            (Some(_), None) => exchange.observe().await.ok().flatten(),
            (None, _) => None,
        };
        // in the profile's session; an expired one is reopened once; a task
        // is followed for the interaction's completionWithinMs
        let reply = self
            .call_tool_within(&endpoint, era, &key, params.clone(), completion_within_ms)
            .await?;
        let mut judged = sent(call, era, &reply, Some(&listing), negative, exchange);
        if let Some(s) = &session
            && s.version != era.version()
            && lock(&self.other_versions).insert(format!("{} {}", endpoint.url, era.version()))
        {
            // MCP answers another version only when it does not support
            // the one asked for
            let detail = format!(
                "initialize asked for protocolVersion {} and was answered {}: the server does not speak the contract's version",
                era.version(),
                s.version
            );
            judged.findings.push(
                Finding::new(
                    Layer::Declaration,
                    codes::UNSUPPORTED_PROTOCOL_BINDING,
                    "protocolVersion",
                    detail,
                )
                .values(Some(json!(era.version())), Some(json!(s.version))),
            );
        }
        if judged.served_unexpectedly
            && let Some(tool) = tool
            && super::schemas::refuses(tool, &params["arguments"])
        {
            judged.refused_because = Some((Layer::Schema, codes::INVALID_INPUT_ACCEPTED));
        }
        let canaries = Canaries::of(
            exchange.principals,
            exchange.authorization,
            exchange.custom_headers,
        );
        let answer = Answer::of(&reply);
        let failed = !matches!(answer, Answer::Served(_));
        judged
            .findings
            .extend(canaries.judge(&reply.body, failed, "result"));
        if let (Answer::Served(structured), false) = (&answer, negative) {
            // one fault, one finding: a value the outputSchema refuses is that
            let taken: Vec<String> = judged.findings.iter().map(|f| f.path.clone()).collect();
            let odd = judge_enums(exchange.mcp_tools, &call.tool, structured);
            judged
                .findings
                .extend(odd.into_iter().filter(|f| !taken.contains(&f.path)));
        }
        if let Some(tool) = watched {
            let first = FirstCall {
                call,
                params,
                answer,
                before,
                negative,
            };
            let (found, after) = self
                .check_claims(tool, first, &endpoint, era, exchange)
                .await;
            judged.findings.extend(found);
            judged.after = after;
        }
        if let Some(view) = request_view {
            judged.request = Some(view);
            judged.answer = match &reply.outcome {
                Ok(Ok(result)) => Some(result.clone()),
                _ => None,
            };
        }
        Ok((judged, reply))
    }
}

/// Ends a legacy session with the credential it was opened with.
pub(super) async fn close(transport: &Transport, open: &Open) {
    let endpoint = Endpoint {
        transport,
        url: &open.url,
        parsed: None,
        authorization: open.bearer.as_ref().map_or(Authorization::AsWritten, |t| {
            Authorization::Bearer(t.expose())
        }),
        custom_headers: &open.headers,
    };
    endpoint.close(&open.session).await;
}

pub(super) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Endpoint, era and credential: one session and one listing each.
pub(super) fn profile_key(endpoint: &Endpoint<'_>, era: Era) -> String {
    let who = match endpoint.authorization {
        Authorization::AsWritten => "as-written".to_owned(),
        Authorization::Without => "none".to_owned(),
        Authorization::Bearer(t) => format!("bearer:{t}"),
    };
    format!("{}\n{}\n{who}", endpoint.url, era.version())
}

/// The call expects a successful result.
pub(crate) fn expects_success(call: &McpToolCall) -> bool {
    call.error.is_none() && call.result.as_ref().is_some_and(|r| !r.is_error)
}
