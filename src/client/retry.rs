//! Which failed broker requests are sent again, and after how long: at
//! most [`RETRIES`] times, backoff 0.5 s, 1 s, 2 s (base from
//! `ACCORD_BROKER_RETRY_BASE_MS` when set) or the reply's `Retry-After`
//! seconds, capped at 10 s.

use std::time::Duration;

use reqwest::Method;

/// How many times a failed request is sent again.
pub const RETRIES: u32 = 3;
/// The first backoff when `ACCORD_BROKER_RETRY_BASE_MS` is not set.
const DEFAULT_RETRY_BASE: Duration = Duration::from_millis(500);
/// The longest `Retry-After` honoured.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(10);

/// Whether a request may be sent again after a transient failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// A repeat has no further effect (GET, PUT, DELETE, and queries sent
    /// as POST such as pacts for verification): retried on 429, 502, 503,
    /// 504 and on any transport failure before a reply.
    Idempotent,
    /// A repeat could do the work twice (POST, PATCH): retried only where
    /// the broker provably did nothing: 429, or no connection was made.
    Unsafe,
}

impl Retry {
    /// The policy HTTP's method semantics give.
    pub fn for_method(method: &Method) -> Retry {
        if matches!(*method, Method::POST | Method::PATCH) {
            Retry::Unsafe
        } else {
            Retry::Idempotent
        }
    }

    pub(super) fn on_status(self, status: u16) -> bool {
        match self {
            Retry::Idempotent => matches!(status, 429 | 502 | 503 | 504),
            Retry::Unsafe => status == 429,
        }
    }

    pub(super) fn on_transport(self, err: &reqwest::Error) -> bool {
        match self {
            Retry::Idempotent => !err.is_builder() && !err.is_redirect(),
            Retry::Unsafe => err.is_connect(),
        }
    }
}

/// The wait before retry number `retry` (0-based): the reply's
/// `Retry-After` when it gave one (capped), else `base` doubled each time.
pub(super) fn backoff(retry: u32, base: Duration, retry_after: Option<Duration>) -> Duration {
    match retry_after {
        Some(wait) => wait.min(MAX_RETRY_AFTER),
        None => base.saturating_mul(2u32.saturating_pow(retry)),
    }
}

/// `Retry-After` in seconds (the HTTP-date form is not honoured).
pub(super) fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let text = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    text.trim().parse::<u64>().ok().map(Duration::from_secs)
}

pub(super) fn retry_base() -> Duration {
    std::env::var("ACCORD_BROKER_RETRY_BASE_MS")
        .ok()
        .and_then(|ms| ms.parse::<u64>().ok())
        .map_or(DEFAULT_RETRY_BASE, Duration::from_millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_the_base_and_a_retry_after_replaces_it_up_to_ten_seconds() {
        let base = Duration::from_millis(500);
        let waits: Vec<_> = (0..3).map(|n| backoff(n, base, None)).collect();
        assert_eq!(waits, [500, 1000, 2000].map(Duration::from_millis).to_vec());
        let two = Some(Duration::from_secs(2));
        assert_eq!(backoff(0, base, two), Duration::from_secs(2));
        let long = Some(Duration::from_secs(3600));
        assert_eq!(backoff(1, base, long), Duration::from_secs(10));
    }

    #[test]
    fn reads_retry_after_in_seconds_only() {
        let mut headers = reqwest::header::HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert(reqwest::header::RETRY_AFTER, "7".parse().expect("header"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        let date = "Wed, 21 Oct 2026 07:28:00 GMT".parse().expect("header");
        headers.insert(reqwest::header::RETRY_AFTER, date);
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn only_idempotent_requests_are_retried_on_gateway_errors_and_every_request_on_429() {
        assert_eq!(Retry::for_method(&Method::GET), Retry::Idempotent);
        assert_eq!(Retry::for_method(&Method::PUT), Retry::Idempotent);
        assert_eq!(Retry::for_method(&Method::POST), Retry::Unsafe);
        assert_eq!(Retry::for_method(&Method::PATCH), Retry::Unsafe);
        for status in [429, 502, 503, 504] {
            assert!(Retry::Idempotent.on_status(status), "{status}");
        }
        for status in [200, 400, 401, 404, 409, 500] {
            assert!(!Retry::Idempotent.on_status(status), "{status}");
        }
        assert!(Retry::Unsafe.on_status(429));
        for status in [500, 502, 503, 504] {
            assert!(!Retry::Unsafe.on_status(status), "{status}");
        }
    }
}
