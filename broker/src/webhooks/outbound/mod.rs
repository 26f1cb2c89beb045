//! The SSRF-safe outbound client webhook deliveries go through.
//!
//! A webhook's URL is chosen by whoever may write webhooks, and the broker
//! sends the request from inside its network; so a request goes out only
//! when its scheme, method and host pass the allowlists, and every address
//! its host resolves to is public or allowlisted. The name is resolved once
//! per attempt and the connection pinned to the checked addresses (no DNS
//! rebinding between check and connect); redirects are never followed;
//! proxies from the environment are ignored; connect and total timeouts
//! bound an attempt and the response body read is capped.

mod allow;
mod check;
mod ranges;
mod send;

use std::fmt;
use std::time::{Duration, Instant};

use allow::{HostRule, items, parse_method, parse_scheme};
pub use ranges::{Class, classify};

/// Default connect timeout (and bound on the name's resolution).
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Default time a whole attempt may take, response body included.
pub const DEFAULT_TOTAL_TIMEOUT: Duration = Duration::from_secs(10);
/// Most response body bytes read.
pub const RESPONSE_READ_CAP: usize = 64 * 1024;
/// Most response body bytes kept (the excerpt).
pub const EXCERPT_CAP: usize = 4 * 1024;

/// What webhook requests may reach. `Default`: schemes ["https"], hosts []
/// (any PUBLIC address; private/loopback/... refused), methods ["POST"],
/// connect 5 s, total 10 s, response read capped at 64 KiB (excerpt kept: 4 KiB).
#[derive(Debug, Clone)]
pub struct Policy {
    schemes: Vec<String>,
    hosts: Vec<HostRule>,
    methods: Vec<String>,
    connect: Duration,
    total: Duration,
    read_cap: usize,
    excerpt_cap: usize,
    /// TLS with extra trusted roots (`--webhook-ca-file`); `None`: the
    /// platform's roots only.
    tls: Option<std::sync::Arc<rustls::ClientConfig>>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            schemes: vec!["https".into()],
            hosts: Vec::new(),
            methods: vec!["POST".into()],
            connect: DEFAULT_CONNECT_TIMEOUT,
            total: DEFAULT_TOTAL_TIMEOUT,
            read_cap: RESPONSE_READ_CAP,
            excerpt_cap: EXCERPT_CAP,
            tls: None,
        }
    }
}

/// Parses one list's items, the error naming the flag and the item.
fn parse_list<T>(
    values: &[String],
    flag: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    items(values)
        .map(|item| parse(item).map_err(|e| format!("--webhook-{flag}-allowlist: {e}")))
        .collect()
}

impl Policy {
    /// From the three allowlists as the flags give them: each item one value
    /// or a comma list ("https,http"); hosts are names, `*.example.com`
    /// wildcards, IP literals or CIDRs (`10.0.0.0/8`, `::1/128`). Err names
    /// the bad item. An empty scheme or method list keeps the default.
    pub fn from_lists(
        schemes: &[String],
        hosts: &[String],
        methods: &[String],
    ) -> Result<Policy, String> {
        let mut policy = Policy::default();
        let schemes = parse_list(schemes, "scheme", parse_scheme)?;
        if !schemes.is_empty() {
            policy.schemes = dedup(schemes);
        }
        policy.hosts = dedup(parse_list(hosts, "host", HostRule::parse)?);
        let methods = parse_list(methods, "method", parse_method)?;
        if !methods.is_empty() {
            policy.methods = dedup(methods);
        }
        Ok(policy)
    }

    /// Overrides the timeouts (tests use short ones).
    pub fn with_timeouts(self, connect: Duration, total: Duration) -> Policy {
        Policy {
            connect,
            total,
            ..self
        }
    }

