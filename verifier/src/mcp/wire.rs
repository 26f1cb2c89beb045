//! MCP over Streamable HTTP, as raw as a verdict needs: each JSON-RPC
//! request is one POST to the endpoint, and the reply keeps its HTTP
//! status, headers, framing (JSON or SSE) and the JSON-RPC result or error.
//!
//! - 2026-07-28 (modern): every request carries `MCP-Protocol-Version`,
//!   `Mcp-Method` (and `Mcp-Name` for `tools/call`, the task id for
//!   `tasks/*`), and the `_meta` envelope with the protocol version and
//!   client capabilities (the tasks extension on `tools/call` and `tasks/*`).
//! - 2025-11-25 / 2025-06-18 (legacy): `initialize` →
//!   `notifications/initialized`, then the session id and the negotiated
//!   version on every request; `DELETE` ends the session.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::outgoing::{Outgoing, envelope};
use crate::config::Token;
use crate::driver::Authorization;
use crate::transport::{CutOff, Received, Transport};

/// The protocol era a contract's pinned `mcp` version selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2026-07-28: stateless, one POST per exchange, `_meta` on every request.
    Modern,
    /// 2025-06-18 or 2025-11-25: `initialize` and a session.
    Legacy(&'static str),
}

impl Era {
    /// The era of a pinned version, `None` for one the verifier cannot speak.
    pub fn of(pin: &str) -> Option<Era> {
        match pin {
            "2026-07-28" => Some(Era::Modern),
            "2025-11-25" => Some(Era::Legacy("2025-11-25")),
            "2025-06-18" => Some(Era::Legacy("2025-06-18")),
            _ => None,
        }
    }

    /// The protocol version string.
    pub fn version(self) -> &'static str {
        match self {
            Era::Modern => "2026-07-28",
            Era::Legacy(v) => v,
        }
    }
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

/// What came back for one request.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// The answer came as `text/event-stream`.
    pub sse: bool,
    /// The JSON-RPC response's result or error; `Err` says why there was
    /// none (no body, not JSON-RPC, no response with the request's id).
    pub outcome: Result<Result<Value, RpcError>, String>,
    pub ack: Duration,
    pub total: Duration,
    /// The raw body, for checks that look at everything the server said.
    pub body: Vec<u8>,
    /// A call answered with a task, followed (`follow.rs`): the outcome is
    /// then the task's result or error, the body every answer's.
    pub task: Option<super::task::Followed>,
}

impl Reply {
    /// The first value of a header (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        crate::transport::first_header(&self.headers, name)
    }
}

/// Who the requests are sent as, and where.
#[derive(Debug, Clone, Copy)]
pub struct Endpoint<'a> {
    pub transport: &'a Transport,
    pub url: &'a str,
    /// `url` parsed once by the run (`None`: parsed per request).
    pub parsed: Option<&'a reqwest::Url>,
    pub authorization: Authorization<'a>,
    pub custom_headers: &'a [(String, Token)],
}

/// The client's name in `clientInfo`.
pub(super) const CLIENT_INFO: (&str, &str) = ("accord-verifier", env!("CARGO_PKG_VERSION"));

/// The `_meta` envelope of a 2026-07-28 request of `method`.
pub fn modern_meta(method: &str) -> Value {
    Value::Object(envelope(method).clone())
}

/// The session of a legacy-era profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// `Mcp-Session-Id`, when the server issued one.
    pub id: Option<String>,
    /// The version the server answered `initialize` with.
    pub version: String,
}

