//! One attempt: the checks, a client pinned to the checked addresses, the
//! request, and the capped read of the answer.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use std::time::Instant;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::check::{self, Target, TargetHost};
use super::{Attempt, OutboundRequest, Policy, Refusal};

/// Checks, sends and reads, never past the policy's total timeout from `start`.
pub async fn attempt(policy: &Policy, request: &OutboundRequest, start: Instant) -> Attempt {
    let deadline = tokio::time::Instant::from_std(start + policy.total);
    let prepared = check::statically(policy, &request.method, &request.url)
        .and_then(|target| Ok((headers(&request.headers)?, target)));
    let (headers, target) = match prepared {
        Ok(ready) => ready,
        Err(refusal) => return refused(refusal, start),
    };
    let addrs = match check::resolve(policy, &target).await {
        Ok(addrs) => addrs,
        Err(error) => return failed(error, start),
    };
    if let Err(refusal) = check::addresses(policy, &target, &addrs) {
        return refused(refusal, start);
    }
    let client = match pinned_client(policy, &target, &addrs) {
        Ok(client) => client,
        Err(error) => return failed(error, start),
    };
    let builder = match build(&client, target, headers, request) {
        Ok(builder) => builder,
        Err(refusal) => return refused(refusal, start),
    };
    match tokio::time::timeout_at(deadline, builder.send()).await {
        Ok(Ok(response)) => read(policy, response, start, deadline).await,
        Ok(Err(error)) => failed(describe(&error), start),
        Err(_) => failed(timed_out(policy), start),
    }
}

/// The request as reqwest sends it: method, URL, headers, body and the
/// Basic credentials of the webhook (no other credential is ever added).
fn build(
    client: &reqwest::Client,
    target: Target,
    headers: HeaderMap,
    request: &OutboundRequest,
) -> Result<reqwest::RequestBuilder, Refusal> {
    let method = reqwest::Method::from_bytes(target.method.as_bytes())
        .map_err(|_| Refusal::new("the method is not an HTTP method"))?;
    let mut builder = client.request(method, target.url).headers(headers);
    if let Some(body) = &request.body {
        builder = builder.body(body.clone());
    }
    if let Some((user, password)) = &request.basic_auth {
        builder = builder.basic_auth(user, Some(password));
    }
    Ok(builder)
}

fn refused(refusal: Refusal, start: Instant) -> Attempt {
    Attempt {
        refused: Some(refusal),
        ..Attempt::empty(start)
    }
}

fn failed(error: String, start: Instant) -> Attempt {
    Attempt {
        error: Some(error),
        ..Attempt::empty(start)
    }
}

fn timed_out(policy: &Policy) -> String {
    format!(
        "timed out after {} ms (the webhook total timeout)",
        policy.total.as_millis()
    )
}

fn headers(list: &[(String, String)]) -> Result<HeaderMap, Refusal> {
    let mut map = HeaderMap::new();
    for (name, value) in list {
        let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
            Refusal::new(format!(
                "header name `{name}` is not a valid HTTP header name"
            ))
        })?;
        let value = HeaderValue::from_str(value).map_err(|_| {
            Refusal::new(format!(
                "the value of header `{name}` is not a valid HTTP header value"
            ))
        })?;
        map.append(header, value);
    }
    Ok(map)
}

/// A client that connects only to `addrs` for the target's name (an IP
/// literal needs no resolution), follows no redirect, uses no proxy and
/// resolves nothing itself.
pub fn pinned_client(
    policy: &Policy,
    target: &Target,
    addrs: &[IpAddr],
) -> Result<reqwest::Client, String> {
    let tls = match &policy.tls {
        Some(tls) => rustls::ClientConfig::clone(tls),
        None => tls_config()?,
    };
    let mut builder = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .retry(reqwest::retry::never())
        .dns_resolver(Unpinned)
        .connect_timeout(policy.connect)
        .pool_max_idle_per_host(0)
        .user_agent(concat!(
            "accord-broker/",
            env!("CARGO_PKG_VERSION"),
            " (webhook)"
        ));
    if let TargetHost::Name(name) = &target.host {
        let pinned: Vec<SocketAddr> = addrs
            .iter()
            .map(|ip| SocketAddr::new(*ip, target.port))
            .collect();
        builder = builder.resolve_to_addrs(name, &pinned);
    }
    builder.build().map_err(|e| describe(&e))
}

