//! The one HTTP error mapping point: every failure of a request becomes a
//! `BrokerError`, rendered as `application/problem+json` (RFC 9457) with a
//! stable `type`, the exact status, and Pact's legacy `errors` object
//! (`{"field": ["message"]}`) that the official Pact clients print.
//!
//! `negotiate` (a middleware in `server.rs`) relabels the body as
//! `application/json` for clients that accept JSON but not problem+json.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde_json::{Map, Value, json};

use crate::store::StoreError;

/// One field (or JSON path) at fault and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// A field name (`pacticipantName`), a JSON path (`$.contracts[0].content`)
    /// or a query parameter (`q[][pacticipant]`).
    pub field: String,
    pub message: String,
}

impl FieldError {
    /// `field` is at fault because of `message`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum BrokerError {
    /// 400: the request is malformed (bad JSON, wrong types, invalid fields).
    #[error("{detail}")]
    BadRequest {
        detail: String,
        errors: Vec<FieldError>,
    },
    /// 401: no credentials, or credentials that match nothing.
    #[error("authentication required")]
    Unauthorized,
    /// 401: credentials were sent but match no token or account.
    #[error("the credentials presented were not accepted")]
    BadCredentials,
    /// 403: valid credentials without the role the route needs.
    #[error("the {needed} role is required")]
    Forbidden { needed: &'static str },
    /// 404: the resource does not exist.
    #[error("{what} was not found")]
    NotFound { what: String },
    /// 409: the request conflicts with stored state (changed contract content).
    #[error("{detail}")]
    Conflict {
        detail: String,
        errors: Vec<FieldError>,
        /// Extra members merged into the body (Pact's `notices`).
        extra: Map<String, Value>,
    },
    /// 408: the request body stopped arriving (see `limits`).
    #[error(
        "the request body did not arrive in time (the body timeout is {seconds} s, plus 1 s per 16 KiB received)"
    )]
    RequestTimeout { seconds: u64 },
    /// An error actix answered by itself (a method the route does not
    /// take, a body it could not read), with its status, in our shape.
    #[error("{detail}")]
    Http {
        status: u16,
        detail: String,
        errors: Vec<FieldError>,
    },
    /// 413: the body is larger than the configured limit.
    #[error("the request body is larger than the limit of {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// 415: the body is not of a media type the route accepts.
    #[error("unsupported media type {got:?}; send {expected}")]
    UnsupportedMediaType { got: String, expected: &'static str },
    /// 422: well-formed, but semantically wrong (a contract the model refuses).
    #[error("{detail}")]
    Unprocessable {
        detail: String,
        errors: Vec<FieldError>,
    },
    /// 503: the database could not be reached in time.
    #[error("the database is unavailable")]
    Unavailable(#[source] StoreError),
    /// 503: the write lost a deadlock or serialization conflict with a
    /// concurrent one and was rolled back whole: nothing was stored.
    #[error("a concurrent write conflicted with this one; nothing was stored: retry")]
    Contention(#[source] StoreError),
    /// 503: the server is shutting down and refused the work.
    #[error("the broker is shutting down")]
    ShuttingDown,
    /// 500: anything else the database said.
    #[error("internal storage error")]
    Store(#[source] StoreError),
}

impl From<StoreError> for BrokerError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Pool(_) | StoreError::Connect(_) => BrokerError::Unavailable(e),
            other if other.is_contention() => BrokerError::Contention(other),
            other => BrokerError::Store(other),
        }
    }
}

impl From<diesel::result::Error> for BrokerError {
    fn from(e: diesel::result::Error) -> Self {
        BrokerError::from(StoreError::from(e))
    }
}

impl BrokerError {
    /// 400 naming one field.
    pub fn bad_field(field: impl Into<String>, message: impl Into<String>) -> Self {
        let error = FieldError::new(field, message);
        BrokerError::BadRequest {
            detail: format!("{}: {}", error.field, error.message),
            errors: vec![error],
        }
    }

    /// 404 for `what` (e.g. "Pacticipant 'Foo'").
    pub fn not_found(what: impl Into<String>) -> Self {
        BrokerError::NotFound { what: what.into() }
    }

