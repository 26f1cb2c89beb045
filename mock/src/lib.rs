//! `accord-mock`: the consumer's mock provider, built from a contract.
//!
//! An orchestrator team runs its own code against the mock; the mock
//! answers every request an interaction of the contract expects, and
//! records what was exercised and what was not expected. Only a contract
//! the consumer's code really exercised should be published
//! ([`MockReport::ok`]).
//!
//! ```no_run
//! # fn demo(contract: &accord_dsl::Contract) -> Result<(), accord_mock::MockError> {
//! let mock = accord_mock::MockServer::start(contract)?;
//! // … the consumer's code calls mock.url() …
//! let report = mock.verify();
//! assert!(report.ok, "{}", report.table());
//! # Ok(()) }
//! ```
//!
//! The mock serves every surface the contract has, on one port: its HTTP
//! interactions (Pact mock-server semantics, see [`http`](crate::http)),
//! an A2A v1.0 agent built from its `A2A/Task` interactions and
//! `agentCard` (card at `/.well-known/agent-card.json`, JSON-RPC at
//! `/a2a`, HTTP+JSON under `/a2a/rest`), and an MCP server built from its
//! `MCP/ToolCall` interactions and `mcpTools` (Streamable HTTP at `/mcp`,
//! both eras). This crate is separate from `accord-dsl` so the contract
//! model stays free of a web framework.

mod a2a;
mod auth;
mod http;
mod limits;
mod live;
mod mcp;
mod observe;
mod report;
mod serve;
mod wire;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use accord_dsl::Contract;
use accord_dsl::model::PactSpec;

pub use observe::{Observed, Observer, Surface};
pub use report::{Expected, MockMismatch, MockReport};

/// A line per request the mock received (for a terminal).
pub type Progress = Arc<dyn Fn(String) + Send + Sync>;

/// How the mock listens and behaves.
#[derive(Clone)]
pub struct MockOptions {
    /// The address to listen on (default `127.0.0.1`).
    pub host: String,
    /// The port (default 0: an ephemeral port).
    pub port: u16,
    /// Answer CORS pre-flight requests (`OPTIONS` with
    /// `Access-Control-Request-Method`) no interaction expects, and add
    /// `Access-Control-Allow-Origin` to every answer, as `pact mock --cors`.
    pub cors: bool,
    /// The largest request body read (default 10 MiB); a larger one is
    /// answered 413 and recorded.
    pub max_body_bytes: usize,
    /// The bytes of request bodies held at once, by all requests together
    /// (default 64 MiB): a body the budget has no room for is answered 503
    /// with `Retry-After: 1` and recorded.
    pub body_budget_bytes: usize,
    /// How long a request body may take from its first read (default
    /// 10 s), plus a second per 16 KiB received: a slower one is answered
    /// 408, recorded, and its connection closed.
    pub body_timeout: Duration,
    /// How long a request head (its line and headers) may take (default
    /// 5 s): a slower one is answered 408 and its connection closed.
    pub head_timeout: Duration,
    /// The most connections open at once (default 200, below the 256 open
    /// files some systems give a process); past it new connections wait
    /// to be accepted.
    pub max_connections: usize,
    /// Worker threads (default 2).
    pub workers: usize,
    /// The Pact specification whose matching semantics apply (default V4),
    /// as a Pact mock server is started for one: V1 holds a query to its
    /// parameters' order. The reader upgrades every file to the V4 model,
    /// so the caller says which version the contract came from
    /// (`accord_dsl::pact::detect_spec`).
    pub spec: PactSpec,
    /// Called with one line per request received.
    pub progress: Option<Progress>,
    /// Principals' bearer tokens (`--principal NAME=TOKEN`): a request
    /// sent as a principal must present its token. A principal without
    /// one here accepts any non-empty bearer token.
    pub principals: Vec<(String, String)>,
    /// Called with every request read and answered (its surface and
    /// whether the contract allowed it): how the verifier's stand-ins
    /// record what a provider does downstream.
    pub observer: Option<Observer>,
}

