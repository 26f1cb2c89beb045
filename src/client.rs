//! A small blocking HTTP client for the broker's API (Accord's or any Pact
//! Broker): base URL and credentials from flags or the environment, JSON in
//! and out, HAL link lookup, errors that carry the broker's own message.
//! Every request carries `X-Accord-Client: <version>`, so Accord's broker
//! serves whole contracts (other clients get their Pact view).
//!
//! Transient failures are retried, at most [`RETRIES`] times with backoff
//! 0.5 s, 1 s, 2 s (or the reply's `Retry-After` seconds, capped at 10 s);
//! which failures depends on whether repeating the request is safe, see
//! [`Retry`]. The backoff base can be changed with the environment variable
//! `ACCORD_BROKER_RETRY_BASE_MS` (milliseconds; tests set it low).

use std::io::Read;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use clap::Args;
use reqwest::Method;
use serde_json::Value;

mod hal;
mod index;
mod retry;

/// Percent-encodes one path segment: the broker's own encoder, so the CLI
/// expands templates exactly as the broker builds its links.
pub use accord_broker::hal::encode_segment as segment;
pub use hal::{link, print_list, text_field};
pub use index::Index;

pub use retry::{RETRIES, Retry};
use retry::{backoff, retry_after, retry_base};

/// The largest broker reply read (a pact is at most what the broker
/// accepted; a reply that never ends must not exhaust memory).
const MAX_REPLY_BYTES: u64 = 64 << 20;

/// Why one request brought no reply to judge.
#[derive(Debug)]
enum Failure {
    /// No reply (refused, reset, timed out…).
    Transport(reqwest::Error),
    /// The reply's body could not be read.
    Read(std::io::Error),
    /// The reply's body is larger than [`MAX_REPLY_BYTES`].
    TooLarge,
}

/// Where the broker is and how to authenticate; shared by every client command.
#[derive(Debug, Clone, Args)]
pub struct BrokerArgs {
    /// Broker base URL [env: ACCORD_BROKER_URL, or PACT_BROKER_BASE_URL].
    #[arg(long, value_name = "URL", global = true)]
    pub broker_url: Option<String>,
    /// Bearer token [env: ACCORD_BROKER_TOKEN, or PACT_BROKER_TOKEN].
    #[arg(long, value_name = "TOKEN", global = true)]
    pub token: Option<String>,
    /// HTTP Basic user name [env: PACT_BROKER_USERNAME].
    #[arg(long, value_name = "USER", global = true)]
    pub broker_username: Option<String>,
    /// HTTP Basic password [env: PACT_BROKER_PASSWORD].
    #[arg(long, value_name = "PASSWORD", global = true)]
    pub broker_password: Option<String>,
}

fn env_first(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok().filter(|v| !v.is_empty()))
}

/// How a request authenticates.
#[derive(Clone)]
enum Credentials {
    None,
    Bearer(String),
    Basic(String, String),
}

/// A connection to one broker.
pub struct BrokerClient {
    base: String,
    credentials: Credentials,
    http: reqwest::blocking::Client,
    retry_base: Duration,
}

impl std::fmt::Debug for BrokerClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // never print credentials
        f.debug_struct("BrokerClient")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

/// A response the broker gave: status and JSON body (Null when not JSON).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
    /// How many times the request was sent again before this reply.
    pub retries: u32,
    /// The role Accord's broker says the credential has (`X-Accord-Role`,
    /// on its index only).
    pub role: Option<String>,
}

impl BrokerClient {
    /// A client from flags, falling back to the environment.
    pub fn from_args(args: &BrokerArgs) -> anyhow::Result<BrokerClient> {
        Self::with_default_base(args, None)
    }

    /// A client of the broker at `base` without credentials, whatever the
    /// environment says (`accord demo`'s own broker).
    pub fn anonymous(base: &str) -> anyhow::Result<BrokerClient> {
        Self::new(base, Credentials::None)
    }

