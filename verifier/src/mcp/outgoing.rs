//! A JSON-RPC request's body and headers, written straight from its parts
//! into a [`transport::Outgoing`] (so a plain `http://` endpoint is on the
//! direct HTTP/1.1 path): no `serde_json::Value` tree is built per
//! request. In 2026-07-28 the
//! params' `_meta` is the envelope (protocol version, client capabilities
//! and info; built once per kind of capabilities) joined with what the
//! call's own `_meta` carries (a progress token, a log level; the
//! envelope's keys win).

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};

use super::wire::{CLIENT_INFO, Endpoint, Era, Session, named_by};
use crate::driver::Authorization;
use crate::transport;

/// The `_meta` envelope of a 2026-07-28 request of `method`, built once
/// per kind of client capabilities (the tasks extension or none).
pub(super) fn envelope(method: &str) -> &'static Map<String, Value> {
    static TASKS: OnceLock<Map<String, Value>> = OnceLock::new();
    static PLAIN: OnceLock<Map<String, Value>> = OnceLock::new();
    let tasks = method == "tools/call" || method.starts_with("tasks/");
    let kind = if tasks { &TASKS } else { &PLAIN };
    kind.get_or_init(|| {
        let mut meta = Map::new();
        meta.insert(
            "io.modelcontextprotocol/protocolVersion".into(),
            json!(Era::Modern.version()),
        );
        meta.insert(
            "io.modelcontextprotocol/clientCapabilities".into(),
            super::task::client_capabilities(method),
        );
        meta.insert(
            "io.modelcontextprotocol/clientInfo".into(),
            json!({"name": CLIENT_INFO.0, "version": CLIENT_INFO.1}),
        );
        meta
    })
}

/// A JSON-RPC message as sent: `params` with the `envelope` (when set) as
/// their `_meta`; a notification has no `id`.
pub(super) struct Outgoing<'a> {
    pub method: &'a str,
    pub id: Option<u64>,
    pub params: &'a Map<String, Value>,
    pub envelope: Option<&'a Map<String, Value>>,
}

impl<'a> Outgoing<'a> {
    /// The framing headers, pushed in the order sent: content type and
    /// accept; in 2026-07-28 the version and routing headers (`Mcp-Method`,
    /// `Mcp-Name`), in a legacy session its negotiated version and id.
    pub fn framing(&self, session: Option<&'a Session>, into: &mut Vec<(&'a str, &'a str)>) {
        into.push(("content-type", "application/json"));
        into.push(("accept", "application/json, text/event-stream"));
        if self.envelope.is_some() {
            into.push(("mcp-protocol-version", Era::Modern.version()));
            into.push(("mcp-method", self.method));
            let named = named_by(self.method).and_then(|k| self.params.get(k)?.as_str());
            if let Some(named) = named {
                into.push(("mcp-name", named));
            }
        } else if let Some(s) = session {
            into.push(("mcp-protocol-version", s.version.as_str()));
            if let Some(sid) = &s.id {
                into.push(("mcp-session-id", sid.as_str()));
            }
        }
    }
}

impl Serialize for Outgoing<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("jsonrpc", "2.0")?;
        m.serialize_entry("method", self.method)?;
        m.serialize_entry("params", &Params(self.params, self.envelope))?;
        if let Some(id) = self.id {
            m.serialize_entry("id", &id)?;
        }
        m.end()
    }
}

/// The params, with the envelope (when set) as their `_meta`.
struct Params<'a>(&'a Map<String, Value>, Option<&'a Map<String, Value>>);

impl Serialize for Params<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Params(own, envelope) = *self;
        let mut m = s.serialize_map(None)?;
        for (k, v) in own {
            if envelope.is_none() || k != "_meta" {
                m.serialize_entry(k, v)?;
            }
        }
        if let Some(envelope) = envelope {
            let theirs = own.get("_meta").and_then(Value::as_object);
            m.serialize_entry("_meta", &Meta(envelope, theirs))?;
        }
        m.end()
    }
}

/// The envelope's entries, then the call's own that it does not hold.
struct Meta<'a>(&'a Map<String, Value>, Option<&'a Map<String, Value>>);

