//! The direct path for plain `http://` requests: hyper's HTTP/1.1 client
//! connection, kept alive and reused (one per lane in flight: a lane takes
//! an idle connection, sends, reads the whole answer and gives it back),
//! without reqwest's layers (request builder, redirect and retry services,
//! pool checkout, URL re-parse), which cost more CPU per request than the
//! loopback send itself.
//!
//! It behaves as the reqwest client of [`crate::transport`] does for the
//! requests it takes: the same connector settings (hyper-util's
//! `HttpConnector`: resolver, happy eyeballs, `TCP_NODELAY`, keep-alive
//! probes, the connect timeout), the same headers in the same order
//! (`accept: */*` and `host` added when absent), the same default HTTP/1
//! settings, the same retry (a request a reused connection closed before
//! sending it goes out once more on another connection), at most 16 idle
//! connections per origin dropped after 90 s idle, and errors worded as
//! reqwest words them. The caller's timeout and size cap apply as on the
//! reqwest path. Redirect following, proxies, credentials in the URL and
//! headers reqwest would refuse stay on reqwest ([`prepare`] says no).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Incoming};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST, HeaderName, HeaderValue};
use hyper::{HeaderMap, Request, Response, Uri};
use hyper_util::client::legacy::connect::HttpConnector;
use tower_service::Service;

use crate::hot::Hot;
use crate::transport::{CutOff, Listing, Outgoing, Received, chain};
use crate::transport_body::collected;

/// reqwest's `pool_max_idle_per_host` as [`crate::transport`] sets it.
const MAX_IDLE_PER_ORIGIN: usize = 16;
/// reqwest's default `pool_idle_timeout`.
const IDLE_TIMEOUT: Duration = Duration::from_secs(90);
/// reqwest's default TCP keep-alive probes: after 15 s idle, every 15 s,
/// 3 unanswered ones close the connection.
const KEEPALIVE: Duration = Duration::from_secs(15);
const KEEPALIVE_RETRIES: u32 = 3;

/// The kept-alive connections of one transport, and how to make more.
#[derive(Debug)]
pub(crate) struct Direct {
    connector: HttpConnector,
    idle: Mutex<Vec<Conn>>,
    /// The last `Host` value written, with the host and port it is for: a
    /// run sends to one origin or a few, so it is written once, not per
    /// request (a clone shares its bytes).
    host: Mutex<Option<(String, Option<u16>, HeaderValue)>>,
    /// Whether a wait for an answer spins before it sleeps.
    hot: Hot,
}

/// A connection to an `http://` origin (host as the URL writes it, and
/// port); `since` is when it last went idle.
#[derive(Debug)]
struct Conn {
    host: String,
    port: u16,
    sender: SendRequest<Full<Bytes>>,
    since: Instant,
}

impl Conn {
    fn to(&self, host: &str, port: u16) -> bool {
        self.port == port && self.host == host
    }
}

/// A request ready for the direct path, and the port it goes to (the host
/// is its URL's).
pub(crate) struct Prepared {
    request: Request<Full<Bytes>>,
    port: u16,
}

impl Direct {
    /// The connector set as reqwest sets its own.
    pub(crate) fn new(connect_timeout: Duration) -> Direct {
        let mut connector = HttpConnector::new();
        connector.set_connect_timeout(Some(connect_timeout));
        connector.set_nodelay(true);
        connector.set_keepalive(Some(KEEPALIVE));
        connector.set_keepalive_interval(Some(KEEPALIVE));
        connector.set_keepalive_retries(Some(KEEPALIVE_RETRIES));
        Direct {
            connector,
            idle: Mutex::new(Vec::new()),
            host: Mutex::new(None),
            hot: Hot::new(),
        }
    }

    /// The `Host` value for `host` and `port` ([`host_value`]), the last
    /// one reused when it is for the same.
    fn host_header(&self, host: &str, port: Option<u16>) -> Option<HeaderValue> {
        if let Ok(last) = self.host.lock()
            && let Some((h, p, value)) = last.as_ref()
            && *p == port
            && h == host
        {
            return Some(value.clone());
        }
        let value = host_value(host, port)?;
        if let Ok(mut last) = self.host.lock() {
            *last = Some((host.to_owned(), port, value.clone()));
        }
        Some(value)
    }

