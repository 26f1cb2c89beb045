//! Lowering `http:`, `message:` and `sync_message:` interactions.

use serde_json::{Map, Value};

use super::PactPath;
use super::ast::{HttpRequestSpec, HttpResponseSpec, HttpSpec, MessageBodySpec, MessageSpec};
use super::lower::{Ctx, categorised};
use super::template::{Compiled, Template};
use crate::DslError;
use crate::model::{
    Body, Headers, HttpInteraction, HttpRequest, HttpResponse, Interaction, InteractionMeta,
    Message, MessageInteraction, Query, SyncMessageInteraction,
};

/// An `http:` interaction.
pub(crate) fn http(
    cx: &Ctx<'_>,
    path: &str,
    meta: InteractionMeta,
    h: &HttpSpec,
) -> Result<Interaction, DslError> {
    let (Some(req), Some(resp)) = (&h.request, &h.response) else {
        return Err(cx.err(path, "an http interaction needs `request` and `response`"));
    };
    Ok(Interaction::Http(HttpInteraction {
        meta,
        request: request(cx, &format!("{path}.request"), req)?,
        response: response(cx, &format!("{path}.response"), resp)?,
    }))
}

/// Compiles a template standing alone (a path, a header value) at `$`.
fn single(t: &Template) -> (Value, Compiled) {
    let mut out = Compiled::default();
    let v = t.compile(&PactPath::root(), &mut out);
    (v, out)
}

fn string_of(cx: &Ctx<'_>, path: &str, v: Value) -> Result<String, DslError> {
    match v {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(cx.err(path, "must be a string")),
    }
}

/// Name → value templates (headers, query, metadata): examples, and the
/// per-name root rules and generators.
struct Keyed {
    rules: Map<String, Value>,
    generators: Map<String, Value>,
}

impl Keyed {
    fn new() -> Self {
        Keyed {
            rules: Map::new(),
            generators: Map::new(),
        }
    }

    fn add(&mut self, name: &str, out: &Compiled) {
        if let Some(r) = out.root_rule() {
            self.rules.insert(name.to_string(), r);
        }
        if let Some(g) = out.root_generator() {
            self.generators.insert(name.to_string(), g);
        }
    }

    fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.generators.is_empty()
    }
}

fn headers(
    cx: &Ctx<'_>,
    path: &str,
    h: &indexmap::IndexMap<String, Template>,
    keyed: &mut Keyed,
) -> Result<Option<Headers>, DslError> {
    if h.is_empty() {
        return Ok(None);
    }
    let mut out = Headers::new();
    for (name, t) in h {
        let (v, c) = single(t);
        out.insert(
            name.clone(),
            vec![string_of(cx, &format!("{path}.headers.{name}"), v)?],
        );
        keyed.add(name, &c);
    }
    Ok(Some(out))
}

fn body(t: Option<&Template>, content_type: Option<&str>, out: &mut Compiled) -> Body {
    let Some(t) = t else { return Body::Missing };
    let v = t.compile(&PactPath::root(), out);
    match (v, content_type) {
        (Value::String(s), Some(ct)) if !ct.contains("json") => Body::text(s, Some(ct)),
        (v, ct) => Body::Present {
            content: crate::model::BodyContent::Json(v),
            content_type: Some(ct.unwrap_or("application/json").to_string()),
        },
    }
}

fn request(cx: &Ctx<'_>, path: &str, r: &HttpRequestSpec) -> Result<HttpRequest, DslError> {
    let (p, pc) = single(&r.path);
    let path_value = string_of(cx, &format!("{path}.path"), p)?;
    if !path_value.starts_with('/') {
        return Err(cx.err(&format!("{path}.path"), "an HTTP path starts with `/`"));
    }
    let mut query_keyed = Keyed::new();
    let query = if r.query.is_empty() {
        None
    } else {
        let mut q = Query::new();
        for (name, values) in &r.query {
            let mut list = Vec::new();
            for t in values.clone().into_vec() {
                let (v, c) = single(&t);
                list.push(string_of(cx, &format!("{path}.query.{name}"), v)?);
                query_keyed.add(name, &c);
            }
            q.insert(name.clone(), list);
        }
        Some(q)
    };
    let mut header_keyed = Keyed::new();
    let headers = headers(cx, path, &r.headers, &mut header_keyed)?;
    let mut b = Compiled::default();
    let body = body(r.body.as_ref(), r.content_type.as_deref(), &mut b);
    let empty = pc.is_empty() && query_keyed.is_empty() && header_keyed.is_empty() && b.is_empty();
    let (matching_rules, generators) = categorised(
        empty,
        &[
            ("path", pc.root_rule().unwrap_or(Value::Null)),
            ("query", Value::Object(query_keyed.rules)),
            ("header", Value::Object(header_keyed.rules)),
            ("body", Value::Object(b.rules_by_path())),
        ],
        &[
            ("path", pc.root_generator().unwrap_or(Value::Null)),
            ("query", Value::Object(query_keyed.generators)),
            ("header", Value::Object(header_keyed.generators)),
            ("body", Value::Object(b.generators_by_path())),
        ],
    )?;
    Ok(HttpRequest {
        method: r.method.to_ascii_uppercase(),
        path: path_value,
        query,
        headers,
        body,
        matching_rules,
        generators,
        extra: Map::new(),
    })
}

