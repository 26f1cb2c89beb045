//! Expected errors: JSON-RPC codes, A2A error reasons, HTTP statuses.

use serde::{Deserialize, Serialize};

/// An error the provider is expected to answer with (A2A or MCP protocol
/// error). Every set field must agree with the actual error; at least one is
/// set.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ErrorExpectation {
    /// JSON-RPC error code (`-32001`, `-32602`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// A2A `ErrorInfo.reason` — the stable discriminator across bindings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<A2aErrorReason>,
    /// HTTP status (HTTP+JSON binding, MCP 2026-07-28, or transport-level
    /// refusals such as 401 for an unauthenticated caller). Not judged
    /// against a JSON-RPC error carried in HTTP 200.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    /// A regular expression searched for in the error message (the body
    /// matchers' dialect and engine: look-around and back-references work).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Whether the consumer treats the error as retryable; the verifier
    /// checks the provider's retry signals (status class, `Retry-After`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    /// What the consumer reads in the JSON-RPC error's `data` (MCP: e.g.
    /// `requiredCapabilities` of a -32021): the actual `data` must hold
    /// every key of this example with the same values (more keys are fine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

impl ErrorExpectation {
    /// An expectation of the A2A error with this reason, with its JSON-RPC code.
    pub fn a2a(reason: A2aErrorReason) -> Self {
        ErrorExpectation {
            code: Some(reason.json_rpc_code()),
            reason: Some(reason),
            ..ErrorExpectation::default()
        }
    }

    /// True when no field is set (such an expectation says nothing).
    pub fn is_empty(&self) -> bool {
        *self == ErrorExpectation::default()
    }
}

/// An error as the provider actually answered it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ActualError {
    /// JSON-RPC error code, if the binding has one: `None` on A2A's
    /// HTTP+JSON binding, whose `error.code` is the HTTP status.
    pub code: Option<i64>,
    /// `ErrorInfo.reason`, if present.
    pub reason: Option<String>,
    /// HTTP status of the answer.
    pub http_status: Option<u16>,
    /// The error message.
    pub message: Option<String>,
    /// The JSON-RPC error's `data`.
    pub data: Option<serde_json::Value>,
}

impl ErrorExpectation {
    /// The ways `actual` disagrees with this expectation, as sentences
    /// (empty: it agrees). Retryability is judged by the caller, which sees
    /// the transport's retry signals.
    ///
    /// On a binding without JSON-RPC codes (A2A HTTP+JSON), an expected
    /// A2A code is judged through the actual `ErrorInfo.reason`, which A2A
    /// v1.0 makes the same on every binding.
    pub fn disagreements(&self, actual: &ActualError) -> Vec<String> {
        let mut out = Vec::new();
        let actual_code = actual.code.or_else(|| {
            let reason = A2aErrorReason::from_wire(actual.reason.as_deref()?)?;
            Some(reason.json_rpc_code())
        });
        if let Some(c) = self.code.filter(|c| actual_code != Some(*c)) {
            out.push(format!(
                "expected JSON-RPC code {c}, got {}",
                show(actual_code)
            ));
        }
        // an error without ErrorInfo (a SHOULD since A2A v1.0.1) is known
        // by its A2A code
        let actual_reason = actual.reason.clone().or_else(|| {
            let code = actual.code?;
            A2aErrorReason::from_json_rpc_code(code).map(|r| r.as_str().to_owned())
        });
        if let Some(r) = self
            .reason
            .filter(|r| actual_reason.as_deref() != Some(r.as_str()))
        {
            out.push(format!(
                "expected reason {}, got {}",
                r.as_str(),
                show(actual.reason.as_ref())
            ));
        }
        if let Some(s) = self.http_status.filter(|s| !self.status_agrees(*s, actual)) {
            out.push(format!(
                "expected HTTP status {s}, got {}",
                show(actual.http_status)
            ));
        }
        if let Some(m) = &self.message {
            let text = actual.message.as_deref().unwrap_or_default();
            match crate::matching::SearchRegex::new(m) {
                Ok(re) if re.is_found(text) => {}
                Ok(_) => out.push(format!("expected a message matching `{m}`, got `{text}`")),
                Err(e) => out.push(format!(
                    "the expected message pattern `{m}` is invalid: {e}"
                )),
            }
        }
        if let Some(want) = &self.data {
            let got = actual.data.clone().unwrap_or(serde_json::Value::Null);
            let rules = crate::matching::Category::default();
            if let Some(m) = crate::matching::match_json(want, &got, &rules, true).first() {
                out.push(format!(
                    "expected error data {want}, got {got}: {} {}",
                    m.path, m.message
                ));
            }
        }
        out
    }
}

