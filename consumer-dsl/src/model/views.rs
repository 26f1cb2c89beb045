//! The JSON views of a request and of its answer that the paths of
//! `repeat.key` and `repeat.sameFields` point into:
//!
//! | interaction | request | answer |
//! | --- | --- | --- |
//! | HTTP | `{method, path, query, headers, body}` | `{status, headers, body}` |
//! | A2A/Task | the `SendMessage` params `{message, configuration, metadata}` | the task (or message) as last seen |
//! | MCP/ToolCall | the `tools/call` params `{name, arguments}` | the result `{content, structuredContent, isError}` |
//!
//! A header or query parameter with one value is a string, with several an
//! array; a JSON body is its document, a text body its text.

use serde_json::{Map, Value, json};

use super::{Body, BodyContent, Headers, HttpRequest, Interaction};

/// The body as JSON: the document, the text, or `null`.
pub fn body_value(body: &Body) -> Value {
    match body {
        Body::Present {
            content: BodyContent::Json(v),
            ..
        } => v.clone(),
        Body::Present {
            content: BodyContent::Text(t),
            ..
        } => Value::String(t.clone()),
        _ => Value::Null,
    }
}

fn multi(values: &[String]) -> Value {
    match values {
        [one] => json!(one),
        many => json!(many),
    }
}

/// Headers (or query parameters) as a JSON object.
pub fn headers_value(headers: Option<&Headers>) -> Value {
    let map: Map<String, Value> = headers
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), multi(v)))
        .collect();
    Value::Object(map)
}

/// The view of an HTTP request.
pub fn http_request_view(r: &HttpRequest) -> Value {
    json!({
        "method": r.method,
        "path": r.path,
        "query": headers_value(r.query.as_ref()),
        "headers": headers_value(r.headers.as_ref()),
        "body": body_value(&r.body),
    })
}

/// Writes a view (changed with [`crate::generators::replace_at`]) back into
/// the request: path, query, headers and a JSON or text body.
pub fn apply_http_request_view(r: &mut HttpRequest, view: &Value) {
    if let Some(p) = view["path"].as_str() {
        r.path = p.to_owned();
    }
    let back = |v: &Value| -> Option<Headers> {
        let o = v.as_object()?;
        Some(
            o.iter()
                .map(|(k, v)| {
                    let values = match v {
                        Value::Array(a) => a.iter().map(scalar).collect(),
                        other => vec![scalar(other)],
                    };
                    (k.clone(), values)
                })
                .collect(),
        )
    };
    if r.query.is_some() {
        r.query = back(&view["query"]);
    }
    if r.headers.is_some() {
        r.headers = back(&view["headers"]);
    }
    if let Body::Present { content, .. } = &mut r.body {
        match (content, &view["body"]) {
            (BodyContent::Json(v), new) => *v = new.clone(),
            (BodyContent::Text(t), Value::String(new)) => t.clone_from(new),
            _ => {}
        }
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The request view of an interaction as the contract writes it (its
/// examples, before generators), for checking paths at compile time;
/// `None` for interactions that are not sent (messages).
pub fn request_view(i: &Interaction) -> Option<Value> {
    match i {
        Interaction::Http(h) => Some(http_request_view(&h.request)),
        Interaction::A2aTask(t) => {
            let mut v = serde_json::to_value(&t.task.request).ok()?;
            if let Some(o) = v.as_object_mut() {
                o.remove("matchingRules");
                o.remove("generators");
            }
            Some(v)
        }
        Interaction::McpToolCall(c) => Some(json!({
            "name": c.call.tool,
            "arguments": Value::Object(c.call.arguments.clone()),
        })),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{replace_at, values_at};

    #[test]
    fn an_http_request_round_trips_through_its_view() {
        let mut r = HttpRequest {
            method: "POST".into(),
            path: "/plans".into(),
            headers: Some(Headers::from([(
                "Idempotency-Key".into(),
                vec!["k-1".into()],
            )])),
            body: Body::json(json!({"requestId": "r-1", "n": 2})),
            ..HttpRequest::default()
        };
        let mut view = http_request_view(&r);
        assert_eq!(
            values_at(&view, "$.headers['Idempotency-Key']"),
            Some(vec![json!("k-1")])
        );
        assert_eq!(
            values_at(&view, "$.body.requestId"),
            Some(vec![json!("r-1")])
        );
        replace_at(&mut view, "$.body.requestId", &json!("r-2"));
        replace_at(&mut view, "$.headers['Idempotency-Key']", &json!("k-2"));
        apply_http_request_view(&mut r, &view);
        assert_eq!(body_value(&r.body), json!({"requestId": "r-2", "n": 2}));
        assert_eq!(
            r.headers.as_ref().map(|h| h["Idempotency-Key"].clone()),
            Some(vec!["k-2".to_string()])
        );
        assert_eq!(r.path, "/plans");
    }
}