    /// Spins for answers only when `threads` threads of the run leave a
    /// core free ([`Hot`]).
    pub(crate) fn leave_a_core(&self, threads: usize) {
        self.hot.leave_a_core(threads);
    }

    /// Sends the request to `url` (what [`prepare`] made of it) and reads
    /// its whole answer, the body capped at `cap` bytes; the connection
    /// goes back to the idle ones after.
    pub(crate) async fn exchange(
        &self,
        prepared: Prepared,
        url: &reqwest::Url,
        start: Instant,
        cap: usize,
        listing: Listing,
    ) -> Result<Received, CutOff> {
        let Prepared { mut request, port } = prepared;
        let host = url.host_str().unwrap_or_default();
        loop {
            let (mut conn, reused) = self.connection(host, port, url).await?;
            match self.hot.wait(conn.sender.try_send_request(request)).await {
                Ok(response) => {
                    let received = read(response, start, cap, listing).await?;
                    self.put_back(conn);
                    return Ok(received);
                }
                Err(mut err) => match err.take_message() {
                    // never sent: a kept-alive connection closed under it
                    Some(unsent) if reused => request = unsent,
                    unsent => {
                        let kind = if unsent.is_some() {
                            "Canceled"
                        } else {
                            "SendRequest"
                        };
                        return Err(sending(url, kind, &err.into_error()));
                    }
                },
            }
        }
    }

    /// An idle connection to the origin that is still open, else a new
    /// one; and whether it was reused.
    async fn connection(
        &self,
        host: &str,
        port: u16,
        url: &reqwest::Url,
    ) -> Result<(Conn, bool), CutOff> {
        while let Some(mut conn) = self.take_idle(host, port) {
            if conn.sender.ready().await.is_ok() {
                return Ok((conn, true));
            }
        }
        self.connect(host, port, url).await.map(|c| (c, false))
    }

    /// The most recently used idle connection to the origin; those idle
    /// past the timeout, or closed, are dropped on the way.
    fn take_idle(&self, host: &str, port: u16) -> Option<Conn> {
        let mut idle = self.idle.lock().ok()?;
        idle.retain(|c| c.since.elapsed() < IDLE_TIMEOUT && !c.sender.is_closed());
        let at = idle.iter().rposition(|c| c.to(host, port))?;
        Some(idle.remove(at))
    }

    fn put_back(&self, mut conn: Conn) {
        if conn.sender.is_closed() {
            return;
        }
        let Ok(mut idle) = self.idle.lock() else {
            return;
        };
        let same = idle.iter().filter(|c| c.to(&conn.host, conn.port)).count();
        if same < MAX_IDLE_PER_ORIGIN {
            conn.since = Instant::now();
            idle.push(conn);
        }
    }

    /// A new connection, its dispatcher spawned on the current runtime.
    async fn connect(&self, host: &str, port: u16, url: &reqwest::Url) -> Result<Conn, CutOff> {
        let failed = |e: &dyn std::error::Error| sending(url, "Connect", e);
        // the origin as hyper-util's pool keys it: scheme and authority
        let origin = &url.as_str()[..authority_end(url)];
        let dst: Uri = origin.parse().map_err(|e| failed(&e))?;
        let mut connector = self.connector.clone();
        std::future::poll_fn(|cx| connector.poll_ready(cx))
            .await
            .map_err(|e| failed(&e))?;
        let io = connector.call(dst).await.map_err(|e| failed(&e))?;
        let (mut sender, connection) = http1::Builder::new()
            .handshake(io)
            .await
            .map_err(|e| failed(&e))?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("client connection error: {e:?}");
            }
        });
        sender.ready().await.map_err(|e| failed(&e))?;
        Ok(Conn {
            host: host.to_string(),
            port,
            sender,
            since: Instant::now(),
        })
    }
}

