//! The A2A errors the mock answers with, in both wire forms: a JSON-RPC
//! error object with an `ErrorInfo` in `data` (HTTP 200), and an AIP-193
//! body with the v1.0.1 HTTP status on the HTTP+JSON binding — as the
//! a2a-sdk 1.3 server writes them.

use accord_dsl::model::accord::{A2aErrorReason, ErrorExpectation};
use actix_web::HttpResponse;
use serde_json::{Value, json};

use crate::wire::RpcError;

/// An error the agent answers a request with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum A2aError {
    /// An A2A error with its reason, and the message.
    A2a(A2aErrorReason, String),
    /// The error an interaction or follow-up of the contract expects.
    Expected(ErrorExpectation),
    /// A JSON-RPC error of the envelope or params (-32600, -32601, -32602,
    /// -32700), with its HTTP status on the HTTP+JSON binding.
    Rpc(RpcError, u16),
    /// The caller presented no or the wrong credential: HTTP 401.
    Unauthenticated(String),
}

impl A2aError {
    pub(crate) fn task_not_found(id: &str) -> A2aError {
        A2aError::A2a(
            A2aErrorReason::TaskNotFound,
            format!("Task not found: {id}"),
        )
    }

    pub(crate) fn unsupported(why: impl Into<String>) -> A2aError {
        A2aError::A2a(A2aErrorReason::UnsupportedOperation, why.into())
    }

    pub(crate) fn invalid_params(why: impl std::fmt::Display) -> A2aError {
        A2aError::Rpc(RpcError::invalid_params(why), 400)
    }

    /// The JSON-RPC code, reason, message and HTTP status.
    fn parts(&self) -> (i64, Option<String>, String, u16) {
        match self {
            A2aError::A2a(reason, message) => (
                reason.json_rpc_code(),
                Some(reason.as_str().to_owned()),
                message.clone(),
                reason.http_statuses()[0],
            ),
            A2aError::Expected(e) => {
                let reason = e
                    .reason
                    .or_else(|| e.code.and_then(A2aErrorReason::from_json_rpc_code));
                let code = e
                    .code
                    .or(reason.map(A2aErrorReason::json_rpc_code))
                    .unwrap_or(-32603);
                let status = e
                    .http_status
                    .or(reason.map(|r| r.http_statuses()[0]))
                    .unwrap_or(400);
                let message = e
                    .message
                    .as_deref()
                    .map(example_of)
                    .or(reason.map(|r| r.as_str().to_lowercase().replace('_', " ")))
                    .unwrap_or_else(|| "refused as the contract expects".into());
                (code, reason.map(|r| r.as_str().to_owned()), message, status)
            }
            A2aError::Rpc(e, status) => (e.code, None, e.message.clone(), *status),
            A2aError::Unauthenticated(why) => (-32001, None, why.clone(), 401),
        }
    }

    /// The HTTP status on the HTTP+JSON binding (and of a 401 everywhere).
    pub(crate) fn status(&self) -> u16 {
        self.parts().3
    }

    /// The JSON-RPC error object.
    pub(crate) fn to_jsonrpc(&self) -> RpcError {
        if let A2aError::Rpc(e, _) = self {
            return e.clone();
        }
        let (code, reason, message, _) = self.parts();
        RpcError {
            data: reason.map(|r| json!([error_info(&r)])),
            ..RpcError::new(code, message)
        }
    }

    /// The HTTP+JSON (AIP-193) error body.
    pub(crate) fn to_rest(&self) -> Value {
        let (_, reason, message, status) = self.parts();
        json!({"error": {"code": status, "status": grpc_status(status),
            "message": message, "details": reason.map(|r| vec![error_info(&r)]).unwrap_or_default()}})
    }

    /// A 401 answer (both bindings: authentication is the transport's).
    pub(crate) fn unauthorized(&self) -> Option<HttpResponse> {
        let A2aError::Unauthenticated(why) = self else {
            return None;
        };
        Some(
            HttpResponse::Unauthorized()
                .insert_header(("www-authenticate", "Bearer"))
                .content_type("application/json")
                .body(
                    json!({"error": {"code": 401, "status": "UNAUTHENTICATED",
                    "message": why}})
                    .to_string(),
                ),
        )
    }
}

fn error_info(reason: &str) -> Value {
    json!({"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason,
        "domain": "a2a-protocol.org", "metadata": {}})
}

/// The `google.rpc.Code` name of an HTTP status.
fn grpc_status(status: u16) -> &'static str {
    match status {
        400 => "FAILED_PRECONDITION",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        409 => "ABORTED",
        415 => "INVALID_ARGUMENT",
        429 => "RESOURCE_EXHAUSTED",
        501 => "UNIMPLEMENTED",
        503 => "UNAVAILABLE",
        _ if status >= 500 => "INTERNAL",
        _ => "UNKNOWN",
    }
}

/// A message that the expected `message` pattern finds: the pattern
/// itself without regex syntax (the consumer wrote the words it searches).
fn example_of(pattern: &str) -> String {
    pattern
        .chars()
        .filter(|c| !"^$\\()[]{}*+?|".contains(*c))
        .collect::<String>()
        .replace(".", " ")
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_a2a_error_carries_its_reason_on_both_bindings() {
        let e = A2aError::task_not_found("t-1");
        let rpc = e.to_jsonrpc();
        assert_eq!(rpc.code, -32001);
        assert_eq!(
            rpc.data.as_ref().expect("data")[0]["reason"],
            "TASK_NOT_FOUND"
        );
        assert_eq!(e.status(), 404);
        assert_eq!(e.to_rest()["error"]["status"], "NOT_FOUND");
    }

    #[test]
    fn an_expected_error_is_answered_as_the_contract_says() {
        let e = A2aError::Expected(ErrorExpectation {
            reason: Some(A2aErrorReason::TaskNotCancelable),
            message: Some("cannot be cancel+ed".into()),
            ..ErrorExpectation::default()
        });
        let rpc = e.to_jsonrpc();
        assert_eq!(rpc.code, -32002);
        assert_eq!(rpc.message, "cannot be canceled");
        assert_eq!(e.status(), 400);
        let by_code = A2aError::Expected(ErrorExpectation {
            code: Some(-32602),
            http_status: Some(422),
            ..ErrorExpectation::default()
        });
        assert_eq!(by_code.to_jsonrpc().code, -32602);
        assert_eq!(by_code.status(), 422);
    }
}
