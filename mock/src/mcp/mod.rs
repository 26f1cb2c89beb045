//! The MCP server built from the contract's `MCP/ToolCall` interactions
//! and `mcpTools`: Streamable HTTP at [`PATH`], both protocol eras on the
//! one endpoint, routed as the Python SDK's dual-era server routes them —
//! a POST whose `MCP-Protocol-Version` is present and not a handshake
//! version is a 2026-07-28 exchange (`modern.rs`: stateless, headers and
//! `_meta` checked), anything else goes through the legacy transport
//! (`legacy.rs`: `initialize`, a session, SSE replies, `DELETE`).
//!
//! In both eras: `tools/list` lists the contract's tools (`listing.rs`,
//! schemas from `schema.rs`), and `tools/call` is answered by the
//! interaction whose arguments and credential fit (`select.rs`) with its
//! expected result or protocol error, generators applied (`answer.rs`),
//! after the `notifications/message` (at the level asked for: `logging.rs`)
//! and `notifications/progress` the interaction relies on (the call then
//! carries a progress token, and the answer is an event stream).
//! A call no interaction fits gets a tool error that names the argument
//! and the rule it failed, and is recorded; so is every request the mock
//! cannot serve (malformed JSON-RPC, an unknown method, a wrong
//! `Content-Type` or `Accept`, a missing or unknown session, a
//! 2026-07-28 envelope or header that does not hold, a `Host` or `Origin`
//! that is not loopback on a mock that listens on loopback: `origin.rs`).
//!
//! **The pinned era.** The contract's `metadata.accord.mcp` is the version
//! the provider will be verified on, so it is the one the report judges.
//! The mock still serves both eras (a client that negotiates the other
//! one gets its answers and its test runs on), but a `tools/call` answered
//! on another version than the pinned one is recorded as a
//! `request-mismatch` at `MCP-Protocol-Version` and does not count as
//! exercising its interaction: the contract relies on the pinned era, and
//! a report that passed on the other one would publish a contract the
//! consumer never ran. A contract without a pin judges no era.

mod answer;
mod call;
mod legacy;
mod listing;
mod logging;
mod methods;
mod modern;
mod origin;
mod schema;
mod select;
mod sessions;

use accord_dsl::model::accord::McpToolCallInteraction;
use accord_dsl::{Contract, Interaction};
use actix_web::{HttpRequest, HttpResponse};
use serde_json::{Value, json};

use crate::Shared;
use crate::report::{MockMismatch, Wanted};
use crate::wire::{RpcError, RpcRequest, read_request};

/// The endpoint.
pub(crate) const PATH: &str = "/mcp";

/// The stateless era.
const MODERN: &str = "2026-07-28";

/// The versions the legacy transport negotiates with `initialize` (the
/// newest last: offered to a client that asks for another).
const HANDSHAKE: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// What the MCP surface answers with.
#[derive(Debug)]
pub(crate) struct McpSurface {
    /// The `MCP/ToolCall` interactions, with their contract index.
    calls: Vec<(usize, McpToolCallInteraction)>,
    /// `tools/list`.
    tools: Vec<Value>,
    /// `metadata.accord.mcp`.
    pin: Option<String>,
    /// `serverInfo`: the provider's name.
    server_info: Value,
    sessions: sessions::Sessions,
    /// Whether a call relies on log messages (`logs`): the legacy era then
    /// declares `logging` and answers `logging/setLevel`.
    logging: bool,
}

impl McpSurface {
    /// The surface of `contract`, if it has MCP interactions or `mcpTools`.
    pub(crate) fn of(contract: &Contract) -> Option<McpSurface> {
        let calls: Vec<(usize, McpToolCallInteraction)> = contract
            .interactions
            .iter()
            .enumerate()
            .filter_map(|(n, i)| match i {
                Interaction::McpToolCall(c) => Some((n, c.clone())),
                _ => None,
            })
            .collect();
        if calls.is_empty() && contract.mcp_tools.is_empty() {
            return None;
        }
        let logging = calls.iter().any(|(_, c)| !c.call.logs.is_empty());
        Some(McpSurface {
            logging,
            calls,
            tools: listing::tools(contract),
            pin: contract.accord.as_ref().and_then(|a| a.mcp.clone()),
            server_info: json!({"name": contract.provider.name, "version": env!("CARGO_PKG_VERSION")}),
            sessions: sessions::Sessions::default(),
        })
    }

    /// Whether it answers `path`.
    pub(crate) fn serves(&self, path: &str) -> bool {
        path == PATH
    }

    /// The expected interactions, for the report.
    pub(crate) fn wanted(&self) -> Vec<Wanted> {
        self.calls
            .iter()
            .map(|(index, c)| Wanted {
                index: *index,
                description: c.meta.description.clone(),
                interaction_type: "MCP/ToolCall",
                method: "tools/call".into(),
                path: c.call.tool.clone(),
            })
            .collect()
    }

    /// Answers one request to the endpoint (`body` read within the limit).
    pub(crate) async fn answer(
        &self,
        shared: &Shared,
        req: &HttpRequest,
        body: Vec<u8>,
    ) -> HttpResponse {
        let x = Exchange {
            surface: self,
            shared,
            req,
        };
        let listening = &shared.options.host;
        if let Some((status, why)) =
            origin::refusal(listening, x.header("host"), x.header("origin"))
        {
            x.unexpected(req.method().as_str(), PATH, why);
            x.progress("", status, Some(why));
            return HttpResponse::build(
                actix_web::http::StatusCode::from_u16(status)
                    .unwrap_or(actix_web::http::StatusCode::FORBIDDEN),
            )
            .content_type("text/plain; charset=utf-8")
            .body(why);
        }
        match x.header("mcp-protocol-version") {
            Some(v) if !HANDSHAKE.contains(&v) => x.modern(&body),
            _ => x.legacy(&body),
        }
    }