impl Default for MockOptions {
    fn default() -> Self {
        MockOptions {
            host: "127.0.0.1".into(),
            port: 0,
            cors: false,
            max_body_bytes: 10 * 1024 * 1024,
            body_budget_bytes: 64 * 1024 * 1024,
            body_timeout: Duration::from_secs(10),
            head_timeout: Duration::from_secs(5),
            max_connections: 200,
            workers: 2,
            spec: PactSpec::V4,
            progress: None,
            principals: Vec::new(),
            observer: None,
        }
    }
}

impl std::fmt::Debug for MockOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockOptions")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("cors", &self.cors)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("body_budget_bytes", &self.body_budget_bytes)
            .field("body_timeout", &self.body_timeout)
            .field("head_timeout", &self.head_timeout)
            .field("max_connections", &self.max_connections)
            .field("workers", &self.workers)
            .field("spec", &self.spec)
            .field(
                "principals",
                &self.principals.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("observer", &self.observer.is_some())
            .finish_non_exhaustive()
    }
}

/// Why a mock could not start or write its contract.
#[derive(Debug, thiserror::Error)]
pub enum MockError {
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: String,
        source: std::io::Error,
    },
    #[error(
        "the contract has nothing the mock serves: no HTTP, A2A/Task or MCP/ToolCall interaction, no agentCard, no mcpTools"
    )]
    NothingToServe,
    #[error("not writing the contract: {0}")]
    NotExercised(String),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What the handlers share: the expectations and what was recorded.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) http: http::HttpExpectations,
    pub(crate) a2a: Option<a2a::A2aSurface>,
    pub(crate) mcp: Option<mcp::McpSurface>,
    pub(crate) principals: auth::Principals,
    pub(crate) base_url: OnceLock<String>,
    pub(crate) options: MockOptions,
    pub(crate) recorded: Mutex<report::Recorded>,
    /// The bytes of request bodies held at once.
    pub(crate) budget: limits::Budget,
}

impl Shared {
    pub(crate) fn recorded(&self) -> std::sync::MutexGuard<'_, report::Recorded> {
        self.recorded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How request bodies are read.
    pub(crate) fn body_rules(&self) -> limits::Rules<'_> {
        limits::Rules {
            max: self.options.max_body_bytes,
            timeout: self.options.body_timeout,
            budget: &self.budget,
        }
    }

    /// The base URL (`http://127.0.0.1:<port>`).
    pub(crate) fn base_url(&self) -> &str {
        self.base_url.get().map_or("", String::as_str)
    }

    /// Reports one line (a request and its answer) to the terminal.
    pub(crate) fn progress(&self, line: impl FnOnce() -> String) {
        if let Some(p) = &self.options.progress {
            p(line());
        }
    }

    /// Counts a request answered by the interaction at contract `index`.
    pub(crate) fn exercised(&self, index: usize) {
        if let Some(n) = self.recorded().exercised.get_mut(index) {
            *n = n.saturating_add(1);
        }
    }

    /// Forgets what was recorded.
    pub(crate) fn reset(&self) {
        self.recorded().reset();
        if let Some(a2a) = &self.a2a {
            a2a.reset();
        }
    }

    /// Records a request the mock could not answer as the contract says.
    pub(crate) fn unexpected(&self, mismatch: MockMismatch) {
        if self.options.observer.is_some() {
            observe::caught(&mismatch);
        }
        self.recorded().unexpected(mismatch);
    }
}

/// A running mock. Dropping it stops the server, frees its port and
/// returns once no worker of it can answer any more.
#[derive(Debug)]
pub struct MockServer {
    contract: Contract,
    shared: Arc<Shared>,
    addr: SocketAddr,
    handle: actix_web::dev::ServerHandle,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
    /// The workers still holding the app (`live`).
    live: Arc<live::Live>,
}

impl MockServer {
    /// Starts a mock for `contract` on an ephemeral loopback port.
    pub fn start(contract: &Contract) -> Result<MockServer, MockError> {
        MockServer::start_with(contract, MockOptions::default())
    }

