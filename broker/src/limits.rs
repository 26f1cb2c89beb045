//! Bounds on what one request may cost: a body declared over the limit is
//! refused before it is read (413), and a body must arrive whole within
//! the body timeout (408), so a client that announces a body and never
//! sends it, or trickles it, holds its connection for seconds, not for
//! ever. Both answers close the connection. (The request head has its own
//! timeout, actix's `client_request_timeout`, set in `server.rs`.)

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
    sleep: Pin<Box<tokio::time::Sleep>>,
    expired: Rc<Cell<bool>>,
    finished: bool,
    unread: Unread,
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(None);
        };
        if let Poll::Ready(item) = Pin::new(inner).poll_next(cx) {
            this.finished = item.is_none();
            return Poll::Ready(item);
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
            sleep: Box::pin(tokio::time::sleep(timeout)),
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
