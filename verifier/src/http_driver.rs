//! The `Synchronous/HTTP` driver: builds the request (generators applied,
//! provider-state values substituted), sends it, and matches the response
//! with the foundation's matcher.

use std::borrow::Cow;

use accord_dsl::Interaction;
use accord_dsl::generators::apply_to_request;
use accord_dsl::matching::{MatchingRule, match_response};
use accord_dsl::model::{Body, BodyContent, HttpRequest, HttpResponse, views};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use crate::body::{body_from_bytes, body_to_bytes};
use crate::config::Token;
use crate::driver::{Authorization, BoxFuture, Driver, Exchange, Generation, Sent};
use crate::error::VerifyError;
use crate::finding::Finding;
use crate::request_url::request_url;
use crate::transport::{Outgoing, Received};

/// Replays HTTP interactions.
#[derive(Debug, Clone, Copy, Default)]
pub struct HttpDriver;

impl Driver for HttpDriver {
    fn handles(&self, interaction: &Interaction) -> bool {
        matches!(interaction, Interaction::Http(_))
    }

    fn send<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
    ) -> BoxFuture<'a, Result<Sent, VerifyError>> {
        Box::pin(async move {
            let Interaction::Http(http) = interaction else {
                return Ok(Sent::default());
            };
            let request =
                generated_request_with(&http.request, exchange.state_values, &exchange.generation);
            // the expected side gets the same state values (`equality` rules)
            let (expected, unchecked) =
                crate::expected::http_response(&http.response, exchange.state_values);
            let built = build(exchange, &request);
            let answered = exchange.transport.send_out(built).await;
            // nothing this driver does after reaches the provider (no
            // derived checks, no probes): the teardown may go now
            if let Some(release) = exchange.release {
                release.release().await;
            }
            match answered {
                Ok(received) => {
                    let retryable = http.meta.expectations.retryable;
                    let after = received.header("retry-after");
                    let retry =
                        retryable.and_then(|r| crate::retry::judge(r, received.status, after));
                    let (ack, total) = (received.ack, received.total);
                    let actual = actual_response(received);
                    let mut sent = judge(&expected, &actual);
                    (sent.ack, sent.total) = (Some(ack), Some(total));
                    sent.findings.extend(unchecked);
                    if exchange.generation.views {
                        sent.request = Some(views::http_request_view(&request));
                        sent.answer = Some(json!({
                            "status": actual.status,
                            "headers": views::headers_value(actual.headers.as_ref()),
                            "body": views::body_value(&actual.body),
                        }));
                    }
                    sent.findings.extend(retry);
                    Ok(sent)
                }
                Err(cut) => Ok(Sent {
                    findings: vec![cut.finding("response")],
                    ..Sent::default()
                }),
            }
        })
    }
}

/// The request with the provider-side generators applied.
pub fn generated_request(expected: &HttpRequest, state_values: &Map<String, Value>) -> HttpRequest {
    let fresh = Generation {
        seed: rand::random(),
        pin: None,
        views: false,
    };
    generated_request_with(expected, state_values, &fresh).into_owned()
}

/// The request with the provider-side generators applied from this send's
/// seed, and a repeat's idempotency key kept.
pub fn generated_request_with<'a>(
    expected: &'a HttpRequest,
    state_values: &Map<String, Value>,
    generation: &Generation<'_>,
) -> Cow<'a, HttpRequest> {
    if generation.pin.is_none() && generating_keeps(expected) {
        return Cow::Borrowed(expected);
    }
    let mut request = expected.clone();
    let ctx = Generation::provider_context(state_values);
    apply_to_request(&mut request, &ctx, &mut generation.rng());
    if generation.pin.is_some() {
        let mut view = views::http_request_view(&request);
        generation.pin_into(&mut view);
        views::apply_http_request_view(&mut request, &view);
    }
    Cow::Owned(request)
}

/// True when generating leaves the request as written (no copy needed):
/// no generator, no `arrayContains` variant (whose generators apply), and
/// no body kept as text (JSON text is rewritten when generated into).
fn generating_keeps(request: &HttpRequest) -> bool {
    let array_contains = request.matching_rules.body().is_some_and(|c| {
        c.entries()
            .iter()
            .flat_map(|e| &e.rules.rules)
            .any(|r| matches!(r, MatchingRule::ArrayContains(_)))
    });
    let text = matches!(
        request.body,
        Body::Present {
            content: BodyContent::Text(_),
            ..
        }
    );
    request.generators.is_empty() && !array_contains && !text
}

