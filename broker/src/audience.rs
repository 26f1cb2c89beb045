//! Who reads pact content: Accord's own client, or anyone else.
//!
//! Accord's CLI announces itself with the request header
//! `X-Accord-Client: <its version>` on every request; it is served whole
//! contracts. Every other client — the Pact CLIs and verifiers, a browser,
//! `curl` — is served the Pact view (`contract::pact_view`), which Pact
//! clients can load. The default is the Pact view so that nothing that
//! does not know about Accord ever meets an interaction type it cannot
//! read. A header rather than an `Accept` profile: a Pact Broker that
//! `accord verify` talks to ignores an unknown header, while a profile
//! parameter in `Accept` is left to each server's content negotiation.
//!
//! Answers that depend on it say so: `Vary: X-Accord-Client`, and pact
//! documents carry `X-Accord-View: contract` or `pact`.

use actix_web::dev::Payload;
use actix_web::http::header::HeaderMap;
use actix_web::{FromRequest, HttpRequest};

use crate::error::BrokerError;

/// The request header Accord's client sends (`X-Accord-Client`).
pub const CLIENT_HEADER: &str = "x-accord-client";
/// The response header naming the view a pact document was served in
/// (`X-Accord-View`).
pub const VIEW_HEADER: &str = "x-accord-view";
/// `Vary` of every answer that depends on the audience.
pub const VARY_BY_CLIENT: &str = "Accept, X-Accord-Client";

/// Who is reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Accord's client: whole contracts.
    Accord,
    /// Anyone else: the Pact view.
    Pact,
}

impl Audience {
    /// `Accord` when `X-Accord-Client` is present with a non-empty value.
    pub fn of(headers: &HeaderMap) -> Audience {
        let announced = headers
            .get(CLIENT_HEADER)
            .is_some_and(|v| !v.as_bytes().iter().all(u8::is_ascii_whitespace));
        if announced {
            Audience::Accord
        } else {
            Audience::Pact
        }
    }

    /// The `X-Accord-View` value of what this audience is served.
    pub fn view_name(self) -> &'static str {
        match self {
            Audience::Accord => "contract",
            Audience::Pact => "pact",
        }
    }
}

impl FromRequest for Audience {
    type Error = BrokerError;
    type Future = std::future::Ready<Result<Audience, BrokerError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(Ok(Audience::of(req.headers())))
    }
}

#[cfg(test)]
mod tests {
    use actix_web::http::header::{HeaderName, HeaderValue};

    use super::*;

    fn headers(value: Option<&'static str>) -> HeaderMap {
        let mut map = HeaderMap::new();
        if let Some(v) = value {
            map.insert(
                HeaderName::from_static("x-accord-client"),
                HeaderValue::from_static(v),
            );
        }
        map
    }

    #[test]
    fn only_a_client_that_announces_itself_is_served_whole_contracts() {
        assert_eq!(Audience::of(&headers(Some("0.1.0"))), Audience::Accord);
        assert_eq!(Audience::of(&headers(None)), Audience::Pact);
        assert_eq!(Audience::of(&headers(Some(" "))), Audience::Pact);
    }
}
