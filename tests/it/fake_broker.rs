//! A tiny HTTP server on loopback for broker behaviours `accord serve`
//! does not have: an older Pact Broker's index, transient failures,
//! refused publications. Every request is recorded; a handler decides each
//! answer from the request and how often that method and path came before.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: String,
}

/// One answer.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    /// A HAL+JSON answer.
    pub fn json(status: u16, body: &Value) -> Response {
        Response {
            status,
            headers: vec![],
            body: body.to_string(),
        }
    }

    /// A bare status (a gateway error, a 404).
    pub fn status(status: u16) -> Response {
        Response {
            status,
            headers: vec![],
            body: String::new(),
        }
    }
}

/// Decides an answer: `(base URL, request, earlier requests with the same method and path)`.
pub type Handler = dyn Fn(&str, &Request, usize) -> Response + Send + Sync;

/// A running fake; stops accepting on drop.
#[derive(Debug)]
pub struct FakeBroker {
    pub url: String,
    log: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
}

impl FakeBroker {
    /// Starts the fake on an ephemeral loopback port.
    pub fn start(
        handler: impl Fn(&str, &Request, usize) -> Response + Send + Sync + 'static,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (base, log2, stop2) = (url.clone(), log.clone(), stop.clone());
        let handler: Box<Handler> = Box::new(handler);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    serve(stream, &base, &log2, &*handler);
                }
            }
        });
        FakeBroker { url, log, stop }
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.log.lock().expect("log").clone()
    }

    /// How many `method path` requests came.
    pub fn count(&self, method: &str, path: &str) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.method == method && r.path == path)
            .count()
    }
}

impl Drop for FakeBroker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
    }
}

fn serve(stream: TcpStream, base: &str, log: &Mutex<Vec<Request>>, handler: &Handler) {
    let Some(request) = read_request(&stream) else {
        return;
    };
    let earlier = {
        let mut log = log.lock().expect("log");
        let n = log
            .iter()
            .filter(|r| r.method == request.method && r.path == request.path)
            .count();
        log.push(request.clone());
        n
    };
    let response = handler(base, &request, earlier);
    let mut head = format!(
        "HTTP/1.1 {} Fake\r\nContent-Type: application/hal+json\r\nContent-Length: {}\r\nConnection: close\r\n",
        response.status,
        response.body.len()
    );
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut stream = stream;
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(response.body.as_bytes());
    let _ = stream.flush();
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let raw = crate::support::read_raw_request(stream)?;
    Some(Request {
        method: raw.method,
        path: raw.target,
        body: String::from_utf8_lossy(&raw.body).into_owned(),
    })
}
