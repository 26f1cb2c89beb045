//! Bounds on what requests may hold, so that slow or large requests cannot
//! stop the mock answering the consumer's test (the broker's slow-client
//! bounds, `broker/src/limits.rs`, applied to the mock's one reader):
//!
//! - **a body must keep arriving**: from its first read, a body may take
//!   the body timeout plus one second per [`MIN_RATE`] bytes received; a
//!   client that announces a body and never sends it, or trickles it, is
//!   answered 408 and its connection closed. (The request head has its own
//!   timeout, actix's `client_request_timeout`, set in `serve.rs`, as are
//!   the keep-alive and the cap on open connections.)
//! - **a body has a size limit** ([`MockOptions::max_body_bytes`]): one
//!   declared larger is refused before it is read, one that grows larger
//!   when it is read: 413.
//! - **all bodies held at once share a budget**
//!   ([`MockOptions::body_budget_bytes`]): a body is charged its declared
//!   length before it is read, or each chunk as it arrives when no length
//!   is declared, and keeps its charge until its answer is built. A body
//!   the budget has no room for is answered 503 with `Retry-After: 1`
//!   (the mock is busy, not the request wrong: the same request may be
//!   sent again). A body that is parsed (JSON) costs several times its
//!   size while its answer is built; the budget counts the bytes read, so
//!   the default budget leaves room for that (see ARCHITECTURE.md).
//!
//! Every refusal closes the connection, and keeps the unread rest of the
//! body until the answer is written: actix drains a body nobody holds for
//! as long as the client keeps sending.
//!
//! [`MockOptions::max_body_bytes`]: crate::MockOptions::max_body_bytes
//! [`MockOptions::body_budget_bytes`]: crate::MockOptions::body_budget_bytes

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::http::{StatusCode, header};
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use futures_util::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The slowest body rate kept alive past the body timeout, in bytes per
/// second (the broker's).
pub(crate) const MIN_RATE: u64 = 16 * 1024;

/// The bytes of request bodies the mock holds at once.
#[derive(Debug)]
pub(crate) struct Budget {
    bytes: Arc<Semaphore>,
    total: usize,
}

impl Budget {
    pub(crate) fn new(total: usize) -> Budget {
        let total = total.min(Semaphore::MAX_PERMITS);
        Budget {
            bytes: Arc::new(Semaphore::new(total)),
            total,
        }
    }

    /// Charges `n` bytes, if the budget has room for them now.
    fn charge(&self, n: usize) -> Option<OwnedSemaphorePermit> {
        let n = u32::try_from(n).ok()?;
        self.bytes.clone().try_acquire_many_owned(n).ok()
    }
}

/// A request body that was read, with its charge on the budget (given back
/// when it is dropped).
#[derive(Debug)]
pub(crate) struct Body {
    pub(crate) bytes: Vec<u8>,
    pub(crate) charge: Option<OwnedSemaphorePermit>,
}

/// Why a body was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Larger than the limit (declared, or as read).
    TooLarge { limit: usize },
    /// It did not keep arriving.
    Late { seconds: u64 },
    /// The budget of bodies held at once has no room for it now.
    Busy { budget: usize },
    /// The connection failed while it was read.
    Broken(String),
}

impl Refused {
    /// The sentence the answer and the report carry.
    pub(crate) fn reason(&self) -> String {
        match self {
            Refused::TooLarge { limit } => {
                format!("the request body is larger than {limit} bytes")
            }
            Refused::Late { seconds } => format!(
                "the request body did not arrive in time ({seconds} s, then {MIN_RATE} bytes a second)"
            ),
            Refused::Busy { budget } => format!(
                "the mock holds {budget} bytes of request bodies at once and has no room for this one now: retry"
            ),
            Refused::Broken(why) => format!("the request body could not be read: {why}"),
        }
    }

    pub(crate) fn status(&self) -> StatusCode {
        match self {
            Refused::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Refused::Late { .. } => StatusCode::REQUEST_TIMEOUT,
            Refused::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Refused::Broken(_) => StatusCode::BAD_REQUEST,
        }
    }
}

/// How a body is read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules<'a> {
    pub(crate) max: usize,
    pub(crate) timeout: Duration,
    pub(crate) budget: &'a Budget,
}

/// Reads the body of `req` from `payload` within `rules`. On a refusal the
/// payload is left as it is (the caller keeps it: [`refusal`]).
pub(crate) async fn read(
    req: &HttpRequest,
    payload: &mut web::Payload,
    rules: Rules<'_>,
) -> Result<Body, Refused> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let too_large = Refused::TooLarge { limit: rules.max };
    let busy = Refused::Busy {
        budget: rules.budget.total,
    };
    let mut charge = match declared {
        Some(len) if len > rules.max as u64 => return Err(too_large),
        Some(0) => None,
        Some(len) => Some(rules.budget.charge(len as usize).ok_or(busy.clone())?),
        None => None,
    };
    let charged_up_front = charge.is_some();
    let mut bytes = Vec::with_capacity(declared.map_or(0, |len| len as usize));
    let started = tokio::time::Instant::now();
    loop {
        let due = started
            + rules.timeout
            + Duration::from_millis((bytes.len() as u64).saturating_mul(1000) / MIN_RATE);
        let chunk = match tokio::time::timeout_at(due, payload.next()).await {
            Err(_) => {
                return Err(Refused::Late {
                    seconds: rules.timeout.as_secs().max(1),
                });
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => return Err(Refused::Broken(e.to_string())),
            Ok(Some(Ok(chunk))) => chunk,
        };
        if bytes.len() + chunk.len() > rules.max {
            return Err(too_large);
        }
        if !charged_up_front {
            let more = rules.budget.charge(chunk.len()).ok_or(busy.clone())?;
            match charge.as_mut() {
                Some(c) => c.merge(more),
                None => charge = Some(more),
            }
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Body { bytes, charge })
}

/// The answer to a refused body: `answer` made to close its connection
/// (with `Retry-After` when the mock was busy), holding the unread rest of
/// the body until it is written.
pub(crate) fn refusal(
    refused: &Refused,
    mut answer: HttpResponse,
    payload: web::Payload,
) -> HttpResponse {
    answer
        .head_mut()
        .set_connection_type(actix_web::http::ConnectionType::Close);
    if matches!(refused, Refused::Busy { .. }) {
        answer
            .headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
    }
    answer.map_body(|_, body| {
        BoxBody::new(Holding {
            body,
            _unread: payload,
        })
    })
}

/// A response body that keeps the unread rest of the request body alive
/// until the answer is written (actix then closes the connection instead
/// of draining it).
struct Holding {
    body: BoxBody,
    _unread: web::Payload,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_charges_until_it_is_spent_and_gets_back_what_is_dropped() {
        let budget = Budget::new(100);
        let a = budget.charge(60).expect("room");
        assert!(budget.charge(60).is_none(), "only 40 left");
        drop(a);
        assert!(budget.charge(100).is_some(), "given back");
    }

    #[test]
    fn each_refusal_has_its_status() {
        assert_eq!(Refused::TooLarge { limit: 1 }.status().as_u16(), 413);
        assert_eq!(Refused::Late { seconds: 1 }.status().as_u16(), 408);
        assert_eq!(Refused::Busy { budget: 1 }.status().as_u16(), 503);
        assert_eq!(Refused::Broken("x".into()).status().as_u16(), 400);
    }
}
