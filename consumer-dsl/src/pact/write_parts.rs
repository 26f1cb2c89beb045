//! Writing requests, responses, messages and bodies in the Pact V4 form.

use base64::Engine;
use serde_json::{Map, Value, json};

use crate::generators::Generators;
use crate::matching::MatchingRules;
use crate::matching::{ContentKind, content_kind};
use crate::model::{Body, BodyContent, Headers, HttpRequest, HttpResponse, Message};

/// A V4 body: `{content, contentType, encoded}`. JSON as JSON with
/// `encoded: false`; text as a string; bytes as base64 with `encoded:
/// "base64"`. `None` for a missing body. A JSON *string* body needs care,
/// see [`json_string`].
pub fn body_to_v4(body: &Body) -> Option<Value> {
    let (content, content_type) = match body {
        Body::Missing => return None,
        Body::Null => return Some(Value::Null),
        Body::Present {
            content,
            content_type,
        } => (content, content_type),
    };
    let (content, encoded) = match content {
        BodyContent::Json(Value::String(s)) => json_string(s, content_type.as_deref()),
        BodyContent::Json(v) => (v.clone(), json!(false)),
        BodyContent::Text(t) => (json!(t), json!(false)),
        BodyContent::Bytes(b) => (
            json!(base64::engine::general_purpose::STANDARD.encode(b)),
            json!("base64"),
        ),
    };
    let mut out = Map::new();
    out.insert("content".into(), content);
    if let Some(ct) = content_type {
        out.insert("contentType".into(), json!(ct));
    }
    out.insert("encoded".into(), encoded);
    Some(Value::Object(out))
}

/// The content and encoding of a body that is one JSON string. A plain
/// string content would read as text (or, with a JSON content type, be
/// parsed as JSON text by some readers), so:
/// - with a JSON content type, the JSON text (quotes included) as base64,
///   which Pact tools and this reader both decode as that JSON string;
/// - without a content type, the string itself unless it looks like XML;
/// - otherwise its JSON text with `encoded: "json"`.
fn json_string(s: &str, content_type: Option<&str>) -> (Value, Value) {
    let text = Value::String(s.to_string()).to_string();
    match content_type.map(content_kind) {
        Some(ContentKind::Json) => (
            json!(base64::engine::general_purpose::STANDARD.encode(text)),
            json!("base64"),
        ),
        None if !s.trim_start().starts_with('<') && !s.is_empty() => (json!(s), json!(false)),
        _ => (json!(text), json!("json")),
    }
}

fn multimap(map: &Headers) -> Value {
    Value::Object(map.iter().map(|(k, v)| (k.clone(), json!(v))).collect())
}

/// Adds `matchingRules` and `generators` when they are not empty.
fn rules_and_generators(out: &mut Map<String, Value>, rules: &MatchingRules, gens: &Generators) {
    if !rules.is_empty() {
        out.insert("matchingRules".into(), rules.to_v4_json());
    }
    if !gens.is_empty() {
        out.insert("generators".into(), gens.to_v4_json());
    }
}

/// Adds the attributes of `extra` that are not already written.
pub(super) fn append_extra(out: &mut Map<String, Value>, extra: &Map<String, Value>) {
    for (k, v) in extra {
        out.entry(k.clone()).or_insert_with(|| v.clone());
    }
}

/// A V4 request object.
pub fn request_to_v4(r: &HttpRequest) -> Value {
    let mut out = Map::new();
    out.insert("method".into(), json!(r.method));
    out.insert("path".into(), json!(r.path));
    if let Some(q) = &r.query {
        out.insert("query".into(), multimap(q));
    }
    http_part_rest(
        &mut out,
        r.headers.as_ref(),
        &r.body,
        (&r.matching_rules, &r.generators),
        &r.extra,
    );
    Value::Object(out)
}

/// A V4 response object.
pub fn response_to_v4(r: &HttpResponse) -> Value {
    let mut out = Map::new();
    out.insert("status".into(), json!(r.status));
    http_part_rest(
        &mut out,
        r.headers.as_ref(),
        &r.body,
        (&r.matching_rules, &r.generators),
        &r.extra,
    );
    Value::Object(out)
}

/// What requests and responses write alike after their first line:
/// headers, body, rules and generators, and the attributes kept as read.
fn http_part_rest(
    out: &mut Map<String, Value>,
    headers: Option<&Headers>,
    body: &Body,
    (rules, generators): (&MatchingRules, &Generators),
    extra: &Map<String, Value>,
) {
    if let Some(h) = headers {
        out.insert("headers".into(), multimap(h));
    }
    if let Some(b) = body_to_v4(body) {
        out.insert("body".into(), b);
    }
    rules_and_generators(out, rules, generators);
    append_extra(out, extra);
}

/// The attributes of a V4 message (`contents`, `metadata`, rules,
/// generators, extra), written into `out` (an interaction for
/// `Asynchronous/Messages`, its own object for synchronous ones).
pub fn message_into_v4(m: &Message, out: &mut Map<String, Value>) {
    if let Some(b) = body_to_v4(&m.contents) {
        out.insert("contents".into(), b);
    }
    if !m.metadata.is_empty() {
        out.insert("metadata".into(), Value::Object(m.metadata.clone()));
    }
    rules_and_generators(out, &m.matching_rules, &m.generators);
    append_extra(out, &m.extra);
}

/// A V4 message object (a synchronous message's request or response).
pub fn message_to_v4(m: &Message) -> Value {
    let mut out = Map::new();
    message_into_v4(m, &mut out);
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_take_the_v4_form_of_their_kind() {
        let table = [
            (
                Body::json(json!({"a": 1})),
                json!({"content": {"a": 1}, "contentType": "application/json", "encoded": false}),
            ),
            (
                Body::json(json!("abc")),
                json!({"content": "ImFiYyI=", "contentType": "application/json", "encoded": "base64"}),
            ),
            (
                Body::text("hi", Some("text/plain")),
                json!({"content": "hi", "contentType": "text/plain", "encoded": false}),
            ),
            (
                Body::Present {
                    content: BodyContent::Bytes(vec![0, 255]),
                    content_type: None,
                },
                json!({"content": "AP8=", "encoded": "base64"}),
            ),
            (Body::Null, Value::Null),
        ];
        for (body, expected) in table {
            assert_eq!(body_to_v4(&body), Some(expected), "{body:?}");
        }
        assert_eq!(body_to_v4(&Body::Missing), None);
    }
}
