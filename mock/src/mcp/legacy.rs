//! The legacy Streamable HTTP transport (2025-11-25 and the handshake
//! versions before it), as the Python SDK's stateful server serves it:
//! `initialize` opens a session (`Mcp-Session-Id`) and negotiates the
//! version; every other request needs the session (400 without, 404 for
//! one the mock does not know); notifications are 202; answers are one
//! SSE `message` event; `DELETE` ends the session. `GET` (the standalone
//! stream for server-initiated messages) is 405, which the spec allows:
//! the mock sends none.

use actix_web::HttpResponse;
use actix_web::http::Method;
use serde_json::{Value, json};

use super::answer::Reply;
use super::{Exchange, HANDSHAKE, McpSurface, PATH, Unread};
use crate::wire::{RpcError, RpcRequest, json_response, result};

/// The version offered to a client that asks for one the mock does not know.
const LATEST_HANDSHAKE: &str = "2025-11-25";

impl Exchange<'_> {
    /// Answers a request routed to the legacy transport.
    pub(super) fn legacy(&self, body: &[u8]) -> HttpResponse {
        match *self.req.method() {
            Method::POST => self.legacy_post(body),
            Method::DELETE => self.end_session(),
            _ => {
                self.progress("", 405, Some("no server-initiated stream"));
                HttpResponse::MethodNotAllowed()
                    .insert_header(("allow", "POST, DELETE"))
                    .finish()
            }
        }
    }

    fn legacy_post(&self, body: &[u8]) -> HttpResponse {
        let rpc = match self.read(body) {
            Ok(rpc) => rpc,
            Err(unread) => return self.refuse(&unread, ""),
        };
        let id = rpc.reply_id();
        if rpc.method == "initialize" && rpc.id.is_some() {
            return self.initialize(&rpc);
        }
        let version = match self.header("mcp-session-id") {
            None => {
                let error = RpcError::new(-32600, "Bad Request: Missing session ID");
                return self.refuse(
                    &Unread {
                        status: 400,
                        id,
                        error,
                    },
                    &rpc.method,
                );
            }
            Some(session) => match self.surface.sessions.version(session) {
                Some(version) => version,
                None => {
                    let error = RpcError::new(-32600, "Session not found");
                    return self.refuse(
                        &Unread {
                            status: 404,
                            id,
                            error,
                        },
                        &rpc.method,
                    );
                }
            },
        };
        if rpc.id.is_none() {
            self.progress(&rpc.method, 202, None);
            return HttpResponse::Accepted().finish();
        }
        let handled = self.dispatch(&rpc, &version, false);
        let what = handled.what(&rpc.method);
        let response = self.legacy_reply(&id, handled.reply, handled.notifications);
        self.progress(&what, response.status().as_u16(), handled.why.as_deref());
        response
    }

    /// `initialize`: a new session, the version the client asked for when
    /// the mock speaks it, else the latest handshake version.
    fn initialize(&self, rpc: &RpcRequest) -> HttpResponse {
        let asked = rpc.params["protocolVersion"].as_str().unwrap_or_default();
        let version = HANDSHAKE
            .iter()
            .find(|v| **v == asked)
            .copied()
            .unwrap_or(LATEST_HANDSHAKE);
        let session = self.surface.sessions.open(version);
        let mut capabilities = McpSurface::capabilities();
        if self.surface.logging {
            capabilities["logging"] = json!({});
        }
        let answer = json!({"protocolVersion": version, "capabilities": capabilities,
            "serverInfo": self.surface.server_info});
        self.progress(
            "initialize",
            200,
            Some(&format!("MCP {version}, session {session}")),
        );
        super::sse(vec![result(&rpc.reply_id(), answer)], Some(&session))
    }

    /// `DELETE`: ends the session.
    fn end_session(&self) -> HttpResponse {
        let (status, why) = match self.header("mcp-session-id") {
            None => (400, "Bad Request: Missing session ID"),
            Some(s) if self.surface.sessions.close(s) => (200, "session ended"),
            Some(_) => (404, "Session not found"),
        };
        if status != 200 {
            self.unexpected("DELETE", PATH, why);
            self.progress("", status, Some(why));
            let e = RpcError::new(-32600, why);
            return json_response(status, "application/json", &e.response(&Value::Null));
        }
        self.progress("", status, Some(why));
        HttpResponse::Ok().finish()
    }

    /// Frames a reply: SSE events (the notifications, then the reply), or
    /// JSON at the status the contract expects for an error that names one.
    fn legacy_reply(&self, id: &Value, reply: Reply, mut events: Vec<Value>) -> HttpResponse {
        let session = self.header("mcp-session-id");
        match reply {
            Reply::Result(r) => events.push(result(id, r)),
            Reply::Error {
                error,
                status: None,
            } => events.push(error.response(id)),
            Reply::Error {
                error,
                status: Some(status),
            } => return json_response(status, "application/json", &error.response(id)),
            Reply::Refused { status, body } => return super::refused(status, &body),
        }
        super::sse(events, session)
    }
}
