//! A2A v1.0 on the wire, as raw as a verdict needs: one operation is one
//! HTTP request on the interface's binding, and the answer keeps its HTTP
//! status, headers, body and the A2A result or error.
//!
//! - JSON-RPC: `POST` to the interface URL, the method named as A2A v1.0
//!   names it (`SendMessage`), errors in HTTP 200 with `ErrorInfo` in
//!   `data`; the interface's `tenant` goes into the params.
//! - HTTP+JSON: the routes of the spec (`POST /message:send`,
//!   `GET /tasks/{id}`, …) under the interface URL (after `/{tenant}`
//!   when the interface has one), errors as AIP-193 bodies whose
//!   `ErrorInfo.reason` is the discriminator.
//!
//! Every request carries `A2A-Version` (the pinned `1.0`, or the
//! interaction's `a2aVersion`; empty: none).

use std::time::Duration;

use accord_dsl::model::accord::ActualError;
use serde_json::{Value, json};

use crate::config::Token;
use crate::driver::Authorization;
use crate::transport::{Received, Transport};

/// The protocol binding of an interface the verifier speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Binding {
    /// `JSONRPC`.
    JsonRpc,
    /// `HTTP+JSON`.
    HttpJson,
}

impl Binding {
    /// The card's `protocolBinding` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
        }
    }

    /// The binding a card names, if the verifier speaks it.
    pub fn of(name: &str) -> Option<Binding> {
        match name.to_ascii_uppercase().as_str() {
            "JSONRPC" => Some(Binding::JsonRpc),
            "HTTP+JSON" => Some(Binding::HttpJson),
            _ => None,
        }
    }
}

/// One interface of the agent's card.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Interface {
    pub binding: Binding,
    pub url: String,
    /// Sent as the binding says when set (JSON-RPC param, REST path prefix).
    pub tenant: Option<String>,
    /// Credentials and `--header` values may be sent: the interface is on
    /// an origin the user chose (`interface::admit`). False as the card
    /// gives it, so an interface nobody admitted gets none.
    pub credentials: bool,
}

/// An A2A error as answered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct A2aError {
    /// The JSON-RPC code (none on HTTP+JSON, whose `code` is the status).
    pub code: Option<i64>,
    /// `ErrorInfo.reason`.
    pub reason: Option<String>,
    pub message: String,
}

/// What an operation's answer held.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The result (a `SendMessageResponse`, a `Task`, …).
    Result(Value),
    /// An A2A error.
    Error(A2aError),
    /// No A2A answer at all (an HTTP refusal without an A2A body, not
    /// JSON, another JSON-RPC id): why.
    NotA2a(String),
}

/// The answer to one operation.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub outcome: Outcome,
    pub ack: Duration,
    pub total: Duration,
    pub body: Vec<u8>,
}

impl Answer {
    /// The error as the contract's error expectation judges it.
    pub fn actual_error(&self) -> Option<ActualError> {
        let (code, reason, message) = match &self.outcome {
            Outcome::Error(e) => (e.code, e.reason.clone(), Some(e.message.clone())),
            Outcome::NotA2a(_) if self.status >= 400 => (None, None, None),
            _ => return None,
        };
        Some(ActualError {
            code,
            reason,
            http_status: Some(self.status),
            message,
            data: None,
        })
    }

    /// Served: a result came back.
    pub fn served(&self) -> bool {
        matches!(self.outcome, Outcome::Result(_))
    }

    /// The first value of a header (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        crate::transport::first_header(&self.headers, name)
    }
}

/// Who sends, where, with which version header.
#[derive(Debug, Clone, Copy)]
pub struct Client<'a> {
    pub transport: &'a Transport,
    pub interface: &'a Interface,
    pub authorization: Authorization<'a>,
    pub custom_headers: &'a [(String, Token)],
    /// The `A2A-Version` header; empty: none.
    pub version: &'a str,
}

/// The JSON-RPC id of every request (one request per connection use).
pub const RPC_ID: u64 = 1;

impl Client<'_> {
    /// The same client with another credential.
    pub fn with_authorization<'b>(&self, authorization: Authorization<'b>) -> Client<'b>
    where
        Self: 'b,
    {
        Client {
            authorization,
            ..*self
        }
    }

    /// The answer in a received response.
    pub fn answer(&self, received: Received) -> Answer {
        let outcome = outcome(self.interface.binding, received.status, &received.body);
        Answer {
            status: received.status,
            headers: received.headers,
            outcome,
            ack: received.ack,
            total: received.total,
            body: received.body,
        }
    }
}

/// The A2A outcome of a body on a binding.
pub fn outcome(binding: Binding, status: u16, body: &[u8]) -> Outcome {
    let empty = body.iter().all(u8::is_ascii_whitespace);
    if binding == Binding::HttpJson && empty && (200..300).contains(&status) {
        // a REST success with nothing to say (204 to a DELETE)
        return Outcome::Result(json!({}));
    }
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Outcome::NotA2a(format!("HTTP {status} with a body that is not JSON"));
    };
    match binding {
        Binding::JsonRpc => rpc_outcome(&value, status),
        Binding::HttpJson if (200..300).contains(&status) => Outcome::Result(value),
        Binding::HttpJson => match rest_error(&value) {
            Some(e) => Outcome::Error(e),
            None => Outcome::NotA2a(format!("HTTP {status} without an A2A error body")),
        },
    }
}

/// A JSON-RPC response (or one SSE frame of one) with the request's id.
pub fn rpc_outcome(value: &Value, status: u16) -> Outcome {
    if value.get("jsonrpc") != Some(&json!("2.0")) {
        return Outcome::NotA2a(format!("HTTP {status}: not a JSON-RPC 2.0 response"));
    }
    let null_id_error = value.get("id").is_none_or(Value::is_null) && value.get("error").is_some();
    if value.get("id") != Some(&json!(RPC_ID)) && !null_id_error {
        let got = value.get("id").cloned().unwrap_or(Value::Null);
        return Outcome::NotA2a(format!(
            "a JSON-RPC response with id {got}, the request's id is {RPC_ID}"
        ));
    }
    if let Some(error) = value.get("error") {
        return Outcome::Error(A2aError {
            code: error.get("code").and_then(Value::as_i64),
            reason: error_info_reason(error.get("data")),
            message: text_of(error.get("message")),
        });
    }
    match value.get("result") {
        Some(result) => Outcome::Result(result.clone()),
        None => Outcome::NotA2a("a JSON-RPC response with neither result nor error".into()),
    }
}

/// An AIP-193 error body (`{"error": {code, status, message, details}}`).
pub fn rest_error(value: &Value) -> Option<A2aError> {
    let error = value.get("error")?.as_object()?;
    Some(A2aError {
        code: None,
        reason: error_info_reason(error.get("details")),
        message: text_of(error.get("message")),
    })
}

/// The `reason` of the first `google.rpc.ErrorInfo` in a details array.
fn error_info_reason(details: Option<&Value>) -> Option<String> {
    details?
        .as_array()?
        .iter()
        .filter(|d| {
            d.get("@type")
                .and_then(Value::as_str)
                .is_none_or(|t| t.ends_with("google.rpc.ErrorInfo"))
        })
        .find_map(|d| d.get("reason")?.as_str().map(str::to_owned))
}

fn text_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_str).unwrap_or_default().to_owned()
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