impl Endpoint<'_> {
    /// Sends one JSON-RPC request (`id` set) or notification (`id` none).
    pub async fn call(
        &self,
        era: Era,
        session: Option<&Session>,
        id: Option<u64>,
        method: &str,
        params: Map<String, Value>,
    ) -> Result<Reply, CutOff> {
        let received = self.send(era, session, id, method, params).await?;
        Ok(reply(received, id).await)
    }

    /// Sends one JSON-RPC message and reads the answer as received (a
    /// caller that needs only part of it reads that part: `page.rs`).
    pub(super) async fn send(
        &self,
        era: Era,
        session: Option<&Session>,
        id: Option<u64>,
        method: &str,
        params: Map<String, Value>,
    ) -> Result<Received, CutOff> {
        let message = Outgoing {
            method,
            id,
            params: &params,
            envelope: (era == Era::Modern).then(|| envelope(method)),
        };
        let body = serde_json::to_vec(&message).map_err(|e| {
            CutOff::Failed(format!("the {method} request could not be written: {e}"))
        })?;
        let span = crate::trace::span();
        let mut framing = Vec::with_capacity(8 + self.custom_headers.len());
        message.framing(session, &mut framing);
        let mut out = self.request(reqwest::Method::POST, framing, &span);
        out.body = Some(body);
        self.transport.send_out(out).await
    }

    /// Opens a legacy session: `initialize`, then `notifications/initialized`.
    /// `Err` with the reply that refused it.
    pub async fn initialize(&self, era: Era) -> Result<Result<Session, Reply>, CutOff> {
        let params = json!({
            "protocolVersion": era.version(),
            "capabilities": {},
            "clientInfo": {"name": CLIENT_INFO.0, "version": CLIENT_INFO.1},
        });
        let Value::Object(params) = params else {
            return Ok(Err(empty_reply()));
        };
        let reply = self.call(era, None, Some(0), "initialize", params).await?;
        let version = match &reply.outcome {
            Ok(Ok(result)) => result["protocolVersion"].as_str().map(str::to_owned),
            _ => None,
        };
        let Some(version) = version else {
            return Ok(Err(reply));
        };
        let session = Session {
            id: reply.header("mcp-session-id").map(str::to_owned),
            version,
        };
        self.call(
            era,
            Some(&session),
            None,
            "notifications/initialized",
            Map::new(),
        )
        .await?;
        Ok(Ok(session))
    }

    /// Ends a legacy session (`DELETE`; a 405 means the server keeps none).
    pub async fn close(&self, session: &Session) {
        let Some(id) = &session.id else { return };
        let span = crate::trace::span();
        let framing = vec![
            ("mcp-session-id", id.as_str()),
            ("mcp-protocol-version", session.version.as_str()),
        ];
        let out = self.request(reqwest::Method::DELETE, framing, &span);
        let _ = self.transport.send_out(out).await;
    }
}

/// The param whose value a request's `Mcp-Name` header carries.
pub(super) fn named_by(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        m if m.starts_with("tasks/") => Some("taskId"),
        _ => None,
    }
}

fn empty_reply() -> Reply {
    Reply {
        status: 0,
        headers: Vec::new(),
        sse: false,
        outcome: Err("no reply".into()),
        ack: Duration::ZERO,
        total: Duration::ZERO,
        body: Vec::new(),
        task: None,
    }
}

/// The reply to request `id` in a received answer (JSON, or the SSE events
/// carrying JSON-RPC messages).
pub(super) async fn reply(received: Received, id: Option<u64>) -> Reply {
    let sse = received
        .header("content-type")
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("text/event-stream"));
    let outcome = if id.is_none() {
        Err("a notification has no response".to_owned())
    } else if sse {
        response_event(&received.body, id)
            .await
            .and_then(rpc_outcome)
    } else if received.body.is_empty() {
        Err(format!("an empty answer with HTTP {}", received.status))
    } else {
        match serde_json::from_slice::<Value>(&received.body) {
            Ok(m) => same_id(&m, id).and_then(|()| rpc_outcome(m)),
            Err(e) => Err(format!("the answer is not JSON: {e}")),
        }
    };
    Reply {
        status: received.status,
        headers: received.headers,
        sse,
        outcome,
        ack: received.ack,
        total: received.total,
        body: received.body,
        task: None,
    }
}

/// Every JSON message in an SSE body (`data:` of each event).
pub async fn sse_messages(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    super::sse::events(&text)
        .filter_map(|data| serde_json::from_str(&data).ok())
        .collect()
}

