//! An A2A operation's HTTP request: its method, URL and body on the
//! interface's binding (a JSON-RPC `POST`, or the HTTP+JSON route), then
//! its headers in the order sent — content type, `Accept`, `A2A-Version`,
//! the trace's, the `--header` values and the credential (the one place
//! credentials are added to an A2A request). A unary operation goes out as
//! a [`transport::Outgoing`], on the direct HTTP/1.1 path for a plain
//! `http://` interface; a stream is opened through reqwest
//! ([`Client::request`]), which hands over the answer as it arrives.

use std::borrow::Cow;

use accord_dsl::model::accord::A2aOperation;
use serde_json::{Map, Value, json};

use super::wire::{Answer, Binding, Client, Interface, RPC_ID};
use crate::driver::Authorization;
use crate::trace::Span;
use crate::transport::{self, CutOff};

/// An operation's method, URL and body (with its content type), before
/// its headers; a JSON-RPC URL that does not parse stays text, to fail
/// in reqwest's words as it did.
struct Target {
    method: reqwest::Method,
    url: Result<reqwest::Url, String>,
    body: Option<(&'static str, Vec<u8>)>,
}

impl Client<'_> {
    /// Sends one unary operation and reads its answer.
    pub async fn call(
        &self,
        op: A2aOperation,
        params: Map<String, Value>,
    ) -> Result<Answer, CutOff> {
        let target = self.target(op, params)?;
        let span = crate::trace::span();
        let out = self.outgoing(target, false, &span);
        let received = self.transport.send_out(out).await?;
        Ok(self.answer(received))
    }

    /// The HTTP request of an operation as a reqwest request; `stream`
    /// asks for an event stream.
    pub fn request(
        &self,
        op: A2aOperation,
        params: Map<String, Value>,
        stream: bool,
    ) -> Result<reqwest::RequestBuilder, CutOff> {
        let target = self.target(op, params)?;
        let span = crate::trace::span();
        let out = self.outgoing(target, stream, &span);
        Ok(self.transport.through_reqwest(out))
    }

    fn target(&self, op: A2aOperation, mut params: Map<String, Value>) -> Result<Target, CutOff> {
        match self.interface.binding {
            Binding::JsonRpc => {
                if let Some(t) = &self.interface.tenant {
                    params.insert("tenant".into(), json!(t));
                }
                let body = json!({"jsonrpc": "2.0", "id": RPC_ID, "method": op.as_str(), "params": params});
                let url = &self.interface.url;
                Ok(Target {
                    method: reqwest::Method::POST,
                    url: reqwest::Url::parse(url).map_err(|_| url.clone()),
                    body: Some(("application/json", body.to_string().into_bytes())),
                })
            }
            Binding::HttpJson => rest_target(self.interface, op, params),
        }
    }

    /// The request with its headers, in the order they were always sent.
    fn outgoing<'r>(
        &'r self,
        target: Target,
        stream: bool,
        span: &'r Span,
    ) -> transport::Outgoing<'r> {
        let mut headers = Vec::with_capacity(6 + self.custom_headers.len());
        let (content_type, body) = target.body.unzip();
        if let Some(content_type) = content_type {
            headers.push(("content-type", content_type));
        }
        let accept = if stream {
            "text/event-stream"
        } else {
            "application/a2a+json, application/json"
        };
        headers.push(("accept", accept));
        if !self.version.is_empty() {
            headers.push(("a2a-version", self.version));
        }
        headers.extend(span.headers());
        let mut out = transport::Outgoing::new(target.method, target.url.map(Cow::Owned));
        out.body = body;
        // another origin (`credentials` false): no principal's token, no
        // `--header` value
        if self.interface.credentials {
            for (name, value) in self.custom_headers {
                let is_auth = name.eq_ignore_ascii_case("authorization");
                if !(is_auth && self.authorization != Authorization::AsWritten) {
                    headers.push((name.as_str(), value.expose()));
                }
            }
            if let Authorization::Bearer(t) = self.authorization {
                out.bearer = Some(t);
            }
        }
        out.headers = headers;
        out
    }
}

/// The HTTP+JSON target of an operation (A2A v1.0 §11.3 routes).
fn rest_target(
    interface: &Interface,
    op: A2aOperation,
    mut params: Map<String, Value>,
) -> Result<Target, CutOff> {
    use A2aOperation::*;
    let mut url = reqwest::Url::parse(&interface.url)
        .map_err(|e| CutOff::Failed(format!("interface URL {}: {e}", interface.url)))?;
    let mut take = |key: &str| match params.remove(key) {
        Some(Value::String(s)) => s,
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let (task_key, id_key) = match op {
        GetTask | CancelTask | SubscribeToTask => ("id", ""),
        CreateTaskPushNotificationConfig | ListTaskPushNotificationConfigs => ("taskId", ""),
        GetTaskPushNotificationConfig | DeleteTaskPushNotificationConfig => ("taskId", "id"),
        _ => ("", ""),
    };
    let task = if task_key.is_empty() {
        String::new()
    } else {
        take(task_key)
    };
    let config = if id_key.is_empty() {
        String::new()
    } else {
        take(id_key)
    };
    let segments: Vec<String> = match op {
        SendMessage => vec!["message:send".into()],
        SendStreamingMessage => vec!["message:stream".into()],
        GetTask => vec!["tasks".into(), task],
        ListTasks => vec!["tasks".into()],
        CancelTask => vec!["tasks".into(), format!("{task}:cancel")],
        SubscribeToTask => vec!["tasks".into(), format!("{task}:subscribe")],
        CreateTaskPushNotificationConfig | ListTaskPushNotificationConfigs => {
            vec!["tasks".into(), task, "pushNotificationConfigs".into()]
        }
        GetTaskPushNotificationConfig | DeleteTaskPushNotificationConfig => {
            vec![
                "tasks".into(),
                task,
                "pushNotificationConfigs".into(),
                config,
            ]
        }
        GetExtendedAgentCard => vec!["extendedAgentCard".into()],
    };
    {
        let mut path = url
            .path_segments_mut()
            .map_err(|()| CutOff::Failed(format!("interface URL {} has no path", interface.url)))?;
        path.pop_if_empty();
        if let Some(t) = &interface.tenant {
            path.push(t);
        }
        path.extend(&segments);
    }
    let (method, body) = match op {
        GetTask
        | ListTasks
        | GetTaskPushNotificationConfig
        | ListTaskPushNotificationConfigs
        | GetExtendedAgentCard => (reqwest::Method::GET, None),
        DeleteTaskPushNotificationConfig => (reqwest::Method::DELETE, None),
        _ => (reqwest::Method::POST, Some(Value::Object(params.clone()))),
    };
    if body.is_none() {
        let mut query = url.query_pairs_mut();
        for (k, v) in &params {
            match v {
                Value::Array(items) => items.iter().for_each(|i| {
                    query.append_pair(k, &scalar(i));
                }),
                v => {
                    query.append_pair(k, &scalar(v));
                }
            }
        }
    }
    if url.query() == Some("") {
        url.set_query(None);
    }
    Ok(Target {
        method,
        url: Ok(url),
        body: body.map(|b| ("application/a2a+json", b.to_string().into_bytes())),
    })
}

/// A query parameter's text: strings as they are, the rest as JSON.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
