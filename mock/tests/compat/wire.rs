//! The consumer's HTTP client: a request of the model sent to the mock as
//! bytes on the wire (reqwest, blocking), and what came back.

use std::time::Duration;

use accord_dsl::model::{HttpRequest, body_to_bytes};
use reqwest::blocking::Client;

/// What the consumer got back.
#[derive(Debug)]
pub struct Received {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Received {
    /// The first value of a header (the name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One client for the run (its connection pool outlives the mocks; each
/// mock has its own port).
pub fn client() -> Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("a reqwest client builds without TLS roots")
}

/// Sends `req` to the mock at `base`: each header value on a line of its
/// own, the query in its order, the body's bytes with its content type.
pub fn send(client: &Client, base: &str, req: &HttpRequest) -> Result<Received, String> {
    let method = reqwest::Method::from_bytes(req.method.to_ascii_uppercase().as_bytes())
        .map_err(|e| format!("method {:?}: {e}", req.method))?;
    let mut url = reqwest::Url::parse(&format!("{base}{}", req.path))
        .map_err(|e| format!("{base}{}: {e}", req.path))?;
    if let Some(query) = req.query.as_ref().filter(|q| !q.is_empty()) {
        let mut pairs = url.query_pairs_mut();
        for (name, values) in query {
            for value in values {
                pairs.append_pair(name, value);
            }
        }
    }
    let mut b = client.request(method, url);
    let mut typed = false;
    for (name, values) in req.headers.iter().flatten() {
        typed |= name.eq_ignore_ascii_case("content-type");
        for value in values {
            b = b.header(name.as_str(), value.as_str());
        }
    }
    if let Some((bytes, content_type)) = body_to_bytes(&req.body) {
        if let (false, Some(ct)) = (typed, content_type) {
            b = b.header("Content-Type", ct);
        }
        b = b.body(bytes);
    }
    let r = b.send().map_err(|e| format!("the request failed: {e}"))?;
    let status = r.status().as_u16();
    let headers = r
        .headers()
        .iter()
        .map(|(n, v)| {
            let value = String::from_utf8_lossy(v.as_bytes()).into_owned();
            (n.as_str().to_owned(), value)
        })
        .collect();
    let body = r
        .bytes()
        .map_err(|e| format!("the response body could not be read: {e}"))?
        .to_vec();
    Ok(Received {
        status,
        headers,
        body,
    })
}
