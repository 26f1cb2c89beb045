//! A small real HTTP provider for `pact verifier`: a std `TcpListener` on an
//! ephemeral loopback port, one thread per connection, one request per
//! connection (`Connection: close`). It serves an order API and a
//! provider-state endpoint, and records every state-change call so a test
//! can check the verifier set the states up.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// Path of the provider-state endpoint (`--state-change-url`).
pub const STATE_PATH: &str = "/provider-states";

/// A running provider; stops accepting on drop.
pub struct Provider {
    pub port: u16,
    states: Arc<Mutex<Vec<Value>>>,
    stop: Arc<AtomicBool>,
}

impl Provider {
    /// Starts the provider on 127.0.0.1 and an ephemeral port.
    pub fn start() -> Provider {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the provider");
        let port = listener.local_addr().expect("provider address").port();
        let states = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (seen, stopping) = (states.clone(), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    let seen = seen.clone();
                    std::thread::spawn(move || serve(stream, &seen));
                }
            }
        });
        Provider { port, states, stop }
    }

    /// The `--state-change-url` for the verifier.
    pub fn state_change_url(&self) -> String {
        format!("http://127.0.0.1:{}{STATE_PATH}", self.port)
    }

    /// Bodies of the state-change calls received so far.
    pub fn state_calls(&self) -> Vec<Value> {
        self.states.lock().expect("state log").clone()
    }

    /// Forgets the state-change calls received so far.
    pub fn clear_state_calls(&self) {
        self.states.lock().expect("state log").clear();
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// One request: method, path (without query) and body.
struct Request {
    method: String,
    path: String,
    body: Vec<u8>,
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let raw = crate::support::read_raw_request(stream)?;
    let path = raw.target.split('?').next().unwrap_or_default().to_owned();
    Some(Request {
        method: raw.method,
        path,
        body: raw.body,
    })
}

/// The provider's behaviour: what a real order service would answer.
fn respond(request: &Request, states: &Mutex<Vec<Value>>) -> (u16, Value) {
    match (request.method.as_str(), request.path.as_str()) {
        ("POST", STATE_PATH) => {
            let body = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
            states.lock().expect("state log").push(body);
            (200, json!({}))
        }
        ("GET", "/orders/1") => (
            200,
            json!({ "id": 1, "status": "shipped", "items": ["book"] }),
        ),
        ("GET", _) if request.path.starts_with("/orders/") => {
            (404, json!({ "error": "no such order" }))
        }
        _ => (404, json!({ "error": "no such route" })),
    }
}

fn serve(mut stream: TcpStream, states: &Mutex<Vec<Value>>) {
    let Some(request) = read_request(&stream) else {
        return;
    };
    let (status, body) = respond(&request, states);
    let body = body.to_string();
    let reason = if status == 200 { "OK" } else { "Not Found" };
    let _ = write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.flush();
}
