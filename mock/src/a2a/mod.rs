//! The A2A v1.0 agent built from the contract's `A2A/Task` interactions
//! and `agentCard`: the card at [`CARD_PATH`] (interfaces carrying the
//! mock's URLs), JSON-RPC at `/a2a`, HTTP+JSON under `/a2a/rest` — the
//! wire of the a2a-sdk 1.3 server (`A2A-Version` 1.x required, errors with
//! their `ErrorInfo` reason, SSE frames of `StreamResponse`s).
//!
//! A send is matched against the interactions' requests (their rules
//! apply; the ids and fields a client library adds are not judged); the
//! task it creates walks the interaction's expected sequence
//! ([`task`](self::task)); GetTask, ListTasks, CancelTask,
//! SubscribeToTask and the push configs behave consistently with it, its
//! `cancel` and its `followUps` ([`ops`](self::ops)). What the consumer
//! did that the contract does not expect is recorded for the report, and
//! a cancel or follow-up of an exercised interaction that never came is
//! reported missing.

mod card;
mod error;
mod ops;
mod push;
mod rest;
mod store;
mod task;

use std::sync::Arc;

use accord_dsl::Contract;
use accord_dsl::Interaction;
use accord_dsl::model::accord::{A2aOperation, A2aTaskInteraction};
use actix_web::http::Method;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;

use self::card::Card;
use self::ops::{Call, Reply};
use self::store::{Framing, Part, Store};
use crate::Shared;
use crate::report::{MockMismatch, Wanted};
use crate::wire;

/// Where the card is served.
pub(crate) const CARD_PATH: &str = "/.well-known/agent-card.json";

/// The A2A surface: the interactions, the card, the tasks.
#[derive(Debug)]
pub(crate) struct A2aSurface {
    /// (contract index, interaction).
    interactions: Vec<(usize, A2aTaskInteraction)>,
    card: Card,
    store: Arc<Store>,
}

impl A2aSurface {
    /// The surface of `contract`, if it has `A2A/Task` interactions or an
    /// `agentCard`.
    pub(crate) fn of(contract: &Contract) -> Option<A2aSurface> {
        let interactions: Vec<(usize, A2aTaskInteraction)> = contract
            .interactions
            .iter()
            .enumerate()
            .filter_map(|(n, i)| match i {
                Interaction::A2aTask(t) => Some((n, t.clone())),
                _ => None,
            })
            .collect();
        if interactions.is_empty() && contract.agent_card.is_none() {
            return None;
        }
        Some(A2aSurface {
            card: Card::of(contract, &interactions),
            interactions,
            store: Store::new(),
        })
    }

    /// Whether it answers `path`.
    pub(crate) fn serves(&self, path: &str) -> bool {
        path == CARD_PATH || path == card::JSONRPC_PATH || path.starts_with("/a2a/")
    }

    /// The expected interactions, for the report.
    pub(crate) fn wanted(&self) -> Vec<Wanted> {
        self.interactions
            .iter()
            .map(|(index, i)| Wanted {
                index: *index,
                description: i.meta.description.clone(),
                interaction_type: "A2A/Task",
                method: if i.task.streaming {
                    "SendStreamingMessage"
                } else {
                    "SendMessage"
                }
                .into(),
                path: card::JSONRPC_PATH.into(),
            })
            .collect()
    }

    /// The cancels and follow-ups of exercised interactions that never came
    /// (a follow-up sent as another principal is the provider's tenant
    /// check, not required of the consumer).
    pub(crate) fn missing(&self, exercised: &[u32]) -> Vec<MockMismatch> {
        let mut out = Vec::new();
        for (slot, (index, i)) in self.interactions.iter().enumerate() {
            if exercised.get(*index).copied().unwrap_or(0) == 0 {
                continue;
            }
            let mut parts: Vec<(Part, &str)> = Vec::new();
            if i.task.cancel.is_some() {
                parts.push((Part::Cancel, "CancelTask"));
            }
            let own = i
                .meta
                .expectations
                .auth
                .as_ref()
                .and_then(|a| a.principal.as_deref());
            for (k, f) in i.task.follow_ups.iter().enumerate() {
                // a follow-up as another principal checks the provider's
                // tenant boundary: the consumer's code need not send it
                let other = f
                    .auth
                    .as_ref()
                    .is_some_and(|a| a.principal.as_deref() != own);
                if !other {
                    parts.push((Part::FollowUp(k), f.operation.as_str()));
                }
            }
            for (part, method) in parts {
                if self.store.times(slot, part) == 0 {
                    out.push(MockMismatch::MissingRequest {
                        interaction: *index,
                        description: format!("{} (its {method})", i.meta.description),
                        method: method.into(),
                        path: card::JSONRPC_PATH.into(),
                    });
                }
            }
        }
        out
    }

