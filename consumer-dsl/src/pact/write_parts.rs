//! Writing requests, responses, messages and bodies in the Pact V4 form.

use base64::Engine;
use serde_json::{Map, Value, json};

use crate::generators::Generators;
use crate::matching::MatchingRules;
use crate::model::{Body, BodyContent, Headers, HttpRequest, HttpResponse, Message};

/// A V4 body: `{content, contentType, encoded}`. JSON as JSON with
/// `encoded: false` (a JSON *string* as its JSON text with `encoded:
/// "json"`, so it cannot be mistaken for text); text as a string; bytes as
/// base64 with `encoded: "base64"`. `None` for a missing body.
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
        BodyContent::Json(Value::String(s)) => {
            (json!(Value::String(s.clone()).to_string()), json!("json"))
        }
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
    if let Some(h) = &r.headers {
        out.insert("headers".into(), multimap(h));
    }
    if let Some(b) = body_to_v4(&r.body) {
        out.insert("body".into(), b);
    }
    rules_and_generators(&mut out, &r.matching_rules, &r.generators);
    append_extra(&mut out, &r.extra);
    Value::Object(out)
}

/// A V4 response object.
pub fn response_to_v4(r: &HttpResponse) -> Value {
    let mut out = Map::new();
    out.insert("status".into(), json!(r.status));
    if let Some(h) = &r.headers {
        out.insert("headers".into(), multimap(h));
    }
    if let Some(b) = body_to_v4(&r.body) {
        out.insert("body".into(), b);
    }
    rules_and_generators(&mut out, &r.matching_rules, &r.generators);
    append_extra(&mut out, &r.extra);
    Value::Object(out)
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
