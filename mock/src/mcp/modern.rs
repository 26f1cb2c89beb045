//! The 2026-07-28 transport: one POST, one JSON answer, no session. The
//! request is checked as the Python SDK's server checks it, first failure
//! wins: `Accept` (406) and `Content-Type` (415), the JSON-RPC envelope
//! (400), a routing header given twice (`-32020`), the `_meta` envelope
//! (`-32602`), `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` against
//! the body (`-32020`), the version (`-32022`). Errors take the SDK's
//! HTTP statuses; results carry `resultType` and the server's `_meta`.

use actix_web::HttpResponse;
use actix_web::http::Method;
use base64::Engine;
use serde_json::{Value, json};

use super::answer::{Reply, modern_status};
use super::{Exchange, MODERN, Unread};
use crate::wire::{RpcError, RpcRequest, json_response, result};

const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
const ROUTING_HEADERS: [&str; 3] = ["mcp-protocol-version", "mcp-method", "mcp-name"];

impl Exchange<'_> {
    /// Answers a request routed to 2026-07-28.
    pub(super) fn modern(&self, body: &[u8]) -> HttpResponse {
        if self.req.method() != Method::POST {
            self.progress("", 405, Some("2026-07-28 is POST only"));
            return HttpResponse::MethodNotAllowed()
                .insert_header(("allow", "POST"))
                .finish();
        }
        let rpc = match self.modern_request(body) {
            Ok(rpc) => rpc,
            Err(unread) => return self.refuse(&unread, ""),
        };
        let Some(id) = rpc.id.clone() else {
            self.progress(&rpc.method, 202, None);
            return HttpResponse::Accepted().finish();
        };
        if let Some(error) = ladder(self, &rpc) {
            let status = modern_status(error.code);
            return self.refuse(&Unread { status, id, error }, &rpc.method);
        }
        let handled = self.dispatch(&rpc, MODERN, true);
        let what = handled.what(&rpc.method);
        let response = self.modern_reply(&id, handled.reply, handled.notifications);
        self.progress(&what, response.status().as_u16(), handled.why.as_deref());
        response
    }

    /// The request, or why it is refused before its method is looked at;
    /// a notification must name the version this path serves.
    fn modern_request(&self, body: &[u8]) -> Result<RpcRequest, Box<Unread>> {
        let rpc = self.read(body)?;
        let version = self.header("mcp-protocol-version");
        if rpc.id.is_none() && version != Some(MODERN) {
            return Err(Box::new(Unread {
                status: 400,
                id: Value::Null,
                error: unsupported(version),
            }));
        }
        Ok(rpc)
    }

    /// Frames a reply: JSON, errors with the SDK's statuses; after
    /// notifications, an event stream (which commits to 200, as the SDK's
    /// does once a handler has emitted).
    fn modern_reply(&self, id: &Value, reply: Reply, mut events: Vec<Value>) -> HttpResponse {
        let (status, message) = match reply {
            Reply::Result(mut r) => {
                if r.get("resultType").is_none() {
                    r["resultType"] = json!("complete");
                }
                r["_meta"]["io.modelcontextprotocol/serverInfo"] = self.surface.server_info.clone();
                (200, result(id, r))
            }
            Reply::Error { error, status } => {
                let status = status.unwrap_or_else(|| modern_status(error.code));
                (status, error.response(id))
            }
            Reply::Refused { status, body } => return super::refused(status, &body),
        };
        if events.is_empty() {
            return json_response(status, "application/json", &message);
        }
        events.push(message);
        super::sse(events, None)
    }
}

/// The first rung of the SDK's validation ladder that `rpc` fails.
fn ladder(x: &Exchange<'_>, rpc: &RpcRequest) -> Option<RpcError> {
    let mismatch = |why: String| Some(RpcError::new(-32020, why));
    for name in ROUTING_HEADERS {
        if x.req.headers().get_all(name).count() > 1 {
            return mismatch(format!("{name} header appears more than once"));
        }
    }
    let Some(meta) = rpc.params.get("_meta").and_then(Value::as_object) else {
        return Some(RpcError::invalid_params(format!(
            "params._meta must be an object carrying the required '{VERSION_KEY}' and '{CAPABILITIES_KEY}' envelope keys"
        )));
    };
    let missing: Vec<&str> = [VERSION_KEY, CAPABILITIES_KEY]
        .into_iter()
        .filter(|k| !meta.contains_key(*k))
        .collect();
    if !missing.is_empty() {
        return Some(RpcError::invalid_params(format!(
            "params._meta is missing the required envelope key(s): {}",
            missing.join(", ")
        )));
    }
    let version = &meta[VERSION_KEY];
    if x.header("mcp-protocol-version").map(|h| json!(h)).as_ref() != Some(version) {
        return mismatch(
            "mcp-protocol-version header does not match the request envelope's protocol version"
                .into(),
        );
    }
    if x.header("mcp-method") != Some(rpc.method.as_str()) {
        return mismatch("mcp-method header does not match the request body's method".into());
    }
    let named = match rpc.method.as_str() {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    };
    if let Some(key) = named
        && let Some(value) = rpc.params.get(key).filter(|v| !v.is_null())
        && x.header("mcp-name").map(decoded).map(|h| json!(h)).as_ref() != Some(value)
    {
        return mismatch(format!(
            "mcp-name header does not match the request body's '{key}' parameter"
        ));
    }
    match version.as_str() {
        None => Some(RpcError::invalid_params(
            "the protocol-version envelope value must be a string",
        )),
        Some(MODERN) => None,
        Some(other) => Some(unsupported(Some(other))),
    }
}

/// `-32022` for a version the mock does not serve on this path.
fn unsupported(requested: Option<&str>) -> RpcError {
    RpcError {
        data: Some(json!({"supported": [MODERN], "requested": requested})),
        ..RpcError::new(-32022, "Unsupported protocol version")
    }
}

/// A header value as sent: `=?base64?…?=` decoded (the spec's form for a
/// value that is not plain ASCII).
fn decoded(value: &str) -> String {
    value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
        .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_else(|| value.to_owned())
}
