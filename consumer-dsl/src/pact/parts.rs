//! Reading one request, response or message of a given specification
//! version into the model, in the JSON shapes Pact files and the
//! pact-specification test cases use.
//!
//! Version differences handled here:
//! - V1–V2 `query` is a string (`a=b&c=d`, URL-decoded); V3–V4 a map of
//!   name → list of values (V4 also allows a plain string value).
//! - V1–V3 bodies are raw JSON values typed by the `Content-Type` header (a
//!   string body with an XML or text content type is text); V4 bodies are
//!   `{content, contentType, encoded}`.
//! - Absent, `null` and empty bodies stay distinct ([`Body`]).
//!
//! Every error names the JSON path of the offending field.

use base64::Engine;
use serde_json::{Map, Value};

mod body;
mod query;

use super::json::{Fields, extra};
use crate::DslError;
use crate::generators::Generators;
use crate::matching::MatchingRules;
use crate::model::{Body, Headers, HttpRequest, HttpResponse, Message, PactSpec};
use body::{body_from_raw, body_from_v4};
use query::query_from_json;
pub use query::{parse_query_string, url_decode};

pub(crate) const REQUEST_KEYS: &[&str] = &[
    "method",
    "path",
    "query",
    "headers",
    "body",
    "matchingRules",
    "generators",
];
pub(crate) const RESPONSE_KEYS: &[&str] =
    &["status", "headers", "body", "matchingRules", "generators"];
const MESSAGE_KEYS: &[&str] = &[
    "contents",
    "metadata",
    "metaData",
    "matchingRules",
    "generators",
];

/// Reads a request at the root of `v` (error paths start at `$`).
pub fn request_from_json(v: &Value, spec: PactSpec, origin: &str) -> Result<HttpRequest, DslError> {
    request_from_json_at(v, spec, origin, "$")
}

/// Reads a response at the root of `v` (error paths start at `$`).
pub fn response_from_json(
    v: &Value,
    spec: PactSpec,
    origin: &str,
) -> Result<HttpResponse, DslError> {
    response_from_json_at(v, spec, origin, "$")
}

/// Reads a message at the root of `v` (error paths start at `$`).
pub fn message_from_json(v: &Value, spec: PactSpec, origin: &str) -> Result<Message, DslError> {
    message_from_json_at(v, spec, origin, "$")
}

/// Reads a request found at JSON path `at` of the document `origin`.
pub fn request_from_json_at(
    v: &Value,
    spec: PactSpec,
    origin: &str,
    at: &str,
) -> Result<HttpRequest, DslError> {
    let cx = Cx { spec, origin, at };
    request_from_fields(cx.object(v, at)?, spec, origin, at)
}

/// [`request_from_json_at`] of an object's attributes (a `Value`'s, or
/// the typed ones of `read_typed`).
pub(crate) fn request_from_fields(
    obj: &impl Fields,
    spec: PactSpec,
    origin: &str,
    at: &str,
) -> Result<HttpRequest, DslError> {
    let cx = Cx { spec, origin, at };
    let method = match obj.field("method") {
        None => "GET".to_string(),
        Some(m) => cx.string(m, "method")?.to_string(),
    };
    let path = match obj.field("path") {
        None => "/".to_string(),
        Some(p) => cx.string(p, "path")?.to_string(),
    };
    let query = match obj.field("query") {
        None | Some(Value::Null) => None,
        Some(q) => Some(query_from_json(q, spec, origin, &cx.path("query"))?),
    };
    let headers = cx.headers(obj)?;
    let body = cx.body(obj.field("body"), headers.as_ref(), "body")?;
    Ok(HttpRequest {
        method,
        path,
        query,
        headers,
        body,
        matching_rules: cx.rules(obj)?,
        generators: cx.generators(obj)?,
        extra: obj.unknown(REQUEST_KEYS),
    })
}

/// Reads a response found at JSON path `at` of the document `origin`.
pub fn response_from_json_at(
    v: &Value,
    spec: PactSpec,
    origin: &str,
    at: &str,
) -> Result<HttpResponse, DslError> {
    let cx = Cx { spec, origin, at };
    response_from_fields(cx.object(v, at)?, spec, origin, at)
}

/// [`response_from_json_at`] of an object's attributes.
pub(crate) fn response_from_fields(
    obj: &impl Fields,
    spec: PactSpec,
    origin: &str,
    at: &str,
) -> Result<HttpResponse, DslError> {
    let cx = Cx { spec, origin, at };
    let status = match obj.field("status") {
        None => 200,
        Some(s) => s
            .as_u64()
            .and_then(|n| u16::try_from(n).ok())
            .ok_or_else(|| cx.invalid("status", "must be an HTTP status code (a number)"))?,
    };
    let headers = cx.headers(obj)?;
    let body = cx.body(obj.field("body"), headers.as_ref(), "body")?;
    Ok(HttpResponse {
        status,
        headers,
        body,
        matching_rules: cx.rules(obj)?,
        generators: cx.generators(obj)?,
        extra: obj.unknown(RESPONSE_KEYS),
    })
}

