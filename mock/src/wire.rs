//! The wire pieces the A2A and MCP surfaces share: one JSON-RPC 2.0
//! envelope (request read strictly, result and error written), and one
//! place that frames server-sent events.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use serde_json::{Value, json};

/// A JSON-RPC request as received.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcRequest {
    /// `None` for a notification (no `id` member).
    pub id: Option<Value>,
    pub method: String,
    /// The params object (`{}` when absent).
    pub params: Value,
}

impl RpcRequest {
    /// The id to answer with (`null` for a notification).
    pub(crate) fn reply_id(&self) -> Value {
        self.id.clone().unwrap_or(Value::Null)
    }
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub(crate) fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// -32700: the body is not JSON.
    pub(crate) fn parse(why: impl std::fmt::Display) -> RpcError {
        RpcError::new(-32700, format!("Parse error: {why}"))
    }

    /// -32600: JSON, but not a JSON-RPC request.
    pub(crate) fn invalid_request(why: impl std::fmt::Display) -> RpcError {
        RpcError::new(-32600, format!("Invalid request: {why}"))
    }

    /// -32601.
    pub(crate) fn method_not_found(method: &str) -> RpcError {
        RpcError {
            data: Some(json!(method)),
            ..RpcError::new(-32601, "Method not found")
        }
    }

    /// -32602.
    pub(crate) fn invalid_params(why: impl std::fmt::Display) -> RpcError {
        RpcError::new(-32602, format!("Invalid params: {why}"))
    }

    /// The error object.
    pub(crate) fn object(&self) -> Value {
        let mut e = json!({"code": self.code, "message": self.message});
        if let Some(data) = &self.data {
            e["data"] = data.clone();
        }
        e
    }

    /// The whole error response.
    pub(crate) fn response(&self, id: &Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "error": self.object()})
    }
}

/// A request refused before it was read: the id to answer with (`null`
/// when unknown) and the error.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refused {
    pub id: Value,
    pub error: RpcError,
}

/// Reads a JSON-RPC request: the body must be a JSON object with
/// `"jsonrpc": "2.0"`, a string `method`, an `id` that is a string, a
/// number or null when present, and `params` an object when present.
/// A batch (array) is refused: neither A2A v1.0 nor MCP 2025-11-25 has one.
pub(crate) fn read_request(body: &[u8]) -> Result<RpcRequest, Box<Refused>> {
    let refused = |id: Value, error: RpcError| Box::new(Refused { id, error });
    let value: Value =
        serde_json::from_slice(body).map_err(|e| refused(Value::Null, RpcError::parse(e)))?;
    let Value::Object(mut object) = value else {
        let what = if value.is_array() {
            "a batch (array) is not supported; send one request per POST"
        } else {
            "the body must be a JSON object"
        };
        return Err(refused(Value::Null, RpcError::invalid_request(what)));
    };
    let id = object.remove("id");
    let reply_id = id.clone().unwrap_or(Value::Null);
    let refuse = |why: &str| Err(refused(reply_id.clone(), RpcError::invalid_request(why)));
    if id
        .as_ref()
        .is_some_and(|id| !(id.is_string() || id.is_number() || id.is_null()))
    {
        return refuse("'id' must be a string, a number or null");
    }
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return refuse("'jsonrpc' must be exactly \"2.0\"");
    }
    let Some(Value::String(method)) = object.remove("method") else {
        return refuse("'method' must be a string");
    };
    let params = match object.remove("params") {
        None | Some(Value::Null) => json!({}),
        Some(p @ Value::Object(_)) => p,
        Some(_) => {
            return Err(refused(
                reply_id,
                RpcError::invalid_params("'params' must be an object"),
            ));
        }
    };
    Ok(RpcRequest { id, method, params })
}

/// A result response.
pub(crate) fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// A JSON answer with `status`.
pub(crate) fn json_response(status: u16, content_type: &str, body: &Value) -> HttpResponse {
    HttpResponse::build(StatusCode::from_u16(status).unwrap_or(StatusCode::OK))
        .content_type(content_type)
        .body(body.to_string())
}

/// One SSE frame: an optional `event:` line and the JSON on one `data:`
/// line (JSON text has no raw newline), ended by a blank line.
pub(crate) fn sse_frame(event: Option<&str>, data: &Value) -> Bytes {
    let mut frame = String::new();
    if let Some(event) = event {
        frame.push_str("event: ");
        frame.push_str(event);
        frame.push('\n');
    }
    frame.push_str("data: ");
    frame.push_str(&data.to_string());
    frame.push_str("\n\n");
    Bytes::from(frame)
}

/// An SSE answer whose frames come from `frames` (the answer ends when it
/// does; a client that goes away drops it).
pub(crate) fn sse_response<S>(frames: S, extra: &[(&str, &str)]) -> HttpResponse
where
    S: futures_util::Stream<Item = Bytes> + 'static,
{
    use futures_util::StreamExt;
    let mut r = HttpResponse::Ok();
    r.content_type("text/event-stream; charset=utf-8")
        .insert_header(("cache-control", "no-store"))
        .insert_header(("x-accel-buffering", "no"));
    for (name, value) in extra {
        r.insert_header((*name, *value));
    }
    r.streaming(frames.map(Ok::<_, std::convert::Infallible>))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_strictly() {
        let ok = read_request(br#"{"jsonrpc":"2.0","id":1,"method":"m"}"#).expect("valid");
        assert_eq!(
            (ok.id, ok.method.as_str(), ok.params),
            (Some(json!(1)), "m", json!({}))
        );
        let note = read_request(br#"{"jsonrpc":"2.0","method":"n","params":{"a":1}}"#)
            .expect("a notification");
        assert_eq!(note.id, None);
        let code = |body: &[u8]| {
            read_request(body)
                .map(|_| ())
                .expect_err("refused")
                .error
                .code
        };
        assert_eq!(code(b"{not json"), -32700);
        assert_eq!(code(br#"[{"jsonrpc":"2.0","id":1,"method":"m"}]"#), -32600);
        assert_eq!(code(br#"{"jsonrpc":"1.0","id":1,"method":"m"}"#), -32600);
        assert_eq!(code(br#"{"jsonrpc":"2.0","id":{},"method":"m"}"#), -32600);
        assert_eq!(code(br#"{"jsonrpc":"2.0","id":1,"method":7}"#), -32600);
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#),
            -32602
        );
        let id = read_request(br#"{"jsonrpc":"1.0","id":"x","method":"m"}"#)
            .expect_err("refused")
            .id;
        assert_eq!(id, json!("x"), "an invalid request is answered with its id");
    }

    #[test]
    fn frames_are_one_data_line_and_a_blank_line() {
        let f = sse_frame(Some("message"), &json!({"a": "x\ny"}));
        assert_eq!(&f[..], b"event: message\ndata: {\"a\":\"x\\ny\"}\n\n");
        assert_eq!(&sse_frame(None, &json!(1))[..], b"data: 1\n\n");
    }
}
