//! The JSON-RPC methods, the same in both eras once the era's transport
//! has accepted the request: `tools/list`, `tools/call`, and per era
//! `server/discover` (2026-07-28) or `ping` (legacy), and `logging/setLevel`
//! (legacy, when a call relies on log messages). Any other method is
//! `-32601` and recorded.

use serde_json::{Value, json};

use super::answer::Reply;
use super::{Exchange, McpSurface, PATH};
use crate::wire::{RpcError, RpcRequest};

/// A request's answer and what the progress line says about it.
pub(super) struct Handled {
    pub(super) reply: Reply,
    /// What the method addressed (the tool), for the progress line.
    pub(super) target: Option<String>,
    /// Why it was answered so (the interaction, the refusal).
    pub(super) why: Option<String>,
    /// Notifications sent before the reply, on its event stream
    /// (`notifications/progress`).
    pub(super) notifications: Vec<Value>,
}

impl Handled {
    /// The method and what it addressed, for the progress line.
    pub(super) fn what(&self, method: &str) -> String {
        match &self.target {
            Some(t) => format!("{method} {t}"),
            None => method.to_owned(),
        }
    }

    pub(super) fn result(result: Value) -> Handled {
        Handled {
            reply: Reply::Result(result),
            target: None,
            why: None,
            notifications: Vec::new(),
        }
    }
}

impl Exchange<'_> {
    /// Answers `rpc` on protocol `version` (2026-07-28 when `modern`).
    pub(super) fn dispatch(&self, rpc: &RpcRequest, version: &str, modern: bool) -> Handled {
        let cacheable = |mut result: Value| {
            if modern {
                result["ttlMs"] = json!(0);
                result["cacheScope"] = json!("private");
            }
            result
        };
        match rpc.method.as_str() {
            "tools/list" => Handled::result(cacheable(json!({"tools": self.surface.tools}))),
            "tools/call" => self.tool_call(&rpc.params, version),
            "server/discover" if modern => Handled::result(cacheable(json!({
                "supportedVersions": [super::MODERN],
                "capabilities": McpSurface::capabilities(),
            }))),
            "ping" if !modern => Handled::result(json!({})),
            "logging/setLevel" if !modern && self.surface.logging => self.set_level(&rpc.params),
            method => {
                let why = format!("`{method}` is not a method the mock serves (Method not found)");
                self.unexpected(self.req.method().as_str(), PATH, why);
                Handled {
                    reply: Reply::Error {
                        error: RpcError::method_not_found(method),
                        status: None,
                    },
                    target: None,
                    why: Some("Method not found".into()),
                    notifications: Vec::new(),
                }
            }
        }
    }
}
