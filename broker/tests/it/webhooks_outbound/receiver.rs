//! A tiny HTTP answerer on loopback for the outbound tests: it records
//! what it received and answers as told (or never, or forever).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How the receiver answers.
#[derive(Debug, Clone)]
pub enum Answer {
    /// `200 OK` with this body.
    Ok(&'static str),
    /// `302 Found` to this location.
    Redirect(String),
    /// Reads the request and never answers.
    Silent,
    /// `200 OK` with a body that never ends.
    Endless,
}

/// A running receiver: its address and the request heads it got.
pub struct Receiver {
    pub addr: SocketAddr,
    received: Arc<Mutex<Vec<String>>>,
}

impl Receiver {
    /// Listens on 127.0.0.1, a free port, answering every connection.
    pub async fn start(answer: Answer) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, answer.clone(), log.clone()));
            }
        });
        Receiver { addr, received }
    }

    /// The requests received so far (head and body as text).
    pub fn received(&self) -> Vec<String> {
        self.received.lock().expect("log").clone()
    }

    pub fn url(&self, scheme_host: &str) -> String {
        format!("{scheme_host}:{}/hook", self.addr.port())
    }
}

async fn serve(mut stream: TcpStream, answer: Answer, log: Arc<Mutex<Vec<String>>>) {
    let request = read_request(&mut stream).await;
    log.lock().expect("log").push(request);
    let head = |status: &str, extra: &str, body: &str| {
        format!(
            "HTTP/1.1 {status}\r\ncontent-length: {}\r\nx-receiver: yes\r\n{extra}connection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let _ = match answer {
        Answer::Ok(body) => stream.write_all(head("200 OK", "", body).as_bytes()).await,
        Answer::Redirect(to) => {
            let extra = format!("location: {to}\r\n");
            stream
                .write_all(head("302 Found", &extra, "").as_bytes())
                .await
        }
        Answer::Silent => {
            std::future::pending::<()>().await;
            Ok(())
        }
        Answer::Endless => endless(&mut stream).await,
    };
}

async fn endless(stream: &mut TcpStream) -> std::io::Result<()> {
    stream
        .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\n")
        .await?;
    let chunk = vec![b'x'; 16 * 1024];
    loop {
        // fails once the client has stopped reading and closed
        stream.write_all(&chunk).await?;
    }
}

/// The request head and as much body as `content-length` says.
async fn read_request(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = stream.read(&mut buf).await {
        bytes.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                })
                .unwrap_or(0);
            if bytes.len() >= end + 4 + length {
                return text;
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