/// The TLS settings every webhook client shares: the platform's verifier
/// (as reqwest builds by default), made once: loading the system's roots
/// takes ~25 ms, too long to pay per attempt.
fn tls_config() -> Result<rustls::ClientConfig, String> {
    static CONFIG: OnceLock<Result<rustls::ClientConfig, String>> = OnceLock::new();
    CONFIG.get_or_init(|| tls_with_roots(Vec::new())).clone()
}

/// The platform's verifier, trusting `extra` roots beside the platform's.
pub fn tls_with_roots(extra: Vec<CertificateDer<'static>>) -> Result<rustls::ClientConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = if extra.is_empty() {
        rustls_platform_verifier::Verifier::new(provider.clone())
    } else {
        rustls_platform_verifier::Verifier::new_with_extra_roots(extra, provider.clone())
    }
    .map_err(|e| format!("cannot set up TLS: {e}"))?;
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    tls.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(tls)
}

/// The certificates of a PEM file (one or a bundle); Err names the file.
pub fn read_pem(file: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let shown = file.display();
    let bytes = std::fs::read(file).map_err(|e| format!("--webhook-ca-file {shown}: {e}"))?;
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--webhook-ca-file {shown}: not a PEM certificate file: {e}"))?;
    if certs.is_empty() {
        return Err(format!(
            "--webhook-ca-file {shown}: no certificate in it (expected PEM \"BEGIN CERTIFICATE\" blocks)"
        ));
    }
    Ok(certs)
}

/// The resolver behind the pinned addresses: any name not pinned is an
/// error, so nothing is ever resolved a second time.
struct Unpinned;

impl reqwest::dns::Resolve for Unpinned {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let message = format!("{} was not checked, so it is not resolved", name.as_str());
        Box::pin(async move { Err(message.into()) })
    }
}

/// A transport error without its URL (which may carry credentials), with its causes.
pub fn describe(error: &reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "could not connect"
    } else if error.is_body() || error.is_decode() {
        "could not read the response"
    } else {
        "the request failed"
    };
    let mut text = kind.to_owned();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let line = cause.to_string();
        if !text.ends_with(&line) {
            text.push_str(": ");
            text.push_str(&line);
        }
        source = cause.source();
    }
    text
}

/// The status, headers and at most the read cap of the body.
async fn read(
    policy: &Policy,
    mut response: reqwest::Response,
    start: Instant,
    deadline: tokio::time::Instant,
) -> Attempt {
    let status = response.status().as_u16();
    let response_headers = response
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let mut body: Vec<u8> = Vec::new();
    let mut error = None;
    while body.len() < policy.read_cap {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                let room = policy.read_cap - body.len();
                body.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            Ok(Ok(None)) => break,
            Ok(Err(e)) => {
                error = Some(describe(&e));
                break;
            }
            Err(_) => {
                error = Some(format!("reading the response body: {}", timed_out(policy)));
                break;
            }
        }
    }
    Attempt {
        error,
        status: Some(status),
        response_headers,
        body_excerpt: excerpt(&body, policy.excerpt_cap),
        ..Attempt::empty(start)
    }
}

/// At most `cap` bytes of text, UTF-8 lossy, never ending in half a character.
pub fn excerpt(body: &[u8], cap: usize) -> String {
    let mut cut = &body[..body.len().min(cap)];
    if cut.len() < body.len() {
        cut = whole_chars(cut);
    }
    let text = String::from_utf8_lossy(cut);
    let mut end = text.len().min(cap);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// `bytes` without a multi-byte character cut at its end.
fn whole_chars(bytes: &[u8]) -> &[u8] {
    for back in 1..=bytes.len().min(3) {
        let i = bytes.len() - back;
        let byte = bytes[i];
        if byte & 0xC0 == 0x80 {
            continue;
        }
        let needs = match byte {
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        return if needs > back { &bytes[..i] } else { bytes };
    }
    bytes
}