fn response(cx: &Ctx<'_>, path: &str, r: &HttpResponseSpec) -> Result<HttpResponse, DslError> {
    let (s, sc) = single(&r.status);
    let status = s
        .as_u64()
        .and_then(|n| u16::try_from(n).ok())
        .filter(|n| (100..=599).contains(n))
        .ok_or_else(|| {
            cx.err(
                &format!("{path}.status"),
                "a status is a number from 100 to 599 (or a $statusCode matcher)",
            )
        })?;
    let mut header_keyed = Keyed::new();
    let headers = headers(cx, path, &r.headers, &mut header_keyed)?;
    let mut b = Compiled::default();
    let body = body(r.body.as_ref(), r.content_type.as_deref(), &mut b);
    let empty = sc.is_empty() && header_keyed.is_empty() && b.is_empty();
    let (matching_rules, generators) = categorised(
        empty,
        &[
            ("status", sc.root_rule().unwrap_or(Value::Null)),
            ("header", Value::Object(header_keyed.rules)),
            ("body", Value::Object(b.rules_by_path())),
        ],
        &[
            ("header", Value::Object(header_keyed.generators)),
            ("body", Value::Object(b.generators_by_path())),
        ],
    )?;
    Ok(HttpResponse {
        status,
        headers,
        body,
        matching_rules,
        generators,
        extra: Map::new(),
    })
}

fn message_of(
    cx: &Ctx<'_>,
    path: &str,
    contents: Option<&Template>,
    metadata: Option<&Template>,
    ct: Option<&str>,
) -> Result<Message, DslError> {
    let Some(contents) = contents else {
        return Err(cx.err(path, "a message needs `contents`"));
    };
    let mut b = Compiled::default();
    let contents = body(Some(contents), ct, &mut b);
    let mut keyed = Keyed::new();
    let mut meta = Map::new();
    if let Some(m) = metadata {
        let entries = match m {
            Template::Object(fields) => fields.clone(),
            Template::Literal(Value::Object(o)) => o
                .iter()
                .map(|(k, v)| (k.clone(), Template::Literal(v.clone())))
                .collect(),
            _ => return Err(cx.err(&format!("{path}.metadata"), "message metadata is a map")),
        };
        for (name, t) in &entries {
            let (v, c) = single(t);
            meta.insert(name.clone(), v);
            keyed.add(name, &c);
        }
    }
    let empty = b.is_empty() && keyed.is_empty();
    let (matching_rules, generators) = categorised(
        empty,
        &[
            ("body", Value::Object(b.rules_by_path())),
            ("metadata", Value::Object(keyed.rules)),
        ],
        &[
            ("body", Value::Object(b.generators_by_path())),
            ("metadata", Value::Object(keyed.generators)),
        ],
    )?;
    Ok(Message {
        contents,
        metadata: meta,
        matching_rules,
        generators,
        extra: Map::new(),
    })
}

/// The message written at the interaction's top level: the message of
/// `message:`, the request of `sync_message:`.
fn first_message(cx: &Ctx<'_>, path: &str, m: &MessageSpec) -> Result<Message, DslError> {
    message_of(
        cx,
        path,
        m.contents.as_ref(),
        m.metadata.as_ref(),
        m.content_type.as_deref(),
    )
}

/// A `message:` (Pact `Asynchronous/Messages`) interaction.
pub(crate) fn message(
    cx: &Ctx<'_>,
    path: &str,
    meta: InteractionMeta,
    m: &MessageSpec,
) -> Result<Interaction, DslError> {
    let message = first_message(cx, path, m)?;
    Ok(Interaction::AsyncMessage(MessageInteraction {
        meta,
        message,
    }))
}

/// A `sync_message:` (Pact `Synchronous/Messages`) interaction.
pub(crate) fn sync_message(
    cx: &Ctx<'_>,
    path: &str,
    meta: InteractionMeta,
    m: &MessageSpec,
) -> Result<Interaction, DslError> {
    let request = first_message(cx, path, m)?;
    let response = m
        .responses
        .iter()
        .enumerate()
        .map(|(i, r): (usize, &MessageBodySpec)| {
            message_of(
                cx,
                &format!("{path}.responses[{i}]"),
                Some(&r.contents),
                r.metadata.as_ref(),
                r.content_type.as_deref(),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Interaction::SyncMessage(SyncMessageInteraction {
        meta,
        request,
        response,
    }))
}