/// The request as sent: `--header` values replace the interaction's own,
/// except an Authorization Accord decides (a principal's token or none at
/// all); the body's content type added when the request names none.
fn build<'a>(exchange: &'a Exchange<'_>, request: &'a HttpRequest) -> Outgoing<'a> {
    let authorization = exchange.authorization;
    let custom: Vec<&(String, Token)> = exchange
        .custom_headers
        .iter()
        .filter(|(name, _)| {
            authorization == Authorization::AsWritten || !name.eq_ignore_ascii_case("authorization")
        })
        .collect();
    let method = reqwest::Method::from_bytes(request.method.to_ascii_uppercase().as_bytes())
        .unwrap_or(reqwest::Method::GET);
    let url = request_url(exchange.base_url, exchange.base_at, request);
    let mut out = Outgoing::new(method, url.map(Cow::Owned));
    let mut has_content_type = false;
    for (name, values) in request.headers.iter().flatten() {
        has_content_type |= name.eq_ignore_ascii_case("content-type");
        if authorization != Authorization::AsWritten && name.eq_ignore_ascii_case("authorization") {
            continue;
        }
        if custom.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            continue;
        }
        out.headers
            .extend(values.iter().map(|v| (name.as_str(), v.as_str())));
    }
    out.headers
        .extend(custom.iter().map(|(n, v)| (n.as_str(), v.expose())));
    if let Authorization::Bearer(token) = authorization {
        out.bearer = Some(token);
    }
    if let Some((bytes, content_type)) = body_to_bytes(&request.body) {
        if !has_content_type {
            out.content_type = content_type.map(Cow::Owned);
        }
        out.body = Some(bytes);
    }
    out
}

/// The received answer as a contract response (its header names and
/// values moved, not copied).
pub fn actual_response(received: Received) -> HttpResponse {
    let body = body_from_bytes(&received.body, received.header("content-type"));
    let mut headers: IndexMap<String, Vec<String>> =
        IndexMap::with_capacity(received.headers.len());
    for (name, value) in received.headers {
        headers.entry(name).or_default().push(value);
    }
    HttpResponse {
        status: received.status,
        body,
        headers: Some(headers),
        ..HttpResponse::default()
    }
}

/// The answer against the expected response (the timings are the
/// caller's to fill in).
fn judge(expected: &HttpResponse, actual: &HttpResponse) -> Sent {
    let findings = match_response(expected, actual)
        .iter()
        .map(Finding::from_mismatch)
        .collect();
    Sent {
        findings,
        warnings: Vec::new(),
        served_unexpectedly: !(200..300).contains(&expected.status)
            && (200..300).contains(&actual.status),
        // served where a refusal was expected, refused where a service
        // was: the status finding explains the counters
        counters_explained: (200..300).contains(&expected.status)
            != (200..300).contains(&actual.status),
        ..Sent::default()
    }
}

#[cfg(test)]
mod tests {
    use accord_dsl::generators::{Category, Generator};
    use serde_json::json;

    use super::*;

    #[test]
    fn provider_state_values_are_substituted_into_the_request() {
        let expected = HttpRequest {
            method: "GET".into(),
            path: "/items/1".into(),
            generators: accord_dsl::generators::Generators::default().with(
                Category::Path,
                "",
                Generator::ProviderState {
                    expression: "/items/${id}".into(),
                    data_type: None,
                },
            ),
            ..HttpRequest::default()
        };
        let mut values = Map::new();
        values.insert("id".into(), json!(42));
        assert_eq!(generated_request(&expected, &values).path, "/items/42");
        // Without the value the example stays.
        assert_eq!(generated_request(&expected, &Map::new()).path, "/items/1");
    }

    #[test]
    fn received_headers_and_body_become_a_contract_response() {
        let received = Received {
            status: 201,
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("set-cookie".into(), "a=1".into()),
                ("set-cookie".into(), "b=2".into()),
            ],
            body: br#"{"id":5}"#.to_vec(),
            ack: std::time::Duration::ZERO,
            total: std::time::Duration::ZERO,
        };
        let r = actual_response(received);
        assert_eq!(r.status, 201);
        assert_eq!(r.body.as_json(), Some(&json!({"id": 5})));
        let cookies = r.headers.as_ref().and_then(|h| h.get("set-cookie"));
        assert_eq!(cookies.map(Vec::len), Some(2));
    }
}