/// The response to request `id` among an SSE body's events: each event is
/// first read for its `id` and `method` alone (a server-to-client request
/// on the stream has a method: not ours), and only the response is parsed
/// whole, so one event at a time is held.
async fn response_event(body: &[u8], id: Option<u64>) -> Result<Value, String> {
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(default)]
        id: Value,
        #[serde(default)]
        method: Option<serde::de::IgnoredAny>,
    }
    let text = String::from_utf8_lossy(body);
    let mut found = None;
    for data in super::sse::events(&text) {
        // requests and notifications of the server may come first
        let Ok(head) = serde_json::from_str::<Head>(&data) else {
            continue;
        };
        if head.method.is_some() || head.id.is_null() {
            continue;
        }
        if id.is_some_and(|i| head.id == json!(i)) {
            found = found.or_else(|| serde_json::from_str(&data).ok());
        } else {
            // the stream of a POST answers that request, no other
            let want = id.map_or("none".to_owned(), |i| i.to_string());
            return Err(format!(
                "the event stream carries a response of id {}, not the request's {want}",
                head.id
            ));
        }
    }
    found.ok_or_else(|| "no JSON-RPC response with the request's id in the event stream".into())
}

/// A response must carry the request's id (`null` only on an error the
/// server could not tie to a request).
fn same_id(message: &Value, id: Option<u64>) -> Result<(), String> {
    let got = message.get("id").unwrap_or(&Value::Null);
    match id {
        Some(i) if *got == json!(i) => Ok(()),
        Some(_) if got.is_null() && message.get("error").is_some() => Ok(()),
        Some(i) => Err(format!(
            "the response carries id {got}, not the request's {i}"
        )),
        None => Ok(()),
    }
}

/// A JSON-RPC response's result or error (taken out of it, not copied).
fn rpc_outcome(message: Value) -> Result<Result<Value, RpcError>, String> {
    let Value::Object(mut message) = message else {
        return Err("a JSON-RPC answer with neither result nor error".into());
    };
    if let Some(error) = message.get("error") {
        return Ok(Err(RpcError {
            code: error["code"]
                .as_i64()
                .ok_or("an error without a numeric code")?,
            message: error["message"].as_str().unwrap_or_default().to_owned(),
            data: error.get("data").cloned(),
        }));
    }
    match message.remove("result") {
        Some(result) => Ok(Ok(result)),
        None => Err("a JSON-RPC answer with neither result nor error".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_versions_select_their_era() {
        assert_eq!(Era::of("2026-07-28"), Some(Era::Modern));
        assert_eq!(Era::of("2025-11-25"), Some(Era::Legacy("2025-11-25")));
        assert_eq!(Era::of("2024-11-05"), None);
    }

    #[test]
    fn the_response_with_the_requests_id_is_found_among_sse_events() {
        let body = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"ok\":true}}\n\n";
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let messages = runtime.block_on(sse_messages(body));
        assert_eq!(messages.len(), 2);
        assert_eq!(
            rpc_outcome(messages[1].clone()),
            Ok(Ok(json!({"ok": true})))
        );
    }

    #[test]
    fn a_server_request_on_the_stream_is_not_taken_for_the_response() {
        let body = b"data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"elicitation/create\",\"params\":{}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n";
        let received = Received {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: body.to_vec(),
            ack: Duration::ZERO,
            total: Duration::ZERO,
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let r = runtime.block_on(reply(received, Some(7)));
        assert_eq!(r.outcome, Ok(Ok(json!({}))));
    }

    #[test]
    fn a_response_with_another_id_is_not_the_answer() {
        let m = json!({"jsonrpc": "2.0", "id": 8, "result": {}});
        assert!(same_id(&m, Some(7)).is_err());
        let unattributed =
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "parse"}});
        assert!(same_id(&unattributed, Some(7)).is_ok());
    }

    #[test]
    fn an_error_keeps_its_code_message_and_data() {
        let m = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad", "data": {"x": 1}}});
        let err = rpc_outcome(m).expect("a response").expect_err("an error");
        assert_eq!((err.code, err.message.as_str()), (-32602, "bad"));
        assert_eq!(err.data, Some(json!({"x": 1})));
    }
}