impl ErrorExpectation {
    /// Whether the actual HTTP status agrees with `expected`. A JSON-RPC
    /// error in an HTTP 200 answer (A2A JSON-RPC, MCP legacy) is judged by
    /// its code and reason: the status belongs to bindings that map errors
    /// to statuses. For an A2A reason, the v1.0.0 and v1.0.1 mappings
    /// (e.g. 409 or 400 for `TASK_NOT_CANCELABLE`) are both accepted.
    fn status_agrees(&self, expected: u16, actual: &ActualError) -> bool {
        let Some(got) = actual.http_status else {
            return false;
        };
        let in_200 = actual.code.is_some() && got == 200;
        let reason = self
            .reason
            .or_else(|| A2aErrorReason::from_json_rpc_code(self.code?));
        let both_mapped = reason.is_some_and(|r| {
            r.http_statuses().contains(&expected) && r.http_statuses().contains(&got)
        });
        got == expected || in_200 || both_mapped
    }
}

fn show<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "none".to_string(), |v| v.to_string())
}

/// A2A v1.0 error reasons (`ErrorInfo.reason`, domain `a2a-protocol.org`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum A2aErrorReason {
    /// JSON-RPC -32001.
    TaskNotFound,
    /// JSON-RPC -32002.
    TaskNotCancelable,
    /// JSON-RPC -32003.
    PushNotificationNotSupported,
    /// JSON-RPC -32004.
    UnsupportedOperation,
    /// JSON-RPC -32005.
    ContentTypeNotSupported,
    /// JSON-RPC -32006.
    InvalidAgentResponse,
    /// JSON-RPC -32007.
    ExtendedAgentCardNotConfigured,
    /// JSON-RPC -32008.
    ExtensionSupportRequired,
    /// JSON-RPC -32009.
    VersionNotSupported,
}

impl A2aErrorReason {
    /// Every reason, in code order.
    pub const ALL: [A2aErrorReason; 9] = [
        A2aErrorReason::TaskNotFound,
        A2aErrorReason::TaskNotCancelable,
        A2aErrorReason::PushNotificationNotSupported,
        A2aErrorReason::UnsupportedOperation,
        A2aErrorReason::ContentTypeNotSupported,
        A2aErrorReason::InvalidAgentResponse,
        A2aErrorReason::ExtendedAgentCardNotConfigured,
        A2aErrorReason::ExtensionSupportRequired,
        A2aErrorReason::VersionNotSupported,
    ];

    /// The JSON-RPC code of the A2A error (`-32001` … `-32009`).
    pub fn json_rpc_code(self) -> i64 {
        let index = A2aErrorReason::ALL
            .iter()
            .position(|r| *r == self)
            .expect("ALL lists every reason");
        -32001 - index as i64
    }

    /// The HTTP statuses of the error on the HTTP+JSON binding: the
    /// v1.0.1 mapping first, then the v1.0.0 one where it differs (the
    /// SDKs follow v1.0.1, the TCK 1.0-dev branch v1.0.0).
    pub fn http_statuses(self) -> &'static [u16] {
        match self {
            A2aErrorReason::TaskNotFound => &[404],
            A2aErrorReason::TaskNotCancelable => &[400, 409],
            A2aErrorReason::ContentTypeNotSupported => &[400, 415],
            A2aErrorReason::InvalidAgentResponse => &[500, 502],
            _ => &[400],
        }
    }

    /// The reason written `s` on the wire, if it is an A2A v1.0 reason.
    pub fn from_wire(s: &str) -> Option<A2aErrorReason> {
        A2aErrorReason::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// The A2A reason of a JSON-RPC code in `-32001 ..= -32009`.
    pub fn from_json_rpc_code(code: i64) -> Option<A2aErrorReason> {
        A2aErrorReason::ALL
            .into_iter()
            .find(|r| r.json_rpc_code() == code)
    }

    /// The reason as written on the wire (`TASK_NOT_FOUND`).
    pub fn as_str(self) -> &'static str {
        match self {
            A2aErrorReason::TaskNotFound => "TASK_NOT_FOUND",
            A2aErrorReason::TaskNotCancelable => "TASK_NOT_CANCELABLE",
            A2aErrorReason::PushNotificationNotSupported => "PUSH_NOTIFICATION_NOT_SUPPORTED",
            A2aErrorReason::UnsupportedOperation => "UNSUPPORTED_OPERATION",
            A2aErrorReason::ContentTypeNotSupported => "CONTENT_TYPE_NOT_SUPPORTED",
            A2aErrorReason::InvalidAgentResponse => "INVALID_AGENT_RESPONSE",
            A2aErrorReason::ExtendedAgentCardNotConfigured => "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            A2aErrorReason::ExtensionSupportRequired => "EXTENSION_SUPPORT_REQUIRED",
            A2aErrorReason::VersionNotSupported => "VERSION_NOT_SUPPORTED",
        }
    }
}

#[cfg(test)]
#[path = "errors_tests.rs"]
mod tests;
