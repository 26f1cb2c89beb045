//! The bounded HTTP client: one connection-reusing `reqwest::Client`, a
//! per-request timeout over send and body, a streamed size cap and no
//! redirects unless asked. A cut-off is a [`CutOff`], turned into a
//! finding by the caller; it never hangs the run. Requests built as an
//! [`Outgoing`] to a plain `http://` URL go on kept-alive hyper HTTP/1.1
//! connections instead ([`crate::transport_h1`]), under the same bounds;
//! both read an answer into a [`Received`] in [`crate::transport_body`].

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::config::Limits;
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};

/// A response read within the limits.
#[derive(Debug, Clone)]
pub struct Received {
    pub status: u16,
    /// Header names lower case, values in order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Time to the response head (the acknowledgement).
    pub ack: Duration,
    /// Time to the end of the body.
    pub total: Duration,
}

impl Received {
    /// The first value of a header (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        crate::transport::first_header(&self.headers, name)
    }
}

/// The first value of header `name` (case-insensitive) in a received list.
pub fn first_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// A request as the HTTP driver, the state changes and the observations
/// build it; [`Transport::send_out`] picks the path. Headers go out in
/// this order: `headers`, then `Authorization: Bearer`, then
/// `Content-Type` (none is added unless given here).
#[derive(Debug, Clone)]
pub struct Outgoing<'a> {
    pub method: reqwest::Method,
    /// The URL, query included; `Err` keeps the text of one that does not
    /// parse, sent through reqwest to fail there as a failed request.
    pub url: Result<Cow<'a, reqwest::Url>, String>,
    pub headers: Vec<(&'a str, &'a str)>,
    pub bearer: Option<&'a str>,
    pub content_type: Option<Cow<'a, str>>,
    pub body: Option<Vec<u8>>,
}

impl<'a> Outgoing<'a> {
    /// A request without headers or body.
    pub fn new(method: reqwest::Method, url: Result<Cow<'a, reqwest::Url>, String>) -> Self {
        Outgoing {
            method,
            url,
            headers: Vec::new(),
            bearer: None,
            content_type: None,
            body: None,
        }
    }
}

/// Whether an answer's headers are listed in its [`Received`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listing {
    Headers,
    /// Only its status and body are read: `headers` stays empty.
    BodyOnly,
}

/// Why a request was cut off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CutOff {
    /// No complete answer within the timeout.
    Timeout(Duration),
    /// The body grew past the cap; reading stopped.
    TooLarge(usize),
    /// The request failed (connection refused, reset, bad URL, …).
    Failed(String),
}

impl CutOff {
    /// The finding this cut-off is.
    pub fn finding(&self, what: &str) -> Finding {
        match self {
            CutOff::Timeout(t) => Finding::new(
                Layer::Temporal,
                codes::RESPONSE_TIMEOUT,
                what,
                format!("no complete answer within {} ms", t.as_millis()),
            )
            .values(Some(json!(t.as_millis() as u64)), None),
            CutOff::TooLarge(cap) => Finding::new(
                Layer::Protocol,
                codes::RESPONSE_TOO_LARGE,
                what,
                format!("response body larger than {cap} bytes; reading stopped"),
            )
            .values(Some(json!(cap)), None),
            CutOff::Failed(reason) => {
                Finding::new(Layer::Protocol, codes::REQUEST_FAILED, what, reason.clone())
            }
        }
    }
}

/// The shared clients and their limits: one for `http://` URLs, built
/// without TLS roots, and one for everything else, built at its first use
/// (loading the platform's root certificates reads ~150 files: a run
/// that only speaks plain HTTP never pays it).
#[derive(Debug, Clone)]
pub struct Transport {
    plain: reqwest::Client,
    full: Arc<OnceLock<reqwest::Client>>,
    /// The direct path for plain `http://` [`Outgoing`] requests; `None`
    /// when redirects are followed or a proxy is set in the environment
    /// (reqwest's own policy and proxy handling then send them).
    direct: Option<Arc<crate::transport_h1::Direct>>,
    limits: Limits,
}