impl Serialize for Meta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Meta(envelope, own) = *self;
        let mut m = s.serialize_map(None)?;
        for (k, v) in envelope {
            m.serialize_entry(k, v)?;
        }
        for (k, v) in own.into_iter().flatten() {
            if !envelope.contains_key(k) {
                m.serialize_entry(k, v)?;
            }
        }
        m.end()
    }
}

impl Endpoint<'_> {
    /// A request to the endpoint (every MCP request is built here: each is
    /// a span of the trace). Its headers in the order sent: `framing`, the
    /// trace's, the `--header` values, then the principal's bearer token
    /// (a `--header` Authorization only when sent as written).
    pub(super) fn request<'r>(
        &'r self,
        method: reqwest::Method,
        mut headers: Vec<(&'r str, &'r str)>,
        span: &'r crate::trace::Span,
    ) -> transport::Outgoing<'r> {
        headers.extend(span.headers());
        for (name, value) in self.custom_headers {
            if self.authorization != Authorization::AsWritten
                && name.eq_ignore_ascii_case("authorization")
            {
                continue;
            }
            headers.push((name.as_str(), value.expose()));
        }
        // a URL that does not parse fails in reqwest's words, as before
        let url = match self.parsed {
            Some(u) => Ok(Cow::Borrowed(u)),
            None => reqwest::Url::parse(self.url)
                .map(Cow::Owned)
                .map_err(|_| self.url.to_owned()),
        };
        let mut out = transport::Outgoing::new(method, url);
        out.headers = headers;
        if let Authorization::Bearer(token) = self.authorization {
            out.bearer = Some(token);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message as the tree the writer replaced built it.
    fn built(method: &str, id: Option<u64>, mut params: Map<String, Value>, modern: bool) -> Value {
        if modern {
            let mut meta = Value::Object(envelope(method).clone());
            if let (Some(Value::Object(own)), Some(env)) =
                (params.remove("_meta"), meta.as_object_mut())
            {
                for (k, v) in own {
                    env.entry(k).or_insert(v);
                }
            }
            params.insert("_meta".into(), meta);
        }
        let mut message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        if let Some(id) = id {
            message["id"] = json!(id);
        }
        message
    }

    fn written(method: &str, id: Option<u64>, params: &Map<String, Value>, modern: bool) -> String {
        let message = Outgoing {
            method,
            id,
            params,
            envelope: modern.then(|| envelope(method)),
        };
        serde_json::to_string(&message).expect("written")
    }

    #[test]
    fn the_written_message_is_the_tree_it_replaced_key_for_key() {
        let call = json!({"name": "lookup", "arguments": {"id": "p-1", "n": [1, 2.5, null]},
            "_meta": {"progressToken": "t", "io.modelcontextprotocol/protocolVersion": "1999-01-01"}});
        let Value::Object(call) = call else {
            unreachable!()
        };
        let cases = [
            ("tools/call", Some(7), call.clone(), true),
            ("tools/call", Some(7), call.clone(), false),
            ("tools/list", Some(1), Map::new(), true),
            ("notifications/initialized", None, Map::new(), false),
            ("tasks/get", Some(2), call, true),
        ];
        for (method, id, params, modern) in cases {
            let text = written(method, id, &params, modern);
            let want = built(method, id, params, modern);
            // the same text: the same keys in the same order
            assert_eq!(text, want.to_string(), "{method}");
        }
    }

    #[test]
    fn the_envelope_carries_the_tasks_extension_on_tool_calls_and_tasks_only() {
        let caps = |m: &str| envelope(m)["io.modelcontextprotocol/clientCapabilities"].clone();
        assert_eq!(
            caps("tools/call"),
            super::super::task::client_capabilities("tools/call")
        );
        assert_eq!(
            caps("tasks/get"),
            super::super::task::client_capabilities("tasks/get")
        );
        assert_eq!(caps("tools/list"), json!({}));
        assert_eq!(
            envelope("ping")["io.modelcontextprotocol/protocolVersion"],
            json!("2026-07-28")
        );
    }
}
