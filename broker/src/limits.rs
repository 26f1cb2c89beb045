//! Bounds on what one request may cost: a body declared over the limit is
//! refused before it is read (413), and a body must keep arriving (408), so
//! a client that announces a body and never sends it, or trickles it,
//! holds its connection for seconds, not for ever. Both answers close the
//! connection. (The request head has its own timeout, actix's
//! `client_request_timeout`, set in `server.rs`.)
//!
//! "Keep arriving": from the first read of the body (not from the request's
//! arrival: waiting for a database connection does not count), a body may
//! take the body timeout plus one second per [`MIN_RATE`] bytes received.
//! A large upload at any real speed gets the time it needs; a client that
//! sends nothing is cut off after the timeout, and one that trickles is cut
//! off as soon as it falls below the rate.

use std::cell::{Cell, RefCell};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::HttpMessage;
use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::{ConnectionType, header};
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes};
use futures_core::Stream;

use crate::error::BrokerError;
use crate::state::AppState;

/// The slowest body rate kept alive past the body timeout, in bytes per
/// second.
pub const MIN_RATE: u64 = 16 * 1024;

/// What actix's `Payload` wraps.
type BoxedStream = Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>>;

/// Where a body that was not read to its end is kept until the answer is
/// sent (see [`Holding`]).
type Unread = Rc<RefCell<Option<Payload>>>;

/// A request body stream that fails once its deadline has passed. Dropped
/// before the end of the body (an extractor gave up, a middleware answered
/// first), it leaves the rest of the body in `unread`.
struct Deadline {
    inner: Option<Payload>,
    timeout: Duration,
    /// When the body was first read, and the timer then armed.
    started: Option<tokio::time::Instant>,
    sleep: Pin<Box<tokio::time::Sleep>>,
    received: u64,
    expired: Rc<Cell<bool>>,
    finished: bool,
    unread: Unread,
}

impl Deadline {
    /// The instant the body is late, given what has arrived.
    fn due(&self, started: tokio::time::Instant) -> tokio::time::Instant {
        started
            + self.timeout
            + Duration::from_millis(self.received.saturating_mul(1000) / MIN_RATE)
    }
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        let started = *this.started.get_or_insert_with(tokio::time::Instant::now);
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(None);
        };
        if let Poll::Ready(item) = Pin::new(inner).poll_next(cx) {
            match &item {
                None => this.finished = true,
                Some(Ok(chunk)) => this.received += chunk.len() as u64,
                Some(Err(_)) => {}
            }
            return Poll::Ready(item);
        }
        let due = this.due(started);
        if this.sleep.deadline() != due {
            this.sleep.as_mut().reset(due);
        }
        if this.sleep.as_mut().poll(cx).is_ready() {
            this.expired.set(true);
            let late = std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the request body did not arrive in time",
            );
            return Poll::Ready(Some(Err(PayloadError::Io(late))));
        }
        Poll::Pending
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        if !self.finished {
            *self.unread.borrow_mut() = self.inner.take();
        }
    }
}

/// A response body that keeps the unread rest of the request body alive
/// until the answer is written. actix drains a chunked body that nobody
/// holds (for as long as the client keeps sending: a slowloris); one still
/// held counts as unread, and actix closes the connection after the answer
/// (lingering at most `client_disconnect_timeout`).
struct Holding {
    body: BoxBody,
    _unread: Payload,
}

impl MessageBody for Holding {
    type Error = <BoxBody as MessageBody>::Error;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_next(cx)
    }
}

/// The middleware: the declared length, then the deadline.
pub async fn middleware(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let wants = crate::negotiate::Wants::of(&req);
    let (limit, timeout) = req
        .app_data::<web::Data<AppState>>()
        .map(|s| (s.config.body_limit, s.config.body_timeout))
        .unwrap_or((
            crate::config::DEFAULT_BODY_LIMIT,
            crate::config::DEFAULT_BODY_TIMEOUT,
        ));
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit as u64) {
        let refused = req.error_response(BrokerError::PayloadTooLarge { limit });
        return Ok(closing(crate::negotiate::present(refused, wants).await));
    }
    let expired = Rc::new(Cell::new(false));
    let unread: Unread = Rc::new(RefCell::new(None));
    if has_body(&req, declared) {
        let stream = Deadline {
            inner: Some(req.take_payload()),
            timeout,
            started: None,
            sleep: Box::pin(tokio::time::sleep(timeout)),
            received: 0,
            expired: expired.clone(),
            finished: false,
            unread: unread.clone(),
        };
        req.set_payload(Payload::from(Box::pin(stream) as BoxedStream));
    }
    let mut res = next.call(req).await?.map_into_boxed_body();
    if expired.get() {
        let (req, _) = res.into_parts();
        let late = BrokerError::RequestTimeout {
            seconds: secs(timeout),
        };
        res = ServiceResponse::new(req, actix_web::ResponseError::error_response(&late));
        res = crate::negotiate::present(res, wants).await;
    }
    let left = unread.borrow_mut().take();
    Ok(match left {
        Some(rest) => closing(res.map_body(|_, body| {
            BoxBody::new(Holding {
                body,
                _unread: rest,
            })
        })),
        None => res,
    })
}

/// True when the request says a body follows (a length above 0, or
/// chunked): `Content-Length: 0` on a GET keeps its connection alive.
fn has_body(req: &ServiceRequest, declared: Option<u64>) -> bool {
    declared.is_some_and(|len| len > 0) || req.headers().contains_key(header::TRANSFER_ENCODING)
}

fn secs(d: Duration) -> u64 {
    d.as_secs().max(1)
}

/// Marks the response so the connection is closed after it: the unread
/// rest of the body is never read.
fn closing(mut res: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    res.response_mut()
        .head_mut()
        .set_connection_type(ConnectionType::Close);
    res
}
