//! The connection under the HTTP server: what actix-http answers by
//! itself, before any application code runs — a request line or header
//! block that is not HTTP/1.1 (400), a head over its size limit (431), a
//! head that never ended (408), a dispatcher failure (500) — leaves with an
//! empty body and no hook. [`ProblemIo`] wraps each accepted socket and
//! rewrites exactly those answers, as they are written, into the broker's
//! one error shape (`BrokerError`, problem+json).
//!
//! They are recognised by what only the dispatcher writes: one of those
//! statuses with `content-length: 0` and no `content-type`, at the start of
//! a write. Every answer of the application carries a body and a content
//! type (`negotiate` sees to that), so nothing else is touched.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::ResponseError;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::{BrokerError, FieldError};

/// A socket whose dispatcher-made error answers are rewritten.
#[derive(Debug)]
pub struct ProblemIo<T> {
    inner: T,
    /// The rewritten answer being written, how much of it is out, and how
    /// many bytes of the caller's buffer it stands for.
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl<T> ProblemIo<T> {
    /// Wraps an accepted connection.
    pub fn new(inner: T) -> Self {
        ProblemIo {
            inner,
            replacing: None,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for ProblemIo<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ProblemIo<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.replacing.is_none()
            && let Some((bytes, consumed)) = rewrite(buf)
        {
            this.replacing = Some((bytes, 0, consumed));
        }
        let Some((bytes, written, consumed)) = this.replacing.as_mut() else {
            return Pin::new(&mut this.inner).poll_write(cx, buf);
        };
        while *written < bytes.len() {
            match Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        let consumed = *consumed;
        this.replacing = None;
        Poll::Ready(Ok(consumed))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The problem+json answer for a dispatcher-made one at the start of
/// `buf`, and how many bytes of `buf` that answer was; `None` for anything
/// else.
fn rewrite(buf: &[u8]) -> Option<(Vec<u8>, usize)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let rest = status_line.strip_prefix("HTTP/1.1 ")?;
    let status: u16 = rest.get(..3)?.parse().ok()?;
    let headers: Vec<String> = lines.map(str::to_ascii_lowercase).collect();
    let empty = headers.iter().any(|h| h == "content-length: 0");
    let typed = headers.iter().any(|h| h.starts_with("content-type:"));
    let detail = match status {
        400 => {
            "the request is not valid HTTP/1.1: its request line, a header or its framing could not be read"
        }
        408 => "the request line and headers did not arrive in time",
        431 => "the request line and headers are larger than the broker accepts",
        500 => "the connection failed while the request was read",
        _ => return None,
    };
    if !empty || typed {
        return None;
    }
    let error = BrokerError::Http {
        status,
        detail: detail.to_owned(),
        errors: match status {
            400 | 431 => vec![FieldError::new("request", detail)],
            _ => Vec::new(),
        },
    };
    let body = error.body().to_string();
    let mut out = format!(
        "{status_line}\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        crate::error::PROBLEM_JSON,
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body.as_bytes());
    debug_assert_eq!(error.status_code().as_u16(), status);
    Some((out, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dispatchers_empty_400_becomes_a_problem() {
        let actix = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\ndate: x\r\n\r\n";
        let (bytes, consumed) = rewrite(actix).expect("rewritten");
        assert_eq!(consumed, actix.len());
        let text = String::from_utf8(bytes).expect("text");
        assert!(text.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{text}");
        assert!(
            text.contains("content-type: application/problem+json"),
            "{text}"
        );
        let body = text.split("\r\n\r\n").nth(1).expect("body");
        let json: serde_json::Value = serde_json::from_str(body).expect("json");
        assert_eq!(json["status"], 400);
        assert!(json["errors"]["request"].is_array());
    }

    #[test]
    fn answers_of_the_application_are_left_alone() {
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\ncontent-type: application/problem+json\r\n\r\n{\"x\":\"yyy\"}";
        assert!(rewrite(ours).is_none());
        let ok = b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n";
        assert!(rewrite(ok).is_none());
        let typed_empty =
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\ncontent-length: 0\r\n\r\n";
        assert!(rewrite(typed_empty).is_none());
    }

    #[test]
    fn only_the_head_is_claimed_when_more_follows() {
        let actix =
            b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\nMORE";
        let (_, consumed) = rewrite(actix).expect("rewritten");
        assert_eq!(&actix[consumed..], b"MORE");
    }
}
