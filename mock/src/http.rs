//! HTTP interactions with Pact mock-server semantics: an incoming request
//! is matched against every expected request (matching rules apply;
//! provider states only say which interactions are set up, and all are);
//! the first that matches answers with its expected response, generators
//! applied (`MockServerURL` included). A request no interaction matches is
//! a mismatch: against the interaction with the same method and path and
//! the fewest differences (`request-mismatch`), else `request-not-found`.
//! Requests are matched with the semantics of the specification the mock
//! is started for (`MockOptions::spec`), as a Pact mock server is.

use accord_dsl::Interaction;
use accord_dsl::generators::{GeneratorContext, GeneratorMode, apply_to_response};
use accord_dsl::matching::{Mismatch, MismatchKind, match_request_for};
use accord_dsl::model::{Contract, HttpInteraction, HttpRequest, HttpResponse, PactSpec};

/// What the mock answers for: the contract's HTTP interactions.
#[derive(Debug)]
pub(crate) struct HttpExpectations {
    interactions: Vec<(usize, HttpInteraction)>,
    spec: PactSpec,
}

/// How an incoming request relates to the expectations.
#[derive(Debug)]
pub(crate) enum Found<'a> {
    /// The interaction at this position of the contract answers it.
    Matched(usize, &'a HttpInteraction),
    /// The closest interaction (same method and path) and how it differs.
    Mismatched(usize, &'a HttpInteraction, Vec<Mismatch>),
    /// No interaction has its method and path.
    Nothing,
}

impl HttpExpectations {
    /// The contract's HTTP interactions, matched with `spec`'s semantics.
    pub(crate) fn of(contract: &Contract, spec: PactSpec) -> HttpExpectations {
        let interactions = contract
            .interactions
            .iter()
            .enumerate()
            .filter_map(|(n, i)| match i {
                Interaction::Http(h) => Some((n, h.clone())),
                _ => None,
            })
            .collect();
        HttpExpectations { interactions, spec }
    }

    /// The expected interactions: (contract index, interaction).
    pub(crate) fn all(&self) -> &[(usize, HttpInteraction)] {
        &self.interactions
    }

    /// The interaction that answers `actual`, or the closest one.
    pub(crate) fn find(&self, actual: &HttpRequest) -> Found<'_> {
        let mut closest: Option<(usize, &HttpInteraction, Vec<Mismatch>)> = None;
        for (index, expected) in &self.interactions {
            let mismatches = match_request_for(&expected.request, actual, self.spec);
            if mismatches.is_empty() {
                return Found::Matched(*index, expected);
            }
            let same_route = mismatches
                .iter()
                .all(|m| !matches!(m.kind, MismatchKind::Method | MismatchKind::Path));
            let fewer = closest
                .as_ref()
                .is_none_or(|(_, _, seen)| mismatches.len() < seen.len());
            if same_route && fewer {
                closest = Some((*index, expected, mismatches));
            }
        }
        match closest {
            Some((index, expected, mismatches)) => Found::Mismatched(index, expected, mismatches),
            None => Found::Nothing,
        }
    }
}

/// The expected response with the consumer-side generators applied.
pub(crate) fn response_for(expected: &HttpInteraction, mock_url: &str) -> HttpResponse {
    let mut response = expected.response.clone();
    let ctx = GeneratorContext {
        mock_server_url: Some(mock_url.to_owned()),
        mode: GeneratorMode::Consumer,
        ..GeneratorContext::default()
    };
    apply_to_response(&mut response, &ctx, &mut rand::rng());
    response
}

#[cfg(test)]
mod tests {
    use accord_dsl::model::Body;
    use serde_json::json;

    use super::*;

    fn contract() -> Contract {
        let doc = json!({"consumer": {"name": "c"}, "provider": {"name": "p"},
            "interactions": [
                {"type": "Synchronous/HTTP", "description": "get one",
                 "request": {"method": "GET", "path": "/items/1"},
                 "response": {"status": 200, "body": {"content": {"id": 1}}}},
                {"type": "Synchronous/HTTP", "description": "create",
                 "request": {"method": "POST", "path": "/items",
                     "body": {"content": {"name": "lamp"}}},
                 "response": {"status": 201}}],
            "metadata": {"pactSpecification": {"version": "4.0"}}});
        accord_dsl::pact::from_value(&doc, "t").expect("a contract")
    }

    fn request(method: &str, path: &str, body: Option<serde_json::Value>) -> HttpRequest {
        HttpRequest {
            method: method.into(),
            path: path.into(),
            body: body.map_or(Body::Missing, Body::json),
            ..HttpRequest::default()
        }
    }

    #[test]
    fn a_request_finds_its_interaction_the_closest_one_or_none() {
        let e = HttpExpectations::of(&contract(), PactSpec::V4);
        assert!(matches!(
            e.find(&request("GET", "/items/1", None)),
            Found::Matched(0, _)
        ));
        match e.find(&request("POST", "/items", Some(json!({"name": 3})))) {
            Found::Mismatched(1, _, m) => assert_eq!(m[0].kind, MismatchKind::Body),
            other => panic!("not a mismatch: {other:?}"),
        }
        assert!(matches!(
            e.find(&request("DELETE", "/items/1", None)),
            Found::Nothing
        ));
    }
}
