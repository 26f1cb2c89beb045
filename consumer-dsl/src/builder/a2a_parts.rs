//! Builders of A2A error expectations, cancel and push scenarios.

use crate::model::accord::{A2aErrorReason, TaskState};
use crate::spec::StateName;
use crate::spec::ast::{CancelSpec, ErrorSpec, PushSpec};

/// Builds an expected error.
#[derive(Debug, Default)]
pub struct ErrorBuilder(pub(crate) ErrorSpec);

impl ErrorBuilder {
    /// JSON-RPC code.
    pub fn code(mut self, code: i64) -> Self {
        self.0.code = Some(code);
        self
    }

    /// A2A error reason (brings its code).
    pub fn reason(mut self, reason: A2aErrorReason) -> Self {
        self.0.reason = Some(reason);
        self
    }

    /// HTTP status.
    pub fn http_status(mut self, status: u16) -> Self {
        self.0.http_status = Some(status);
        self
    }

    /// A regular expression the message matches.
    pub fn message(mut self, regex: impl Into<String>) -> Self {
        self.0.message = Some(regex.into());
        self
    }

    /// Retryable or not.
    pub fn retryable(mut self, retryable: bool) -> Self {
        self.0.retryable = Some(retryable);
        self
    }

    /// MCP: what the consumer reads in the error's `data` (an example
    /// the actual data must hold).
    pub fn data(mut self, data: serde_json::Value) -> Self {
        self.0.data = Some(data);
        self
    }
}

/// Builds a cancel scenario.
#[derive(Debug, Default)]
pub struct CancelBuilder(pub(crate) CancelSpec);

impl CancelBuilder {
    /// The state expected after the cancel (default CANCELED).
    pub fn expect(mut self, state: TaskState) -> Self {
        self.0.expect = Some(StateName(state));
        self
    }

    /// The cancel must fail instead.
    pub fn fails_with(mut self, f: impl FnOnce(ErrorBuilder) -> ErrorBuilder) -> Self {
        self.0.error = Some(f(ErrorBuilder::default()).0);
        self
    }

    /// Read the counters again this long after the cancel acknowledgement.
    pub fn observe_ms(mut self, ms: u64) -> Self {
        self.0.observe_ms = Some(ms);
        self
    }
}

/// Builds a push scenario.
#[derive(Debug, Default)]
pub struct PushBuilder(pub(crate) PushSpec);

impl PushBuilder {
    /// The token the agent echoes.
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.0.token = Some(token.into());
        self
    }

    /// The webhook authentication scheme.
    pub fn scheme(mut self, scheme: impl Into<String>) -> Self {
        self.0.scheme = Some(scheme.into());
        self
    }

    /// States that must be delivered, in order.
    pub fn expect_states(mut self, states: impl IntoIterator<Item = TaskState>) -> Self {
        self.0.expect = states.into_iter().map(StateName).collect();
        self
    }

    /// Registering must fail instead.
    pub fn fails_with(mut self, f: impl FnOnce(ErrorBuilder) -> ErrorBuilder) -> Self {
        self.0.error = Some(f(ErrorBuilder::default()).0);
        self
    }
}