impl Transport {
    /// Builds the plain-HTTP client (installing the ring TLS provider
    /// once); the TLS one waits for its first use.
    pub fn new(limits: Limits) -> Result<Self, VerifyError> {
        // Installing twice is refused harmlessly: another part of the
        // process may have installed it first.
        let _ = rustls::crypto::ring::default_provider().install_default();
        // no roots: it never connects with TLS (a redirect to https is
        // another origin, never followed)
        let plain = builder(&limits)
            .tls_certs_only(Vec::new())
            .build()
            .map_err(VerifyError::Client)?;
        let direct = (!limits.follow_redirects && !crate::transport_h1::proxy_in_environment())
            .then(|| Arc::new(crate::transport_h1::Direct::new(limits.request_timeout)));
        Ok(Transport {
            plain,
            full: Arc::new(OnceLock::new()),
            direct,
            limits,
        })
    }

    /// Tells the direct path how many threads the run drives: it waits
    /// for a fast provider's answer without sleeping only when they leave
    /// a core free (`crate::hot`).
    pub(crate) fn leave_a_core(&self, threads: usize) {
        if let Some(direct) = &self.direct {
            direct.leave_a_core(threads);
        }
    }

    /// The client for any URL, TLS included: built at the first call.
    /// Where the platform's roots cannot be loaded (none installed), it is
    /// the plain client, and an `https` request fails verifying the
    /// provider's certificate (today's run of plain HTTP needs no roots).
    pub fn client(&self) -> &reqwest::Client {
        self.full.get_or_init(|| {
            builder(&self.limits).build().unwrap_or_else(|e| {
                tracing::warn!("TLS client set-up failed ({e}); https requests will fail");
                self.plain.clone()
            })
        })
    }

    /// The client for `url`: the plain one for `http://`, else [`Self::client`].
    pub fn client_for(&self, url: &str) -> &reqwest::Client {
        if url
            .get(..7)
            .is_some_and(|s| s.eq_ignore_ascii_case("http://"))
        {
            &self.plain
        } else {
            self.client()
        }
    }

    /// Sends a request and reads its answer within the limits.
    pub async fn send(&self, request: reqwest::RequestBuilder) -> Result<Received, CutOff> {
        let limit = self.limits.request_timeout;
        match tokio::time::timeout(limit, self.exchange(request, Listing::Headers)).await {
            Ok(result) => result,
            Err(_) => Err(CutOff::Timeout(limit)),
        }
    }

    /// Sends `out` and reads its answer within the limits: on a kept-alive
    /// connection of the direct path where it takes the request, else
    /// through reqwest (see [`crate::transport_h1`]).
    pub async fn send_out(&self, out: Outgoing<'_>) -> Result<Received, CutOff> {
        self.send_out_with(out, Listing::Headers).await
    }

    /// [`Self::send_out`] for a caller that reads only the answer's status
    /// and body (the state changes): its headers are not listed
    /// ([`Received::headers`] is empty), which saves two strings per
    /// header per answer. The body is decoded as for `send_out`.
    pub async fn send_out_for_body(&self, out: Outgoing<'_>) -> Result<Received, CutOff> {
        self.send_out_with(out, Listing::BodyOnly).await
    }

    async fn send_out_with(
        &self,
        mut out: Outgoing<'_>,
        listing: Listing,
    ) -> Result<Received, CutOff> {
        let limit = self.limits.request_timeout;
        let cap = self.limits.max_response_bytes;
        let exchange = async {
            let direct = self.direct.as_deref().and_then(|d| {
                let prepared = crate::transport_h1::prepare(d, &mut out)?;
                Some((d, prepared))
            });
            if let (Some((d, prepared)), Ok(url)) = (direct, &out.url) {
                return d
                    .exchange(prepared, url, Instant::now(), cap, listing)
                    .await;
            }
            self.exchange(self.through_reqwest(out), listing).await
        };
        match tokio::time::timeout(limit, exchange).await {
            Ok(result) => result,
            Err(_) => Err(CutOff::Timeout(limit)),
        }
    }

    /// `out` as a reqwest request, the headers in the same order (A2A's
    /// streams are read through it as they arrive).
    pub(crate) fn through_reqwest(&self, out: Outgoing<'_>) -> reqwest::RequestBuilder {
        let mut builder = match out.url {
            Ok(url) => self
                .client_for(url.as_str())
                .request(out.method, url.into_owned()),
            Err(text) => self.client_for(&text).request(out.method, text),
        };
        for (name, value) in out.headers {
            builder = builder.header(name, value);
        }
        if let Some(token) = out.bearer {
            builder = builder.bearer_auth(token);
        }
        if let Some(content_type) = out.content_type {
            builder = builder.header("content-type", content_type.as_ref());
        }
        if let Some(body) = out.body {
            builder = builder.body(body);
        }
        builder
    }

