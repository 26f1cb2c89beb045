//! A raw HTTP/1.1 client over a TCP socket, for requests no well-behaved
//! client sends: `..` and `%2F` kept in the path (a URL library would
//! resolve them), lying or missing lengths, bytes that are not UTF-8, a
//! bad request line, a body that never arrives.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A reply read off the socket.
#[derive(Debug)]
pub struct RawReply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawReply {
    /// The value of header `name` (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON (Null when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// The body as lossy text, for messages.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// How the body travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `Content-Length` with the true length.
    Length,
    /// `Transfer-Encoding: chunked`, in 8 KiB chunks.
    Chunked,
}

/// One request: method, raw target (path and query, sent byte for byte),
/// headers, body.
#[derive(Debug, Clone)]
pub struct RawRequest {
    pub method: String,
    pub target: Vec<u8>,
    pub headers: Vec<(String, String)>,
    pub body: Option<(Vec<u8>, Framing)>,
}

impl RawRequest {
    /// `method target` with no headers and no body.
    pub fn new(method: &str, target: impl Into<Vec<u8>>) -> RawRequest {
        RawRequest {
            method: method.into(),
            target: target.into(),
            headers: Vec::new(),
            body: None,
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> RawRequest {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Sets the body and how it is framed.
    pub fn body(mut self, bytes: impl Into<Vec<u8>>, framing: Framing) -> RawRequest {
        self.body = Some((bytes.into(), framing));
        self
    }

    /// The bytes on the wire.
    pub fn encode(&self, host: &str) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(self.method.as_bytes());
        out.push(b' ');
        out.extend_from_slice(&self.target);
        out.extend_from_slice(b" HTTP/1.1\r\n");
        out.extend_from_slice(format!("Host: {host}\r\nConnection: close\r\n").as_bytes());
        for (n, v) in &self.headers {
            out.extend_from_slice(format!("{n}: {v}\r\n").as_bytes());
        }
        match &self.body {
            None => out.extend_from_slice(b"\r\n"),
            Some((bytes, Framing::Length)) => {
                out.extend_from_slice(
                    format!("Content-Length: {}\r\n\r\n", bytes.len()).as_bytes(),
                );
                out.extend_from_slice(bytes);
            }
            Some((bytes, Framing::Chunked)) => {
                out.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
                for chunk in bytes.chunks(8192) {
                    out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                    out.extend_from_slice(chunk);
                    out.extend_from_slice(b"\r\n");
                }
                out.extend_from_slice(b"0\r\n\r\n");
            }
        }
        out
    }
}

/// Sends `bytes` to `addr` (`host:port`) and reads the reply until the
/// server closes the connection. A server that answers early and closes
/// while the body is still being written is fine: the reply is read anyway.
pub fn exchange(addr: &str, bytes: &[u8]) -> std::io::Result<RawReply> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    // a server may refuse early (413) and close: a failed write is not the end
    let _ = stream.write_all(bytes);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse(&raw)
}

/// Sends `request` to `addr`.
pub fn send(addr: &str, request: &RawRequest) -> RawReply {
    let bytes = request.encode(addr);
    exchange(addr, &bytes).unwrap_or_else(|e| {
        panic!(
            "{} {}: {e}",
            request.method,
            String::from_utf8_lossy(&request.target)
        )
    })
}

/// Parses a whole HTTP/1.1 response (content-length, chunked or until close).
pub fn parse(raw: &[u8]) -> std::io::Result<RawReply> {
    let bad = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_owned());
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad(&format!("no complete head in {} bytes", raw.len())))?;
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(&format!("status line {status_line:?}")))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let rest = &raw[end + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    Ok(RawReply {
        status,
        headers,
        body,
    })
}

fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&rest[..eol])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = eol + 2;
        let stop = (start + size).min(rest.len());
        body.extend_from_slice(&rest[start..stop]);
        rest = rest.get(stop + 2..).unwrap_or(&[]);
    }
    body
}