/// True when the environment names a proxy for plain HTTP (the variables
/// reqwest reads): such requests then go through reqwest, which uses it.
pub(crate) fn proxy_in_environment() -> bool {
    ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

/// Where the path starts in an `http://` URL without credentials: the
/// first `/` after the scheme (an authority holds none).
fn authority_end(url: &reqwest::Url) -> usize {
    let text = url.as_str();
    let after_scheme = "http://".len();
    text.get(after_scheme..)
        .and_then(|rest| rest.find('/'))
        .map_or(text.len(), |at| after_scheme + at)
}

/// The request for the direct path, its body taken from `out`; or `None`
/// (`out` untouched) where reqwest must send it: a URL that is not plain
/// `http://` with a host, that carries credentials (reqwest turns them
/// into basic auth) or a fragment, a target reqwest could not make a URI
/// of, or a header reqwest would refuse (it reports the request as failed
/// in its own words).
pub(crate) fn prepare(direct: &Direct, out: &mut Outgoing<'_>) -> Option<Prepared> {
    let url = out.url.as_ref().ok()?;
    let plain = url.scheme() == "http" && url.username().is_empty() && url.password().is_none();
    if !plain || url.fragment().is_some() {
        return None;
    }
    let host = url.host_str()?;
    let port = url.port_or_known_default()?;
    // origin form: path and query, as hyper-util sends it
    let uri: Uri = url.as_str().get(authority_end(url)..)?.parse().ok()?;
    let mut headers = HeaderMap::with_capacity(out.headers.len() + 4);
    for (name, value) in &out.headers {
        let name = HeaderName::from_bytes(name.as_bytes()).ok()?;
        headers.append(name, HeaderValue::from_str(value).ok()?);
    }
    if let Some(token) = out.bearer {
        let mut value = HeaderValue::try_from(format!("Bearer {token}")).ok()?;
        value.set_sensitive(true);
        headers.append(AUTHORIZATION, value);
    }
    if let Some(content_type) = &out.content_type {
        headers.append(CONTENT_TYPE, HeaderValue::from_str(content_type).ok()?);
    }
    // reqwest's default header, then hyper-util's Host (non-default port)
    headers
        .entry(ACCEPT)
        .or_insert(HeaderValue::from_static("*/*"));
    if !headers.contains_key(HOST) {
        headers.insert(HOST, direct.host_header(host, url.port())?);
    }
    let body = out.body.take().map(Bytes::from).unwrap_or_default();
    let mut request = Request::new(Full::new(body));
    *request.method_mut() = out.method.clone();
    *request.uri_mut() = uri;
    *request.headers_mut() = headers;
    Some(Prepared { request, port })
}

/// The `Host` value hyper-util writes: the URL's host, then `:port` when
/// the URL names a port (not its scheme's default). Written digit by digit
/// into a string of its exact length, which becomes the value's bytes
/// without a copy (`format!` cost more than the rest of the headers).
pub(crate) fn host_value(host: &str, port: Option<u16>) -> Option<HeaderValue> {
    let digits = port.map_or(0, |p| p.checked_ilog10().unwrap_or(0) as usize + 1);
    let mut text = String::with_capacity(host.len() + usize::from(port.is_some()) + digits);
    text.push_str(host);
    if let Some(p) = port {
        text.push(':');
        let mut divisor = 10u16.pow(digits as u32 - 1);
        while divisor > 0 {
            text.push(char::from(b'0' + (p / divisor % 10) as u8));
            divisor /= 10;
        }
    }
    HeaderValue::try_from(text).ok()
}

/// Reads the answer under the cap, as the reqwest path reads its own.
async fn read(
    response: Response<Incoming>,
    start: Instant,
    cap: usize,
    listing: Listing,
) -> Result<Received, CutOff> {
    let ack = start.elapsed();
    let (parts, mut body) = response.into_parts();
    if body.size_hint().exact().is_some_and(|n| n > cap as u64) {
        return Err(CutOff::TooLarge(cap));
    }
    let mut bytes = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            // reqwest's words: its decode error around hyper's
            let mut text = String::from("error decoding response body");
            chain(&mut text, &e);
            CutOff::Failed(text)
        })?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > cap {
                return Err(CutOff::TooLarge(cap));
            }
            bytes.extend_from_slice(&data);
        }
    }
    collected(
        parts.status.as_u16(),
        &parts.headers,
        bytes,
        ack,
        start,
        cap,
        listing,
    )
}

/// A request that failed before its answer, worded as reqwest words it:
/// the URL, hyper-util's kind of client error, then the causes.
fn sending(url: &reqwest::Url, kind: &str, cause: &dyn std::error::Error) -> CutOff {
    let mut text = format!("error sending request for url ({url}): client error ({kind})");
    chain(&mut text, cause);
    CutOff::Failed(text)
}

#[cfg(test)]
#[path = "transport_h1_tests.rs"]
pub(crate) mod tests;