    /// [`Self::send_out`] through reqwest whatever the URL (the direct
    /// path's tests compare the two).
    #[cfg(test)]
    pub(crate) async fn send_through_reqwest(&self, out: Outgoing<'_>) -> Result<Received, CutOff> {
        self.send(self.through_reqwest(out)).await
    }

    /// The same transport with every request on reqwest (the tests of
    /// what moved to the direct path compare the two).
    #[cfg(test)]
    pub(crate) fn without_direct_path(&self) -> Transport {
        Transport {
            direct: None,
            ..self.clone()
        }
    }

    /// True when plain `http://` requests take the direct path.
    #[cfg(test)]
    pub(crate) fn has_direct_path(&self) -> bool {
        self.direct.is_some()
    }

    /// The limits requests are read under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    async fn exchange(
        &self,
        request: reqwest::RequestBuilder,
        listing: Listing,
    ) -> Result<Received, CutOff> {
        let start = Instant::now();
        let response = request.send().await.map_err(failed)?;
        self.read_body(response, start, listing).await
    }

    /// Reads a response that has arrived (its head) within the limits:
    /// the timeout runs from `start`, when its request was sent.
    pub async fn read(
        &self,
        response: reqwest::Response,
        start: Instant,
    ) -> Result<Received, CutOff> {
        let limit = self.limits.request_timeout.saturating_sub(start.elapsed());
        match tokio::time::timeout(limit, self.read_body(response, start, Listing::Headers)).await {
            Ok(result) => result,
            Err(_) => Err(CutOff::Timeout(self.limits.request_timeout)),
        }
    }

    async fn read_body(
        &self,
        mut response: reqwest::Response,
        start: Instant,
        listing: Listing,
    ) -> Result<Received, CutOff> {
        let ack = start.elapsed();
        let cap = self.limits.max_response_bytes;
        if response.content_length().is_some_and(|n| n > cap as u64) {
            return Err(CutOff::TooLarge(cap));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(failed)? {
            if body.len() + chunk.len() > cap {
                return Err(CutOff::TooLarge(cap));
            }
            body.extend_from_slice(&chunk);
        }
        let status = response.status().as_u16();
        let headers = response.headers();
        crate::transport_body::collected(status, headers, body, ack, start, cap, listing)
    }
}

/// The client settings both clients share: redirects (none, or the
/// provider's own origin), the connect timeout, kept-alive connections.
fn builder(limits: &Limits) -> reqwest::ClientBuilder {
    let redirects = if limits.follow_redirects {
        // Only on the provider's own origin, at most 5 hops: a redirect
        // elsewhere is the answer judged, and `--header` values (which
        // reqwest would carry along) never reach another host.
        reqwest::redirect::Policy::custom(|attempt| {
            let origin = attempt.previous().first().map(reqwest::Url::origin);
            if attempt.previous().len() > 5 || origin != Some(attempt.url().origin()) {
                attempt.stop()
            } else {
                attempt.follow()
            }
        })
    } else {
        reqwest::redirect::Policy::none()
    };
    reqwest::Client::builder()
        .redirect(redirects)
        .connect_timeout(limits.request_timeout)
        .pool_max_idle_per_host(16)
}

/// A transport error as a cut-off, naming the kind of failure (reqwest's
/// text carries the URL but never request headers, so no token leaks).
pub(crate) fn failed(err: reqwest::Error) -> CutOff {
    let mut text = err.to_string();
    if let Some(cause) = std::error::Error::source(&err) {
        chain(&mut text, cause);
    }
    CutOff::Failed(text)
}

/// Appends `: CAUSE` for the error and each of its sources.
pub(crate) fn chain(text: &mut String, err: &dyn std::error::Error) {
    let mut next = Some(err);
    while let Some(e) = next {
        text.push_str(": ");
        text.push_str(&e.to_string());
        next = e.source();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_never_builds_the_tls_client_and_https_builds_it_once() {
        let transport = Transport::new(Limits::default()).expect("a client");
        let _ = transport.client_for("http://127.0.0.1:1/items");
        let _ = transport.client_for("HTTP://127.0.0.1:1/items");
        assert!(transport.full.get().is_none(), "roots loaded for http");
        let copy = transport.clone();
        let _ = transport.client_for("https://127.0.0.1:1/items");
        assert!(copy.full.get().is_some(), "a clone shares the TLS client");
    }
}