    /// Also trusts the certificates (PEM, one or a bundle per file) of
    /// `ca_files` when it verifies a receiver's TLS certificate, beside the
    /// platform's roots. Err names the file that cannot be read or holds
    /// no valid certificate.
    pub fn with_ca_files(self, ca_files: &[std::path::PathBuf]) -> Result<Policy, String> {
        if ca_files.is_empty() {
            return Ok(self);
        }
        let mut roots = Vec::new();
        for file in ca_files {
            roots.extend(send::read_pem(file)?);
        }
        let tls = send::tls_with_roots(roots)?;
        Ok(Policy {
            tls: Some(std::sync::Arc::new(tls)),
            ..self
        })
    }

    /// One line per allowlist for `accord serve`'s start-up log.
    pub fn describe(&self) -> String {
        let hosts = if self.hosts.is_empty() {
            "none: any public address (loopback, private, link-local, CGNAT, \
             multicast and reserved addresses refused)"
                .to_owned()
        } else {
            format!("{} (only these hosts)", self.host_list())
        };
        format!(
            "webhook scheme allowlist: {}\nwebhook host allowlist: {hosts}\nwebhook method allowlist: {}",
            self.schemes.join(", "),
            self.methods.join(", "),
        )
    }

    fn host_list(&self) -> String {
        let names: Vec<String> = self.hosts.iter().map(ToString::to_string).collect();
        names.join(", ")
    }
}

fn dedup<T: PartialEq>(list: Vec<T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(list.len());
    for item in list {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// A rendered request, ready to send.
#[derive(Debug, Clone)]
pub struct OutboundRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    pub basic_auth: Option<(String, String)>,
}

/// Why a request was not sent (shown in the execute answer and the attempt
/// log; never a silent drop).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
}

impl Refusal {
    fn new(reason: impl Into<String>) -> Refusal {
        Refusal {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "refused: {}", self.reason)
    }
}

impl std::error::Error for Refusal {}

/// Checks a webhook definition when it is created or updated: scheme,
/// method, and the host when it is an IP literal or resolves (the name is
/// resolved here too) to a refused address. A name that does not resolve
/// at creation is NOT refused (it may resolve later); it is checked again
/// at delivery.
pub async fn check_definition(policy: &Policy, method: &str, url: &str) -> Result<(), Refusal> {
    let target = check::statically(policy, method, url)?;
    if target.name_allowed {
        return Ok(());
    }
    match check::resolve(policy, &target).await {
        Ok(addrs) => check::addresses(policy, &target, &addrs),
        Err(_) => Ok(()),
    }
}

/// What one attempt gave.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// Not sent at all.
    pub refused: Option<Refusal>,
    /// Sent or tried, transport failure (connect refused, timeout, reset, TLS …).
    pub error: Option<String>,
    pub status: Option<u16>,
    pub response_headers: Vec<(String, String)>,
    /// At most the excerpt cap, UTF-8 lossy, cut on a char boundary.
    pub body_excerpt: String,
    pub duration: Duration,
}

impl Attempt {
    /// Status 200..=206, as the Pact Broker counts success.
    pub fn succeeded(&self) -> bool {
        self.refused.is_none() && self.status.is_some_and(|s| (200..=206).contains(&s))
    }

    fn empty(start: Instant) -> Attempt {
        Attempt {
            refused: None,
            error: None,
            status: None,
            response_headers: Vec::new(),
            body_excerpt: String::new(),
            duration: start.elapsed(),
        }
    }
}

/// Sends one request under the policy: checks scheme, method, host
/// (allowlist), resolves the name ONCE for this attempt, refuses if any
/// resolved address is in a refused range and not allowlisted, and connects
/// ONLY to the checked address (pinned: no DNS rebinding between check and
/// connect); redirects are never followed (a 3xx is the answer); connect
/// and total timeouts; the response body read is capped. Never panics;
/// never sends credentials anywhere but the rendered URL.
pub async fn deliver(policy: &Policy, request: &OutboundRequest) -> Attempt {
    let start = Instant::now();
    let attempt = tokio::time::timeout(policy.total, send::attempt(policy, request, start)).await;
    attempt.unwrap_or_else(|_| Attempt {
        error: Some(format!(
            "timed out after {} ms (the webhook total timeout)",
            policy.total.as_millis()
        )),
        ..Attempt::empty(start)
    })
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