    /// Forgets which cancels and follow-ups were exercised.
    pub(crate) fn reset(&self) {
        self.store.reset();
    }

    /// Answers one request (`body` read within the limit).
    pub(crate) async fn answer(
        &self,
        shared: web::Data<Shared>,
        req: &HttpRequest,
        path: &str,
        body: Vec<u8>,
    ) -> HttpResponse {
        let method = req.method().clone();
        if path == CARD_PATH {
            if method != Method::GET {
                return wire::json_response(
                    405,
                    "application/json",
                    &serde_json::json!({"error": "the agent card is read with GET"}),
                );
            }
            shared.progress(|| format!("GET {CARD_PATH} -> 200 (agent card)"));
            return wire::json_response(
                200,
                "application/json",
                &self.card.render(shared.base_url()),
            );
        }
        if path == card::JSONRPC_PATH && self.card.offers("JSONRPC") {
            return self.jsonrpc(shared, req, &body).await;
        }
        if let Some(tail) = path
            .strip_prefix(card::REST_PATH)
            .filter(|_| self.card.offers("HTTP+JSON"))
        {
            return rest::answer(self, shared, req, tail, &body).await;
        }
        let why = format!("no A2A interface of the mock at {path} (the card lists them)");
        shared.progress(|| format!("{method} {path} -> 404 ({why})"));
        shared.unexpected(MockMismatch::RequestNotFound {
            method: method.to_string(),
            path: path.to_owned(),
            query: None,
            reason: Some(why.clone()),
        });
        wire::json_response(404, "application/json", &serde_json::json!({"error": why}))
    }

    /// `POST /a2a`: every answer is HTTP 200 (an SSE stream for the
    /// streaming methods), errors included, except a 401.
    async fn jsonrpc(
        &self,
        shared: web::Data<Shared>,
        req: &HttpRequest,
        body: &[u8],
    ) -> HttpResponse {
        let path = card::JSONRPC_PATH;
        let refuse = |id: &Value, error: wire::RpcError, why: String| {
            shared.progress(|| format!("POST {path} -> error {} ({why})", error.code));
            shared.unexpected(MockMismatch::RequestNotFound {
                method: "POST".into(),
                path: path.into(),
                query: None,
                reason: Some(why),
            });
            wire::json_response(200, "application/json", &error.response(id))
        };
        if req.method() != Method::POST {
            return refuse(
                &Value::Null,
                wire::RpcError::invalid_request("use POST"),
                format!("{} on the JSON-RPC endpoint", req.method()),
            );
        }
        if let Some(ct) = content_type(req).filter(|ct| !ct.starts_with("application/json")) {
            let why = format!("Content-Type {ct} (JSON-RPC wants application/json)");
            return refuse(&Value::Null, wire::RpcError::invalid_request(&why), why);
        }
        let request = match wire::read_request(body) {
            Ok(r) => r,
            Err(refused) => {
                let why = refused.error.message.clone();
                return refuse(&refused.id, refused.error, why);
            }
        };
        let id = request.reply_id();
        let Some(op) = A2aOperation::ALL
            .into_iter()
            .find(|op| op.as_str() == request.method)
        else {
            let why = format!("unknown method {}", request.method);
            return refuse(&id, wire::RpcError::method_not_found(&request.method), why);
        };
        let call = Call::new(self, shared.clone(), req, path, op);
        match call.run(&request.params).await {
            Ok(Reply::Json(result)) => {
                wire::json_response(200, "application/json", &wire::result(&id, result))
            }
            Ok(Reply::Stream(s)) => store::respond(&self.store, shared, s, Framing::JsonRpc(id)),
            Err(e) => e.unauthorized().unwrap_or_else(|| {
                wire::json_response(200, "application/json", &e.to_jsonrpc().response(&id))
            }),
        }
    }
}

fn content_type(req: &HttpRequest) -> Option<&str> {
    req.headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
}
