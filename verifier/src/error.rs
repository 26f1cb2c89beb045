//! The one error type of this crate: operational failures only. A provider
//! that answers wrongly is a finding in the report, never an error.

use std::path::PathBuf;

/// Why a verification could not be carried out.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// A contract file could not be read.
    #[error("cannot read contract {path}")]
    ReadContract {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A contract directory holds no `*.json` file.
    #[error("{} holds no contract (*.json) files", .0.display())]
    EmptyDirectory(PathBuf),
    /// A contract is not a valid contract.
    #[error(transparent)]
    Contract(#[from] accord_dsl::DslError),
    /// A contract a verifier cannot run (the broker refuses to store the
    /// same ones): an expectation that cannot be evaluated, a request that
    /// cannot be built, no protocol version to speak.
    #[error("{source_name} cannot be run: {}", problems.join("; "))]
    Unrunnable {
        source_name: String,
        problems: Vec<String>,
    },
    /// A contract is for another provider than the one verified.
    #[error("{source_name} is a contract for provider '{found}', not '{expected}'")]
    WrongProvider {
        source_name: String,
        expected: String,
        found: String,
    },
    /// A `--filter-*` pattern is not a valid regular expression.
    #[error("invalid {which} filter")]
    InvalidFilter {
        which: &'static str,
        #[source]
        source: regex::Error,
    },
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client")]
    Client(#[source] reqwest::Error),
    /// A configured URL is not a valid absolute URL.
    #[error("invalid URL for {what}: {url}{}", if url.contains("://") { "" } else { " (an http:// or https:// URL, e.g. http://127.0.0.1:8080)" })]
    InvalidUrl { what: &'static str, url: String },
    /// The async runtime could not be started.
    #[error("cannot start the async runtime")]
    Runtime(#[source] std::io::Error),
    /// A contract task panicked or was cancelled.
    #[error("a verification task failed")]
    Task(#[source] tokio::task::JoinError),
    /// A verification thread panicked.
    #[error("a verification thread panicked")]
    ThreadPanicked,
    /// The provider could not be reached before any interaction ran
    /// (connection refused, no such host, TLS): nothing was verified. A
    /// provider that goes away later fails the interactions it fails.
    #[error("cannot reach the provider at {url} ({flag}): {reason}; nothing was verified")]
    Unreachable {
        url: String,
        /// The option that gave the URL.
        flag: &'static str,
        /// The innermost cause (the outer ones repeat the URL).
        reason: String,
    },
    /// The observation endpoint could not be read.
    #[error("cannot read observations from {url}: {reason}")]
    Observe { url: String, reason: ObserveProblem },
    /// A counter the contract names is not reported by the provider.
    #[error(
        "interaction '{interaction}' expects counter '{counter}' but the observation endpoint does not report it"
    )]
    MissingCounter {
        interaction: String,
        counter: String,
    },
    /// An interaction declares side effects but no observation URL is set.
    #[error("interaction '{interaction}' declares side effects: --observe-url is required")]
    ObservationRequired { interaction: String },
    /// An interaction asks to be sent more often than the verifier allows.
    #[error("interaction '{interaction}' asks to be sent {times} times; at most {max} are allowed")]
    RepeatTooLarge {
        interaction: String,
        times: u32,
        max: u32,
    },
    /// An interaction is sent as a principal no token is known for.
    #[error(
        "interaction '{interaction}' is sent as principal '{principal}' but no token is known for it (use --principal {principal}=TOKEN)"
    )]
    UnknownPrincipal {
        interaction: String,
        principal: String,
    },
    /// An interaction presents an expired credential, and no provider
    /// state can issue one: the verifier never makes one up.
    #[error(
        "interaction '{interaction}' presents an expired credential, but no provider state issues one (a state-change reply's `expiredToken`; give the interaction such a state and --state-change-url)"
    )]
    NoExpiredCredential { interaction: String },
    /// Several interactions need what the configuration does not give
    /// (found before the first request).
    #[error("the contracts cannot be run as configured: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    CannotRun(Vec<VerifyError>),
}

/// What was wrong with an observation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObserveProblem {
    /// The request failed or timed out.
    #[error("the request failed ({0})")]
    Unreachable(String),
    /// The endpoint answered with a non-success status.
    #[error("status {0}")]
    Status(u16),
    /// The body is not a flat JSON object of integers.
    #[error("expected a flat JSON object of integer counters, got {0}")]
    NotCounters(String),
}
