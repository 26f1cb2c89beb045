//! TEMPORARY outbound HTTP for webhooks: the agreed interface, sent with
//! reqwest, with scheme and method checks but NO address checks. The
//! SSRF-safe module of slice wh-out replaces this file at the merge.

use std::time::{Duration, Instant};

/// Largest response body read.
const READ_CAP: usize = 64 * 1024;
/// Largest excerpt kept.
const EXCERPT_CAP: usize = 4 * 1024;

/// What webhook requests may reach.
#[derive(Debug, Clone)]
pub struct Policy {
    schemes: Vec<String>,
    hosts: Vec<String>,
    methods: Vec<String>,
    connect: Duration,
    total: Duration,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            schemes: vec!["https".into()],
            hosts: Vec::new(),
            methods: vec!["POST".into()],
            connect: Duration::from_secs(5),
            total: Duration::from_secs(10),
        }
    }
}

fn split(items: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for item in items {
        for part in item.split(',') {
            let part = part.trim();
            if part.is_empty() {
                return Err(format!("empty item in {item:?}"));
            }
            out.push(part.to_string());
        }
    }
    Ok(out)
}

impl Policy {
    /// From the three allowlists as the flags give them.
    pub fn from_lists(
        schemes: &[String],
        hosts: &[String],
        methods: &[String],
    ) -> Result<Policy, String> {
        let defaults = Policy::default();
        let schemes = split(schemes)?;
        let methods = split(methods)?;
        Ok(Policy {
            schemes: if schemes.is_empty() {
                defaults.schemes
            } else {
                schemes.iter().map(|s| s.to_ascii_lowercase()).collect()
            },
            hosts: split(hosts)?,
            methods: if methods.is_empty() {
                defaults.methods
            } else {
                methods.iter().map(|m| m.to_ascii_uppercase()).collect()
            },
            connect: defaults.connect,
            total: defaults.total,
        })
    }

    /// Overrides the timeouts (tests use short ones).
    pub fn with_timeouts(self, connect: Duration, total: Duration) -> Policy {
        Policy {
            connect,
            total,
            ..self
        }
    }

    /// One line per allowlist for `accord serve`'s start-up log.
    pub fn describe(&self) -> String {
        format!(
            "webhook schemes: {}\nwebhook hosts: {}\nwebhook methods: {}",
            self.schemes.join(","),
            if self.hosts.is_empty() {
                "(public addresses)".to_string()
            } else {
                self.hosts.join(",")
            },
            self.methods.join(",")
        )
    }

    fn check(&self, method: &str, url: &str) -> Result<(), Refusal> {
        let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
        let Some(scheme) = scheme else {
            return Err(Refusal {
                reason: format!("{url} is not an absolute URL"),
            });
        };
        if !self.schemes.contains(&scheme) {
            return Err(Refusal {
                reason: format!(
                    "scheme {scheme} is not in the webhook scheme allowlist ({})",
                    self.schemes.join(",")
                ),
            });
        }
        if !self.methods.iter().any(|m| m.eq_ignore_ascii_case(method)) {
            return Err(Refusal {
                reason: format!(
                    "method {method} is not in the webhook method allowlist ({})",
                    self.methods.join(",")
                ),
            });
        }
        Ok(())
    }
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

/// Why a request was not sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "refused: {}", self.reason)
    }
}

/// Checks a webhook definition when it is created or updated.
pub async fn check_definition(policy: &Policy, method: &str, url: &str) -> Result<(), Refusal> {
    policy.check(method, url)
}

/// What one attempt gave.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub refused: Option<Refusal>,
    pub error: Option<String>,
    pub status: Option<u16>,
    pub response_headers: Vec<(String, String)>,
    pub body_excerpt: String,
    pub duration: Duration,
}

impl Attempt {
    /// Status 200..=206, as the Pact Broker counts success.
    pub fn succeeded(&self) -> bool {
        self.refused.is_none() && matches!(self.status, Some(200..=206))
    }

    fn failed(started: Instant, refused: Option<Refusal>, error: Option<String>) -> Attempt {
        Attempt {
            refused,
            error,
            status: None,
            response_headers: Vec::new(),
            body_excerpt: String::new(),
            duration: started.elapsed(),
        }
    }
}

fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut end = text.len().min(EXCERPT_CAP);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// Sends one request under the policy (TEMPORARY: no address checks).
pub async fn deliver(policy: &Policy, request: &OutboundRequest) -> Attempt {
    let started = Instant::now();
    if let Err(refusal) = policy.check(&request.method, &request.url) {
        return Attempt::failed(started, Some(refusal), None);
    }
    match send(policy, request).await {
        Ok((status, response_headers, body)) => Attempt {
            refused: None,
            error: None,
            status: Some(status),
            response_headers,
            body_excerpt: excerpt(&body),
            duration: started.elapsed(),
        },
        Err(e) => Attempt::failed(started, None, Some(e)),
    }
}

type Answer = (u16, Vec<(String, String)>, Vec<u8>);

async fn send(policy: &Policy, request: &OutboundRequest) -> Result<Answer, String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(policy.connect)
        .timeout(policy.total)
        .build()
        .map_err(|e| e.to_string())?;
    let method =
        reqwest::Method::from_bytes(request.method.as_bytes()).map_err(|e| e.to_string())?;
    let mut builder = client.request(method, &request.url);
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    if let Some((user, password)) = &request.basic_auth {
        builder = builder.basic_auth(user, Some(password));
    }
    if let Some(body) = &request.body {
        builder = builder.body(body.clone());
    }
    let mut response = builder.send().await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let mut body = Vec::new();
    while body.len() < READ_CAP {
        match response.chunk().await {
            Ok(Some(chunk)) => body.extend_from_slice(&chunk),
            Ok(None) => break,
            Err(e) => return Err(e.to_string()),
        }
    }
    body.truncate(READ_CAP);
    Ok((status, headers, body))
}