    /// Starts a mock for `contract` as `options` say.
    pub fn start_with(contract: &Contract, options: MockOptions) -> Result<MockServer, MockError> {
        let http = http::HttpExpectations::of(contract, options.spec);
        let a2a = a2a::A2aSurface::of(contract);
        let mcp = mcp::McpSurface::of(contract);
        if http.all().is_empty() && a2a.is_none() && mcp.is_none() {
            return Err(MockError::NothingToServe);
        }
        let exercised = vec![0; contract.interactions.len()];
        let shared = Arc::new(Shared {
            http,
            a2a,
            mcp,
            principals: auth::Principals::new(&options.principals),
            base_url: OnceLock::new(),
            recorded: Mutex::new(report::Recorded::new(exercised)),
            budget: limits::Budget::new(options.body_budget_bytes),
            options,
        });
        let live = Arc::new(live::Live::default());
        let (addr, server) = serve::bind(shared.clone(), &live)?;
        let host = match shared.options.host.as_str() {
            "0.0.0.0" | "::" => "127.0.0.1".to_owned(),
            h if h.contains(':') => format!("[{h}]"),
            h => h.to_owned(),
        };
        shared
            .base_url
            .get_or_init(|| format!("http://{host}:{}", addr.port()));
        let handle = server.handle();
        let thread = std::thread::spawn(move || actix_web::rt::System::new().block_on(server));
        Ok(MockServer {
            contract: contract.clone(),
            shared,
            addr,
            handle,
            thread: Some(thread),
            live,
        })
    }

    /// The base URL (`http://127.0.0.1:<port>`).
    pub fn url(&self) -> &str {
        self.shared.base_url()
    }

    /// Whether the contract has HTTP interactions (the mock answers them
    /// at [`url`](MockServer::url)).
    pub fn serves_http(&self) -> bool {
        !self.shared.http.all().is_empty()
    }

    /// The A2A agent's base URL, when the contract has an A2A surface (its
    /// card is at `<url>/.well-known/agent-card.json`).
    pub fn a2a_url(&self) -> Option<String> {
        self.shared.a2a.as_ref().map(|_| self.url().to_owned())
    }

    /// The A2A agent card's URL, when the contract has an A2A surface.
    pub fn a2a_card_url(&self) -> Option<String> {
        self.a2a_url().map(|u| format!("{u}{}", a2a::CARD_PATH))
    }

    /// The MCP endpoint, when the contract has an MCP surface.
    pub fn mcp_url(&self) -> Option<String> {
        self.shared
            .mcp
            .as_ref()
            .map(|_| format!("{}{}", self.url(), mcp::PATH))
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// What was exercised and what was not expected, so far.
    pub fn verify(&self) -> MockReport {
        report::report(&self.shared)
    }

    /// Forgets what was recorded (`POST /__accord/reset`).
    pub fn reset(&self) {
        self.shared.reset();
    }

    /// Writes the contract to `dir` as `<consumer>-<provider>.json` (as a
    /// Pact consumer test writes its pact file), only when the report is
    /// OK; the path written.
    pub fn write_contract(&self, dir: &Path) -> Result<PathBuf, MockError> {
        let report = self.verify();
        if !report.ok {
            let first = report.mismatches.first().map(MockMismatch::line);
            return Err(MockError::NotExercised(first.unwrap_or_default()));
        }
        write_contract(&self.contract, dir)
    }
}

/// Writes `contract` to `dir` as `<consumer>-<provider>.json`.
pub fn write_contract(contract: &Contract, dir: &Path) -> Result<PathBuf, MockError> {
    let name = format!(
        "{}-{}.json",
        file_part(&contract.consumer.name),
        file_part(&contract.provider.name)
    );
    let path = dir.join(name);
    let text =
        serde_json::to_string_pretty(&accord_dsl::pact::to_v4_json(contract)).unwrap_or_default();
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, format!("{text}\n")))
        .map_err(|source| MockError::Write {
            path: path.clone(),
            source,
        })?;
    Ok(path)
}

/// A pacticipant name as a file name part.
fn file_part(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' | '.' => c,
            _ => '_',
        })
        .collect()
}

/// Stops the server and returns once nothing of it can answer: the
/// listener closed, and every worker gone with its connections (at most
/// a few seconds: a drop never hangs).
impl Drop for MockServer {
    fn drop(&mut self) {
        drop(self.handle.stop(false));
        if let Some(t) = self.thread.take() {
            drop(t.join());
        }
        self.live.wait_gone(std::time::Duration::from_secs(5));
    }
}
