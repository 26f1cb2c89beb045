//! Reading a request body: media type checked (415), size capped by the
//! payload limit (413), JSON parsed with the path of the first wrong field
//! (400). Nesting deeper than serde_json's limit is a 400, not a crash.

use accord_dsl::objects::Objects;
use actix_web::HttpRequest;
use actix_web::http::header::CONTENT_TYPE;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{BrokerError, FieldError};

/// The media types a JSON body may carry.
const JSON_TYPES: [&str; 3] = [
    "application/json",
    "application/hal+json",
    "application/merge-patch+json",
];

/// Refuses a body whose Content-Type is not JSON. An empty body with no
/// Content-Type is allowed (Pact clients PUT `{}` or nothing).
pub fn require_json(req: &HttpRequest, body: &[u8]) -> Result<(), BrokerError> {
    let Some(value) = req.headers().get(CONTENT_TYPE) else {
        return if body.is_empty() {
            Ok(())
        } else {
            Err(BrokerError::UnsupportedMediaType {
                got: "(none)".into(),
                expected: "application/json",
            })
        };
    };
    let text = value.to_str().unwrap_or("");
    let essence = text
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if JSON_TYPES.contains(&essence.as_str()) {
        Ok(())
    } else {
        Err(BrokerError::UnsupportedMediaType {
            got: text.to_owned(),
            expected: "application/json",
        })
    }
}

/// Parses the body as `T`; an empty body reads as `{}`. A struct is read
/// only from a JSON object (`accord_dsl::objects`): serde_json alone
/// would take `["alice", null, …]` as a request's fields in order.
pub fn parse<T: DeserializeOwned>(req: &HttpRequest, body: &[u8]) -> Result<T, BrokerError> {
    let value = parse_value(req, body)?;
    serde_path_to_error::deserialize(Objects(&value)).map_err(|e| {
        let path = json_path(&e.path().to_string());
        let message = e.into_inner().to_string();
        BrokerError::BadRequest {
            detail: format!("{path}: {message}"),
            errors: vec![FieldError::new(path, message)],
        }
    })
}

/// Parses the body as JSON; an empty body reads as `{}`.
pub fn parse_value(req: &HttpRequest, body: &[u8]) -> Result<Value, BrokerError> {
    require_json(req, body)?;
    let bytes: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        body
    };
    serde_json::from_slice(bytes)
        .map_err(|e| BrokerError::bad_field("$", format!("is not valid JSON: {e}")))
}

/// Parses the body as a JSON object (for merge-patch and pass-through bodies).
pub fn parse_object(
    req: &HttpRequest,
    body: &[u8],
) -> Result<serde_json::Map<String, Value>, BrokerError> {
    match parse_value(req, body)? {
        Value::Object(map) => Ok(map),
        other => Err(BrokerError::bad_field(
            "$",
            format!("must be a JSON object, not {}", kind(&other)),
        )),
    }
}

/// `$.a.b[0]` from serde_path_to_error's `a.b[0]` (`.` means the root).
pub fn json_path(path: &str) -> String {
    if path.is_empty() || path == "." {
        "$".into()
    } else {
        format!("$.{path}")
    }
}

/// The JSON type name of a value, for messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[derive(Debug, serde::Deserialize)]
    struct Body {
        name: String,
        inner: Inner,
    }
    #[derive(Debug, serde::Deserialize)]
    struct Inner {
        count: u32,
    }

    #[test]
    fn a_wrong_type_is_reported_with_its_json_path() {
        let req = TestRequest::default()
            .insert_header((CONTENT_TYPE, "application/json"))
            .to_http_request();
        let err = parse::<Body>(&req, br#"{"name":"x","inner":{"count":"7"}}"#)
            .expect_err("the body is refused");
        let body = err.body();
        assert!(
            body["errors"]["$.inner.count"][0]
                .as_str()
                .unwrap_or("")
                .contains("invalid type")
        );
    }

    #[test]
    fn a_struct_written_as_an_array_is_refused_at_any_depth() {
        let req = TestRequest::default()
            .insert_header((CONTENT_TYPE, "application/json"))
            .to_http_request();
        // serde_json alone reads both as the fields in order
        for (body, at) in [
            (&br#"["x", {"count": 7}]"#[..], "$"),
            (&br#"{"name": "x", "inner": [7]}"#[..], "$.inner"),
        ] {
            let err = parse::<Body>(&req, body).expect_err("the body is refused");
            let errors = &err.body()["errors"][at];
            let says = errors[0].as_str().unwrap_or("");
            assert!(says.contains("invalid type: sequence"), "{}", err.body());
        }
        let read =
            parse::<Body>(&req, br#"{"name": "x", "inner": {"count": 7}}"#).expect("an object");
        assert_eq!((read.name.as_str(), read.inner.count), ("x", 7));
        let err = parse::<Body>(&req, b"{\"name\": ").expect_err("not JSON");
        assert!(
            err.body()["errors"]["$"][0]
                .as_str()
                .unwrap_or("")
                .starts_with("is not valid JSON")
        );
    }

    #[test]
    fn a_non_json_media_type_is_415() {
        let req = TestRequest::default()
            .insert_header((CONTENT_TYPE, "text/plain"))
            .to_http_request();
        let err = parse::<Value>(&req, b"{}").expect_err("the body is refused");
        assert!(matches!(err, BrokerError::UnsupportedMediaType { .. }));
    }

    #[test]
    fn deep_nesting_is_a_400_not_a_crash() {
        let req = TestRequest::default()
            .insert_header((CONTENT_TYPE, "application/json"))
            .to_http_request();
        let deep = "[".repeat(100_000);
        let err = parse::<Value>(&req, deep.as_bytes()).expect_err("the body is refused");
        assert!(matches!(err, BrokerError::BadRequest { .. }));
    }
}
