//! What a provider does downstream: the stand-ins the caller serves for
//! its dependencies (their URLs, handed to the provider through the
//! provider-state change request's `dependencies`) and the calls they
//! record ([`DownstreamLog`]). The verifier knows no web framework: the CLI
//! starts the stand-ins (accord-mock) and pushes every call they see into
//! the log; each interaction takes the calls that arrived while it ran
//! ([`crate::replay`]) and [`judge`] judges them against its delegation.

pub(crate) mod attribute;
mod judge;

use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Serialize;
use serde_json::{Map, Value, json};

pub use judge::{Judged, judge};

/// One dependency served as a stand-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    /// The name the provider's wiring uses (letters, digits, `-`, `_`).
    pub name: String,
    /// The stand-in's base URL.
    pub url: String,
    /// Its Agent Card URL, when it stands in for an A2A agent.
    pub a2a_card_url: Option<String>,
    /// Its MCP endpoint, when it stands in for an MCP server.
    pub mcp_url: Option<String>,
}

/// What a downstream request addressed.
#[derive(Debug, Clone, PartialEq)]
pub enum Surface {
    Http,
    /// An A2A operation and the sent message's `metadata`.
    A2a {
        operation: String,
        metadata: Option<Map<String, Value>>,
    },
    /// An MCP message and a `tools/call`'s tool.
    Mcp {
        method: String,
        tool: Option<String>,
    },
}

/// One request a stand-in received.
#[derive(Debug, Clone)]
pub struct DownstreamCall {
    /// The dependency's name.
    pub dependency: String,
    pub at: Instant,
    pub method: String,
    pub path: String,
    /// Names lower case.
    pub headers: Vec<(String, String)>,
    pub surface: Surface,
    /// Why the dependency's own contract does not allow it (`None`: it does).
    pub mismatch: Option<String>,
}

impl DownstreamCall {
    /// The first value of a header (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        crate::transport::first_header(&self.headers, name)
    }

    /// `http`, `a2a` or `mcp`.
    pub fn kind(&self) -> &'static str {
        match self.surface {
            Surface::Http => "http",
            Surface::A2a { .. } => "a2a",
            Surface::Mcp { .. } => "mcp",
        }
    }

    /// `METHOD path`, the A2A operation, or the tool (else the MCP method).
    pub fn name(&self) -> String {
        match &self.surface {
            Surface::Http => format!("{} {}", self.method, self.path),
            Surface::A2a { operation, .. } => operation.clone(),
            Surface::Mcp { method, tool } => tool.clone().unwrap_or_else(|| method.clone()),
        }
    }

    /// A send to another agent: a new downstream task.
    pub fn is_a2a_send(&self) -> bool {
        matches!(&self.surface, Surface::A2a { operation, .. }
            if operation == "SendMessage" || operation == "SendStreamingMessage")
    }

    /// The tool of a `tools/call`.
    pub fn tool(&self) -> Option<&str> {
        match &self.surface {
            Surface::Mcp { method, tool } if method == "tools/call" => tool.as_deref(),
            _ => None,
        }
    }
}

/// The calls every stand-in of a run records, in arrival order.
#[derive(Debug, Clone, Default)]
pub struct DownstreamLog(Arc<Mutex<Vec<DownstreamCall>>>);

impl DownstreamLog {
    /// Records one call (the stand-ins' observer).
    pub fn push(&self, call: DownstreamCall) {
        if let Ok(mut calls) = self.0.lock() {
            calls.push(call);
        }
    }

    /// Every call recorded since the last take.
    pub fn take(&self) -> Vec<DownstreamCall> {
        self.0
            .lock()
            .map(|mut calls| std::mem::take(&mut *calls))
            .unwrap_or_default()
    }
}

/// The stand-ins of a run.
#[derive(Debug, Clone, Default)]
pub struct Downstream {
    pub dependencies: Vec<Dependency>,
    pub log: DownstreamLog,
}

impl Downstream {
    /// The state-change request's `dependencies`:
    /// `{"NAME": {"url", "a2aCardUrl"?, "mcpUrl"?}}`.
    pub fn state_param(&self) -> Value {
        let mut out = Map::new();
        for d in &self.dependencies {
            let mut one = json!({"url": d.url});
            if let Some(u) = &d.a2a_card_url {
                one["a2aCardUrl"] = json!(u);
            }
            if let Some(u) = &d.mcp_url {
                one["mcpUrl"] = json!(u);
            }
            out.insert(d.name.clone(), one);
        }
        Value::Object(out)
    }
}

/// One observed downstream call in an interaction's result: the chain
/// agent → tool → API as the stand-ins saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DownstreamEntry {
    pub dependency: String,
    /// `http`, `a2a` or `mcp`.
    pub kind: &'static str,
    /// `METHOD path`, the A2A operation or the tool.
    pub name: String,
    /// Milliseconds after the interaction's first send.
    pub at_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
    /// Its `traceparent` continues the interaction's trace.
    pub continues_trace: bool,
}