    /// A client from flags and the environment, or, when neither names a
    /// broker, based at `default_base` (e.g. the pact URL it will read).
    pub fn with_default_base(
        args: &BrokerArgs,
        default_base: Option<&str>,
    ) -> anyhow::Result<BrokerClient> {
        let base = args
            .broker_url
            .clone()
            .or_else(|| env_first(&["ACCORD_BROKER_URL", "PACT_BROKER_BASE_URL"]))
            .or_else(|| default_base.map(str::to_owned))
            .context("no broker URL: pass --broker-url or set ACCORD_BROKER_URL (or PACT_BROKER_BASE_URL)")?;
        let token = args
            .token
            .clone()
            .or_else(|| env_first(&["ACCORD_BROKER_TOKEN", "PACT_BROKER_TOKEN"]));
        let user = args
            .broker_username
            .clone()
            .or_else(|| env_first(&["PACT_BROKER_USERNAME"]));
        let password = args
            .broker_password
            .clone()
            .or_else(|| env_first(&["PACT_BROKER_PASSWORD"]));
        let credentials = match (token, user, password) {
            (Some(t), _, _) => Credentials::Bearer(t),
            (None, Some(u), Some(p)) => Credentials::Basic(u, p),
            (None, Some(_), None) => bail!("--broker-username needs --broker-password"),
            _ => Credentials::None,
        };
        Self::new(&base, credentials)
    }

    fn new(base: &str, credentials: Credentials) -> anyhow::Result<BrokerClient> {
        let Ok(mut parsed) = reqwest::Url::parse(base) else {
            bail!("the broker URL is not a URL (it is not repeated here: it may hold a password)");
        };
        // `http://user:password@host`: the credentials leave the URL (which
        // is printed in messages) and become Basic credentials.
        let credentials = match (credentials, parsed.password()) {
            (Credentials::None, Some(password)) => {
                let user = percent_decode(parsed.username());
                Credentials::Basic(user, percent_decode(password))
            }
            (other, _) => other,
        };
        let _ = parsed.set_password(None);
        let _ = parsed.set_username("");
        let base = parsed.as_str().trim_end_matches('/').to_owned();
        if !matches!(parsed.scheme(), "http" | "https") {
            bail!("broker URL {base:?} must start with http:// or https://");
        }
        let _ = rustls::crypto::ring::default_provider().install_default();
        // Accord's broker serves this client whole contracts (A2A and MCP
        // interactions included), every other client their Pact view.
        let mut announce = reqwest::header::HeaderMap::new();
        announce.insert(
            accord_broker::audience::CLIENT_HEADER,
            reqwest::header::HeaderValue::from_static(env!("CARGO_PKG_VERSION")),
        );
        let http = reqwest::blocking::Client::builder()
            .timeout(std::time::Duration::from_secs(60))
            .user_agent(concat!("accord/", env!("CARGO_PKG_VERSION")))
            .default_headers(announce)
            .build()
            .context("cannot build the HTTP client")?;
        Ok(BrokerClient {
            base,
            credentials,
            http,
            retry_base: retry_base(),
        })
    }

    /// The absolute URL of `path_or_url` (an href from a response is used as is).
    pub fn url(&self, path_or_url: &str) -> String {
        if path_or_url.starts_with("http://") || path_or_url.starts_with("https://") {
            path_or_url.to_owned()
        } else {
            format!("{}{}", self.base, path_or_url)
        }
    }

    /// Sends a request, retrying as its method allows ([`Retry::for_method`]);
    /// any status comes back as a `Reply` (only transport failures are errors).
    pub fn send(
        &self,
        method: Method,
        path_or_url: &str,
        body: Option<&Value>,
    ) -> anyhow::Result<Reply> {
        let retry = Retry::for_method(&method);
        self.send_with(method, path_or_url, body, retry)
    }

    /// Sends a request, retrying transient failures as `retry` allows.
    pub fn send_with(
        &self,
        method: Method,
        path_or_url: &str,
        body: Option<&Value>,
        retry: Retry,
    ) -> anyhow::Result<Reply> {
        let url = self.url(path_or_url);
        let mut retries = 0;
        loop {
            let wait = match self.attempt(&method, &url, body) {
                Ok((reply, after)) if retries < RETRIES && retry.on_status(reply.status) => after,
                Ok((reply, _)) => return Ok(Reply { retries, ..reply }),
                Err(Failure::TooLarge) => bail!(
                    "the broker's reply to {method} {url} is larger than {} MiB: refused",
                    MAX_REPLY_BYTES >> 20
                ),
                Err(Failure::Read(err)) => {
                    return Err(anyhow::Error::new(err)
                        .context(format!("cannot read the broker's reply to {method} {url}")));
                }
                Err(Failure::Transport(err)) if retries < RETRIES && retry.on_transport(&err) => {
                    None
                }
                Err(Failure::Transport(err)) => {
                    let tried = match retries {
                        0 => String::new(),
                        n => format!(" (after {n} retries)"),
                    };
                    return Err(anyhow::Error::new(err).context(format!(
                        "cannot reach the broker: {method} {url} failed{tried} — is `accord serve` running there, and is --broker-url (or ACCORD_BROKER_URL) right?"
                    )));
                }
            };
            std::thread::sleep(backoff(retries, self.retry_base, wait));
            retries += 1;
        }
    }