    /// The stable problem type; never rename one that has shipped.
    pub fn problem_type(&self) -> &'static str {
        match self {
            BrokerError::BadRequest { .. } => "urn:accord:problem:bad-request",
            BrokerError::Unauthorized | BrokerError::BadCredentials => {
                "urn:accord:problem:unauthorized"
            }
            BrokerError::Forbidden { .. } => "urn:accord:problem:forbidden",
            BrokerError::NotFound { .. } => "urn:accord:problem:not-found",
            BrokerError::Conflict { .. } => "urn:accord:problem:conflict",
            BrokerError::PayloadTooLarge { .. } => "urn:accord:problem:payload-too-large",
            BrokerError::RequestTimeout { .. } => "urn:accord:problem:request-timeout",
            BrokerError::Http { .. } => "urn:accord:problem:http",
            BrokerError::UnsupportedMediaType { .. } => "urn:accord:problem:unsupported-media-type",
            BrokerError::Unprocessable { .. } => "urn:accord:problem:unprocessable",
            BrokerError::Unavailable(_) => "urn:accord:problem:unavailable",
            BrokerError::Contention(_) => "urn:accord:problem:contention",
            BrokerError::ShuttingDown => "urn:accord:problem:unavailable",
            BrokerError::Store(_) => "urn:accord:problem:internal",
        }
    }

    fn title(&self) -> &'static str {
        match self {
            BrokerError::BadRequest { .. } => "Invalid request",
            BrokerError::Unauthorized | BrokerError::BadCredentials => "Unauthorized",
            BrokerError::Forbidden { .. } => "Forbidden",
            BrokerError::NotFound { .. } => "Not found",
            BrokerError::Conflict { .. } => "Conflict",
            BrokerError::PayloadTooLarge { .. } => "Payload too large",
            BrokerError::RequestTimeout { .. } => "Request timeout",
            BrokerError::Http { .. } => "Request refused",
            BrokerError::UnsupportedMediaType { .. } => "Unsupported media type",
            BrokerError::Unprocessable { .. } => "Unprocessable content",
            BrokerError::Unavailable(_) => "Service unavailable",
            BrokerError::Contention(_) => "Concurrent write",
            BrokerError::ShuttingDown => "Service unavailable",
            BrokerError::Store(_) => "Internal error",
        }
    }

    fn field_errors(&self) -> &[FieldError] {
        match self {
            BrokerError::BadRequest { errors, .. }
            | BrokerError::Conflict { errors, .. }
            | BrokerError::Unprocessable { errors, .. }
            | BrokerError::Http { errors, .. } => errors,
            _ => &[],
        }
    }

    /// The problem+json body.
    pub fn body(&self) -> Value {
        let status = self.status_code().as_u16();
        let mut body = json!({
            "type": self.problem_type(),
            "title": self.title(),
            "status": status,
            "detail": self.to_string(),
        });
        let mut legacy = Map::new();
        for e in self.field_errors() {
            let entry = legacy
                .entry(e.field.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = entry {
                list.push(Value::String(e.message.clone()));
            }
        }
        if let Value::Object(map) = &mut body {
            if !legacy.is_empty() {
                map.insert("errors".into(), Value::Object(legacy));
            }
            if let BrokerError::Conflict { extra, .. } = self {
                map.extend(extra.clone());
            }
        }
        body
    }
}

impl ResponseError for BrokerError {
    fn status_code(&self) -> StatusCode {
        match self {
            BrokerError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            BrokerError::Unauthorized | BrokerError::BadCredentials => StatusCode::UNAUTHORIZED,
            BrokerError::Forbidden { .. } => StatusCode::FORBIDDEN,
            BrokerError::NotFound { .. } => StatusCode::NOT_FOUND,
            BrokerError::Conflict { .. } => StatusCode::CONFLICT,
            BrokerError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            BrokerError::RequestTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
            BrokerError::Http { status, .. } => {
                StatusCode::from_u16(*status).unwrap_or(StatusCode::BAD_REQUEST)
            }
            BrokerError::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            BrokerError::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            BrokerError::Unavailable(_)
            | BrokerError::Contention(_)
            | BrokerError::ShuttingDown => StatusCode::SERVICE_UNAVAILABLE,
            BrokerError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let BrokerError::Store(e) | BrokerError::Unavailable(e) | BrokerError::Contention(e) =
            self
        {
            tracing::error!(error = %e, source = ?std::error::Error::source(e), "request failed in storage");
        }
        let mut response = HttpResponse::build(self.status_code());
        response.content_type(PROBLEM_JSON);
        if matches!(self, BrokerError::Contention(_)) {
            response.insert_header(("Retry-After", "1"));
        }
        if matches!(
            self,
            BrokerError::Unauthorized | BrokerError::BadCredentials
        ) {
            response.insert_header(("WWW-Authenticate", "Bearer, Basic realm=\"accord\""));
        }
        response.body(self.body().to_string())
    }
}

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_error_appears_in_the_legacy_errors_object() {
        let body = BrokerError::bad_field("pacticipantName", "is required").body();
        assert_eq!(body["status"], 400);
        assert_eq!(body["type"], "urn:accord:problem:bad-request");
        assert_eq!(body["errors"]["pacticipantName"][0], "is required");
    }

    #[test]
    fn each_error_has_its_own_status() {
        assert_eq!(
            BrokerError::Unauthorized.status_code(),
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            BrokerError::Forbidden { needed: "write" }.status_code(),
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            BrokerError::not_found("x").status_code(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            BrokerError::PayloadTooLarge { limit: 1 }.status_code(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }
}