    /// Whether `tools/list` lists `tool`.
    fn lists(&self, tool: &str) -> bool {
        self.tools.iter().any(|t| t["name"] == json!(tool))
    }

    /// The capabilities both eras declare.
    fn capabilities() -> Value {
        json!({"tools": {"listChanged": false}})
    }
}

/// A request refused at the transport: the HTTP status, the id to
/// answer with (`null` when unknown) and the JSON-RPC error.
struct Unread {
    status: u16,
    id: Value,
    error: RpcError,
}

/// One request to the endpoint.
struct Exchange<'a> {
    surface: &'a McpSurface,
    shared: &'a Shared,
    req: &'a HttpRequest,
}

impl Exchange<'_> {
    fn header(&self, name: &str) -> Option<&str> {
        self.req.headers().get(name).and_then(|v| v.to_str().ok())
    }

    /// Records a request the mock could not serve: `what` (the HTTP or
    /// MCP method), `target` (the endpoint or the tool) and why.
    fn unexpected(&self, what: &str, target: &str, why: impl Into<String>) {
        self.shared.unexpected(MockMismatch::RequestNotFound {
            method: what.to_owned(),
            path: target.to_owned(),
            query: None,
            reason: Some(why.into()),
        });
    }

    /// The progress line of one answered request.
    fn progress(&self, what: &str, status: u16, why: Option<&str>) {
        let method = self.req.method().as_str();
        self.shared.progress(|| {
            let mut line = format!("{method} {PATH}");
            if !what.is_empty() {
                line.push(' ');
                line.push_str(what);
            }
            line.push_str(&format!(" -> {status}"));
            if let Some(why) = why {
                line.push_str(&format!(" ({why})"));
            }
            line
        });
    }

    /// The JSON-RPC request of a POST, or why it is refused before its
    /// method is looked at: `Accept` must take JSON and SSE (406),
    /// `Content-Type` be JSON (415), the body one JSON-RPC request (400).
    fn read(&self, body: &[u8]) -> Result<RpcRequest, Box<Unread>> {
        let refuse = |status, message: &str| {
            Box::new(Unread {
                status,
                id: Value::Null,
                error: RpcError::new(-32600, message),
            })
        };
        let (json, sse) = self.accepts();
        if !(json && sse) {
            let why =
                "Not Acceptable: Client must accept both application/json and text/event-stream";
            return Err(refuse(406, why));
        }
        if !self.json_body() {
            let why = "Unsupported Media Type: Content-Type must be application/json";
            return Err(refuse(415, why));
        }
        read_request(body).map_err(|r| {
            Box::new(Unread {
                status: 400,
                id: r.id,
                error: r.error,
            })
        })
    }

    /// Refuses a request with a JSON error, and records it; `method` is
    /// the JSON-RPC method when it was read.
    fn refuse(&self, unread: &Unread, method: &str) -> HttpResponse {
        let Unread { status, id, error } = unread;
        let why = if method.is_empty() {
            error.message.clone()
        } else {
            format!("{method}: {}", error.message)
        };
        self.unexpected(self.req.method().as_str(), PATH, why);
        self.progress(method, *status, Some(&error.message));
        crate::wire::json_response(*status, "application/json", &error.response(id))
    }

    /// Whether `Content-Type` is JSON (parameters allowed).
    fn json_body(&self) -> bool {
        self.header("content-type")
            .and_then(|ct| ct.split(';').next())
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    }

    /// Whether `Accept` takes JSON and SSE (`*/*`, `application/*` and
    /// `text/*` count, as in the SDK).
    fn accepts(&self) -> (bool, bool) {
        let accept = self
            .header("accept")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let types: Vec<&str> = accept
            .split(',')
            .map(|t| t.split(';').next().unwrap_or_default().trim())
            .collect();
        let any = types.contains(&"*/*");
        let json = any
            || types
                .iter()
                .any(|t| *t == "application/json" || *t == "application/*");
        let sse = any
            || types
                .iter()
                .any(|t| *t == "text/event-stream" || *t == "text/*");
        (json, sse)
    }
}

/// An authorization layer's refusal: the status, a challenge for 401 and
/// 403, an OAuth-style JSON body.
fn refused(status: u16, body: &Value) -> HttpResponse {
    let mut r = crate::wire::json_response(status, "application/json", body);
    let challenge = match status {
        401 => Some("Bearer"),
        403 => Some("Bearer error=\"insufficient_scope\""),
        _ => None,
    };
    if let Some(c) = challenge {
        r.headers_mut().insert(
            actix_web::http::header::WWW_AUTHENTICATE,
            actix_web::http::header::HeaderValue::from_static(c),
        );
    }
    r
}

/// JSON-RPC messages as SSE `message` events, in order, on one answer.
fn sse(messages: Vec<Value>, session: Option<&str>) -> HttpResponse {
    let frames: Vec<_> = messages
        .iter()
        .map(|m| crate::wire::sse_frame(Some("message"), m))
        .collect();
    let headers: Vec<(&str, &str)> = session.map(|s| ("mcp-session-id", s)).into_iter().collect();
    crate::wire::sse_response(futures_util::stream::iter(frames), &headers)
}