    /// One request: the reply and its `Retry-After`.
    fn attempt(
        &self,
        method: &Method,
        url: &str,
        body: Option<&Value>,
    ) -> Result<(Reply, Option<Duration>), Failure> {
        let mut request = self.http.request(method.clone(), url).header(
            "Accept",
            "application/hal+json, application/json, application/problem+json",
        );
        request = match &self.credentials {
            Credentials::None => request,
            Credentials::Bearer(t) => request.bearer_auth(t),
            Credentials::Basic(u, p) => request.basic_auth(u, Some(p)),
        };
        if let Some(body) = body {
            request = request
                .header("Content-Type", "application/json")
                .body(body.to_string());
        }
        let mut response = request.send().map_err(Failure::Transport)?;
        let status = response.status().as_u16();
        let after = retry_after(response.headers());
        let role = response
            .headers()
            .get(accord_broker::auth::ROLE_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let mut bytes = Vec::new();
        std::io::Read::take(&mut response, MAX_REPLY_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(Failure::Read)?;
        if bytes.len() as u64 > MAX_REPLY_BYTES {
            return Err(Failure::TooLarge);
        }
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let reply = Reply {
            status,
            body,
            retries: 0,
            role,
        };
        Ok((reply, after))
    }

    /// Sends a request and insists on a 2xx reply.
    pub fn expect_ok(
        &self,
        method: Method,
        path_or_url: &str,
        body: Option<&Value>,
    ) -> anyhow::Result<Value> {
        let retry = Retry::for_method(&method);
        self.expect_ok_with(method, path_or_url, body, retry)
    }

    /// Sends a request, retrying as `retry` allows, and insists on a 2xx reply.
    pub fn expect_ok_with(
        &self,
        method: Method,
        path_or_url: &str,
        body: Option<&Value>,
        retry: Retry,
    ) -> anyhow::Result<Value> {
        let reply = self.send_with(method.clone(), path_or_url, body, retry)?;
        if (200..300).contains(&reply.status) {
            Ok(reply.body)
        } else {
            Err(anyhow!(
                "{method} {} failed: {}",
                self.url(path_or_url),
                describe_error(&reply)
            ))
        }
    }

    /// `GET` that must succeed.
    pub fn get(&self, path_or_url: &str) -> anyhow::Result<Value> {
        self.expect_ok(Method::GET, path_or_url, None)
    }

    /// `POST` with a JSON body that must succeed.
    pub fn post(&self, path_or_url: &str, body: &Value) -> anyhow::Result<Value> {
        self.expect_ok(Method::POST, path_or_url, Some(body))
    }

    /// `POST` of a query (it changes nothing, so it is retried like a `GET`)
    /// that must succeed.
    pub fn post_query(&self, path_or_url: &str, body: &Value) -> anyhow::Result<Value> {
        self.expect_ok_with(Method::POST, path_or_url, Some(body), Retry::Idempotent)
    }
}

/// "HTTP 409: <detail> (field: message; …)" from a problem or Pact error body.
pub fn describe_error(reply: &Reply) -> String {
    let mut text = format!("HTTP {}", reply.status);
    if let Some(detail) = reply.body.get("detail").and_then(Value::as_str) {
        text.push_str(": ");
        text.push_str(detail);
    }
    if let Some(errors) = reply.body.get("errors").and_then(Value::as_object) {
        let parts: Vec<String> = errors
            .iter()
            .map(|(field, msgs)| match msgs {
                Value::Array(list) => format!(
                    "{field}: {}",
                    list.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                other => format!("{field}: {other}"),
            })
            .collect();
        if !parts.is_empty() {
            text.push_str(&format!(" ({})", parts.join("; ")));
        }
    }
    if reply.retries > 0 {
        text.push_str(&format!(" (after {} retries)", reply.retries));
    }
    text.push_str(match reply.status {
        401 => " — pass a token with --token (or ACCORD_BROKER_TOKEN), or --broker-username and --broker-password",
        403 => " — the credential's role does not allow this (read < write < admin; see `accord token list`)",
        _ => "",
    });
    text
}

/// A percent-encoded URL component, decoded.
fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests;
