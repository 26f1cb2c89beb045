//! The benches' HTTP client: one kept-alive HTTP/1.1 connection driven by
//! hyper on a current-thread runtime, on the caller's own thread.
//!
//! `reqwest::blocking`, which the benches used before, hands every request
//! to a runtime thread of its own and waits for the answer on a channel:
//! two thread wake-ups per request, measured at 35–80 µs of a heartbeat's
//! p50 on the 2-core machine (more than a third of the floor), all of it
//! counted as the broker's latency. Here nothing leaves the thread, and a
//! request's time ends when the last byte of the answer has arrived: what
//! the caller then does with the body (parse it, check it) is outside.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;

pub struct Client {
    runtime: tokio::runtime::Runtime,
    address: String,
    sender: Option<SendRequest<Full<Bytes>>>,
    /// A new connection for every request (a proxy in front spreads them).
    fresh: bool,
    /// The `authorization` value every request carries, if any.
    authorization: Option<String>,
}

/// A request's status and the whole body of its answer.
pub struct Answer {
    pub status: u16,
    pub body: Bytes,
}

impl Client {
    /// A client of the broker at `base` (`http://host:port`); it connects
    /// at its first request.
    pub fn new(base: &str) -> Client {
        let address = base
            .strip_prefix("http://")
            .expect("an http:// base")
            .trim_end_matches('/')
            .to_owned();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .expect("runtime");
        Client {
            runtime,
            address,
            sender: None,
            fresh: false,
            authorization: None,
        }
    }

    /// Every request of this client carries `Authorization: Bearer token`.
    pub fn bearer(self, token: &str) -> Client {
        Client {
            authorization: Some(format!("Bearer {token}")),
            ..self
        }
    }

    /// Like `new`, but every request opens a connection of its own.
    #[allow(dead_code)] // the replicas bench's; the others keep theirs alive
    pub fn with_fresh_connections(base: &str) -> Client {
        Client {
            fresh: true,
            ..Client::new(base)
        }
    }

    /// Sends `method path` with `headers` (and the client's bearer) and
    /// `body`, on the kept-alive connection (a new one when the broker
    /// closed it, or for each request with `with_fresh_connections`).
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Bytes,
    ) -> Answer {
        let mut request = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", &self.address);
        if let Some(authorization) = &self.authorization {
            request = request.header("authorization", authorization);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(Full::new(body)).expect("request");
        if self.fresh {
            self.sender = None;
        }
        let address = &self.address;
        let held = &mut self.sender;
        self.runtime.block_on(async move {
            if held.as_ref().is_none_or(|s| s.is_closed()) {
                *held = Some(connect(address).await);
            }
            let sender = held.as_mut().expect("connected");
            sender.ready().await.expect("connection ready");
            let response = sender.send_request(request).await.expect("answer");
            let status = response.status().as_u16();
            let body = response
                .into_body()
                .collect()
                .await
                .expect("body")
                .to_bytes();
            Answer { status, body }
        })
    }

    /// The body of `GET path` with `headers`, which must be answered 200
    /// (else the bench stops, quoting the answer's start).
    #[allow(dead_code)] // the matrix, pages and replicas benches'; publish posts
    pub fn get_ok(&mut self, path: &str, headers: &[(&str, &str)]) -> Bytes {
        let answer = self.send("GET", path, headers, Bytes::new());
        assert_eq!(
            answer.status,
            200,
            "{path}: {:.300}",
            String::from_utf8_lossy(&answer.body)
        );
        answer.body
    }
}

async fn connect(address: &str) -> SendRequest<Full<Bytes>> {
    let stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect to the broker");
    stream.set_nodelay(true).expect("nodelay");
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    sender
}
