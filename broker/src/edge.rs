//! Text checks at the edge, before any handler: every path segment and
//! every query parameter must decode to UTF-8 text without control
//! characters. No name, version, sha or uuid the broker stores can hold
//! one, and PostgreSQL cannot even be asked about text holding NUL
//! (`invalid byte sequence for encoding "UTF8": 0x00`), so such a request
//! is a 400 naming the parameter on both backends, whatever the route.
//! Bodies are checked by their own types (`names::FreeText` and the name
//! newtypes).

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use percent_encoding::percent_decode;

use crate::error::BrokerError;
use crate::routes;

/// Why a decoded parameter is refused, if it is.
fn refusal(raw: &[u8], plus_is_space: bool) -> Option<&'static str> {
    let bytes: Vec<u8> = if plus_is_space {
        raw.iter()
            .map(|b| if *b == b'+' { b' ' } else { *b })
            .collect()
    } else {
        raw.to_vec()
    };
    let decoded: Vec<u8> = percent_decode(&bytes).collect();
    match std::str::from_utf8(&decoded) {
        Err(_) => Some("is not valid UTF-8 once percent-decoded"),
        Ok(text) if text.chars().any(char::is_control) => {
            Some("must not contain control characters (such as NUL or a line break)")
        }
        Ok(_) => None,
    }
}

/// The first path or query parameter that cannot be text the broker
/// stores, as the 400 that names it.
pub fn check(method: &str, path: &str, query: &str) -> Result<(), BrokerError> {
    // every segment, fixed words too: actix routes on decoded words, so a
    // route matched with a spelled-out `%70acticipants` must not escape
    for (i, raw) in path.split('/').enumerate() {
        if let Some(why) = refusal(raw.as_bytes(), false) {
            let name = routes::find(method, path)
                .and_then(|(route, _)| route.path.split('/').nth(i))
                .and_then(|w| w.strip_prefix('{').and_then(|w| w.strip_suffix('}')))
                .unwrap_or("path");
            return Err(BrokerError::bad_field(name, why));
        }
    }
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let field = || {
            let bytes: Vec<u8> = percent_decode(key.as_bytes()).collect();
            String::from_utf8_lossy(&bytes)
                .chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .collect::<String>()
        };
        if let Some(why) = refusal(key.as_bytes(), true) {
            return Err(BrokerError::bad_field(field(), why));
        }
        if let Some(why) = refusal(value.as_bytes(), true) {
            return Err(BrokerError::bad_field(field(), why));
        }
    }
    Ok(())
}

/// The middleware around every route.
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let uri = req.uri();
    let verdict = check(req.method().as_str(), uri.path(), uri.query().unwrap_or(""));
    match verdict {
        Ok(()) => Ok(next.call(req).await?.map_into_boxed_body()),
        Err(e) => Ok(req.error_response(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(e: BrokerError) -> String {
        match e {
            BrokerError::BadRequest { errors, .. } => errors[0].field.clone(),
            other => panic!("not a 400: {other:?}"),
        }
    }

    #[test]
    fn a_nul_in_a_path_segment_names_the_parameter() {
        let e = check("GET", "/pacticipants/a%00b", "").expect_err("refused");
        assert_eq!(field_of(e), "pacticipant");
        let e = check("DELETE", "/tokens/ci%0Abot", "").expect_err("refused");
        assert_eq!(field_of(e), "name");
    }

    #[test]
    fn invalid_utf8_in_a_path_segment_is_refused() {
        let e = check("GET", "/pacticipants/x/versions/%FF", "").expect_err("refused");
        assert_eq!(field_of(e), "version");
    }

    #[test]
    fn a_nul_in_a_query_value_names_the_key() {
        let e = check("GET", "/matrix", "q[][pacticipant]=a%00&latestby=cvp").expect_err("refused");
        assert_eq!(field_of(e), "q[][pacticipant]");
        let e = check("GET", "/can-i-deploy", "pacticipant=a&version=%7F").expect_err("refused");
        assert_eq!(field_of(e), "version");
    }

    #[test]
    fn ordinary_names_spaces_and_unicode_pass() {
        assert!(check("GET", "/pacticipants/Order%20Service", "").is_ok());
        assert!(check("GET", "/pacticipants/caf%C3%A9", "x=a+b&y=%E2%9C%93").is_ok());
    }

    #[test]
    fn a_fixed_word_spelled_encoded_does_not_escape_the_check() {
        let e = check("GET", "/%70acticipants/a%00b", "").expect_err("refused");
        assert_eq!(field_of(e), "pacticipant");
        let e = check("GET", "/no/such/route%00", "").expect_err("refused");
        assert_eq!(field_of(e), "path");
    }
}