/// Reads a message found at JSON path `at` of the document `origin`.
///
/// V3 messages hold raw `contents` and `metaData` (or `metadata`); V4
/// messages hold `contents` as `{content, contentType, encoded}`. The
/// content type comes from the V4 attribute or the metadata's
/// `contentType` / `Content-Type`.
pub fn message_from_json_at(
    v: &Value,
    spec: PactSpec,
    origin: &str,
    at: &str,
) -> Result<Message, DslError> {
    let cx = Cx { spec, origin, at };
    let obj = cx.object(v, at)?;
    let (metadata, meta_key) = match (obj.get("metadata"), obj.get("metaData")) {
        (Some(m), _) => (m, "metadata"),
        (None, Some(m)) => (m, "metaData"),
        (None, None) => (&Value::Null, "metadata"),
    };
    let metadata = match metadata {
        Value::Null => Map::new(),
        Value::Object(m) => m.clone(),
        _ => return Err(cx.invalid(meta_key, "must be an object")),
    };
    let content_type = metadata
        .iter()
        .find(|(k, _)| {
            k.eq_ignore_ascii_case("contentType") || k.eq_ignore_ascii_case("content-type")
        })
        .and_then(|(_, v)| v.as_str())
        .map(str::to_string);
    let contents = cx.body_with_type(obj.get("contents"), content_type, "contents")?;
    Ok(Message {
        contents,
        metadata,
        matching_rules: cx.rules(obj)?,
        generators: cx.generators(obj)?,
        extra: extra(obj, MESSAGE_KEYS),
    })
}

/// The version, origin and base path shared by one read.
struct Cx<'a> {
    spec: PactSpec,
    origin: &'a str,
    at: &'a str,
}

impl Cx<'_> {
    fn path(&self, field: &str) -> String {
        format!("{}.{field}", self.at)
    }

    fn invalid(&self, field: &str, message: &str) -> DslError {
        DslError::invalid(self.origin, self.path(field), message)
    }

    fn object<'v>(&self, v: &'v Value, at: &str) -> Result<&'v Map<String, Value>, DslError> {
        v.as_object()
            .ok_or_else(|| DslError::invalid(self.origin, at, "must be an object"))
    }

    fn string<'v>(&self, v: &'v Value, field: &str) -> Result<&'v str, DslError> {
        v.as_str()
            .ok_or_else(|| self.invalid(field, "must be a string"))
    }

    fn headers(&self, obj: &impl Fields) -> Result<Option<Headers>, DslError> {
        let Some(h) = obj.field("headers") else {
            return Ok(None);
        };
        let map = match h {
            Value::Null => return Ok(None),
            Value::Object(m) => m,
            _ => return Err(self.invalid("headers", "must be an object")),
        };
        let mut headers = Headers::with_capacity(map.len());
        for (name, value) in map {
            let values = match value {
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.header_value(item, &format!("headers.{name}[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?,
                other => vec![self.header_value(other, &format!("headers.{name}"))?],
            };
            headers.insert(name.clone(), values);
        }
        Ok(Some(headers))
    }

    fn header_value(&self, v: &Value, field: &str) -> Result<String, DslError> {
        match v {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            Value::Bool(b) => Ok(b.to_string()),
            _ => Err(self.invalid(field, "a header value must be a string")),
        }
    }

    fn body(
        &self,
        v: Option<&Value>,
        headers: Option<&Headers>,
        field: &str,
    ) -> Result<Body, DslError> {
        let content_type = headers.and_then(|h| {
            h.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                .and_then(|(_, v)| v.first())
                .cloned()
        });
        self.body_with_type(v, content_type, field)
    }

    fn body_with_type(
        &self,
        v: Option<&Value>,
        content_type: Option<String>,
        field: &str,
    ) -> Result<Body, DslError> {
        match v {
            None => Ok(Body::Missing),
            Some(Value::Null) => Ok(Body::Null),
            Some(Value::Object(o)) if self.spec == PactSpec::V4 && o.contains_key("content") => {
                body_from_v4(o, content_type).map_err(|why| self.invalid(field, &why))
            }
            Some(raw) => Ok(body_from_raw(raw, content_type)),
        }
    }

    fn rules(&self, obj: &impl Fields) -> Result<MatchingRules, DslError> {
        match obj.field("matchingRules") {
            None | Some(Value::Null) => Ok(MatchingRules::default()),
            Some(v) => MatchingRules::from_pact_json(v, self.spec).map_err(|e| self.rebase(e)),
        }
    }

    fn generators(&self, obj: &impl Fields) -> Result<Generators, DslError> {
        match obj.field("generators") {
            None | Some(Value::Null) => Ok(Generators::default()),
            Some(v) => Generators::from_pact_json(v).map_err(|e| self.rebase(e)),
        }
    }

    /// Places an error reported relative to `matchingRules`/`generators`
    /// at its full path in this document.
    fn rebase(&self, e: DslError) -> DslError {
        match e {
            DslError::Invalid { path, message, .. } => {
                let rest = path.strip_prefix('$').unwrap_or(&path);
                DslError::invalid(self.origin, format!("{}{rest}", self.at), message)
            }
            other => other,
        }
    }
}

/// Decodes standard base64, as V4 `encoded: "base64"` bodies use.
fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| format!("content is not valid base64: {e}"))
}

#[cfg(test)]
mod tests;
