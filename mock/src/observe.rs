//! The observer hook: with [`MockOptions::observer`](crate::MockOptions)
//! set, every request the mock reads is handed to it after its answer —
//! when it arrived, its method, path and headers, the surface it addressed
//! (HTTP; an A2A operation with its message metadata; an MCP method with
//! its tool) and whether the contract allowed it (the mismatch the mock
//! recorded for it, if any). The verifier's stand-ins for a provider's
//! dependencies are mocks with an observer.
//!
//! The mismatch is caught in a task-local around the request's answer
//! ([`capture`]): every surface records its mismatches through
//! `Shared::unexpected`, which also leaves the first one here, so no
//! surface needs to know about observers.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

use accord_dsl::model::accord::rest_operation;
use actix_web::{HttpRequest, HttpResponse};
use serde_json::{Map, Value};

use crate::report::MockMismatch;

/// Called with every request a mock read and answered.
pub type Observer = Arc<dyn Fn(Observed) + Send + Sync>;

/// One request as the mock saw it.
#[derive(Debug, Clone)]
pub struct Observed {
    /// When its head and body had been read.
    pub at: Instant,
    /// The HTTP method, upper case.
    pub method: String,
    /// The path, percent-decoded.
    pub path: String,
    /// Every header, names lower case, in arrival order.
    pub headers: Vec<(String, String)>,
    pub surface: Surface,
    /// What the mock recorded as not allowed by the contract (`None`: it
    /// was answered as the contract says).
    pub mismatch: Option<MockMismatch>,
}

/// What a request addressed.
#[derive(Debug, Clone, PartialEq)]
pub enum Surface {
    /// A plain HTTP request (the contract's HTTP interactions).
    Http,
    /// An A2A operation (either binding); `metadata` is the sent message's
    /// `metadata` (a send's), when it has one. The Agent Card is the
    /// operation `GetAgentCard`.
    A2a {
        operation: String,
        metadata: Option<Map<String, Value>>,
    },
    /// An MCP JSON-RPC message; `tool` is a `tools/call`'s tool name.
    Mcp {
        method: String,
        tool: Option<String>,
    },
}

tokio::task_local! {
    static CAUGHT: RefCell<Option<MockMismatch>>;
}

/// Runs `answer` catching the first mismatch recorded while it runs.
pub(crate) async fn capture<F: std::future::Future>(
    answer: F,
) -> (F::Output, Option<MockMismatch>) {
    CAUGHT
        .scope(RefCell::new(None), async {
            let out = answer.await;
            let caught = CAUGHT.with(|c| c.borrow_mut().take());
            (out, caught)
        })
        .await
}

/// Leaves `mismatch` for the observer of the request being answered.
pub(crate) fn caught(mismatch: &MockMismatch) {
    let _ = CAUGHT.try_with(|c| {
        let mut c = c.borrow_mut();
        if c.is_none() {
            *c = Some(mismatch.clone());
        }
    });
}

/// Answers a request and hands it to the observer, with the mismatch the
/// answer recorded.
pub(crate) async fn answer(
    observer: &Observer,
    req: &HttpRequest,
    path: String,
    body: Vec<u8>,
    shared: actix_web::web::Data<crate::Shared>,
) -> HttpResponse {
    let at = Instant::now();
    let (a2a, mcp) = (
        shared.a2a.as_ref().is_some_and(|a| a.serves(&path)),
        shared.mcp.as_ref().is_some_and(|m| m.serves(&path)),
    );
    let surface = surface_of(req, &path, &body, a2a, mcp);
    let (response, mismatch) = capture(crate::serve::route(req, &path, body, shared)).await;
    observer(Observed {
        at,
        method: req.method().as_str().to_owned(),
        path,
        headers: headers_of(req),
        surface,
        mismatch,
    });
    response
}

/// The request's headers, names lower case.
pub(crate) fn headers_of(req: &HttpRequest) -> Vec<(String, String)> {
    req.headers()
        .iter()
        .map(|(k, v)| {
            let value = String::from_utf8_lossy(v.as_bytes()).into_owned();
            (k.as_str().to_ascii_lowercase(), value)
        })
        .collect()
}

/// The surface a request at `path` addressed, as `a2a`/`mcp` say the mock
/// serves those paths.
pub(crate) fn surface_of(
    req: &HttpRequest,
    path: &str,
    body: &[u8],
    a2a: bool,
    mcp: bool,
) -> Surface {
    let json = || serde_json::from_slice::<Value>(body).unwrap_or(Value::Null);
    if a2a && path == crate::a2a::CARD_PATH {
        return a2a_surface("GetAgentCard".into(), &Value::Null);
    }
    if a2a && path == "/a2a" {
        let message = json();
        let op = message["method"].as_str().unwrap_or("").to_owned();
        return a2a_surface(op, &message["params"]);
    }
    if a2a && let Some(tail) = path.strip_prefix("/a2a/rest") {
        let query: Vec<(String, String)> = url_pairs(req.query_string());
        return match rest_operation(req.method().as_str(), tail, &query, body) {
            Ok((op, params)) => a2a_surface(op.as_str().to_owned(), &params),
            Err(_) => a2a_surface(String::new(), &Value::Null),
        };
    }
    if mcp && path == crate::mcp::PATH {
        let message = json();
        let tool = message["params"]["name"].as_str().map(str::to_owned);
        let method = message["method"].as_str().unwrap_or("").to_owned();
        let tool = tool.filter(|_| method == "tools/call");
        return Surface::Mcp { method, tool };
    }
    Surface::Http
}

fn a2a_surface(operation: String, params: &Value) -> Surface {
    let metadata = params["message"]["metadata"].as_object().cloned();
    Surface::A2a {
        operation,
        metadata,
    }
}

fn url_pairs(query: &str) -> Vec<(String, String)> {
    actix_web::web::Query::<Vec<(String, String)>>::from_query(query)
        .map(actix_web::web::Query::into_inner)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_first_mismatch_recorded_while_answering_is_caught() {
        let m = |path: &str| MockMismatch::RequestNotFound {
            method: "GET".into(),
            path: path.into(),
            query: None,
            reason: None,
        };
        let ((), caught_one) = capture(async {
            caught(&m("/a"));
            caught(&m("/b"));
        })
        .await;
        assert_eq!(caught_one, Some(m("/a")));
        let ((), none) = capture(async {}).await;
        assert_eq!(none, None);
        caught(&m("/outside")); // outside any capture: nothing happens
    }
}
