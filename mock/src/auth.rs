//! Principals: the bearer token a request presents, against the principal
//! an interaction is sent as (`expectations.auth`). A principal's token is
//! the one given with `--principal NAME=TOKEN`; without one, any
//! non-empty bearer token stands for it.

use accord_dsl::model::accord::{Credential, Expectations};
use actix_web::HttpRequest;

/// What an interaction asks of the caller's credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Demand {
    /// Nothing: the contract names no principal for it.
    Open,
    /// The bearer token of this principal.
    Principal(String),
    /// The interaction is sent without a valid credential (a negative case
    /// of `auth.credential: none | expired | invalid`): the mock answers
    /// the refusal the contract expects.
    Refusal,
}

impl Demand {
    /// What `expectations` ask for.
    pub(crate) fn of(expectations: &Expectations) -> Demand {
        match &expectations.auth {
            Some(auth) if !matches!(auth.credential, Credential::Valid) => Demand::Refusal,
            Some(auth) => auth
                .principal
                .clone()
                .map_or(Demand::Open, Demand::Principal),
            None => Demand::Open,
        }
    }
}

/// The principals' tokens given on the command line.
#[derive(Debug, Clone, Default)]
pub(crate) struct Principals {
    tokens: Vec<(String, String)>,
}

impl Principals {
    pub(crate) fn new(tokens: &[(String, String)]) -> Principals {
        Principals {
            tokens: tokens.to_vec(),
        }
    }

    /// Why `token` is not the credential of `principal`, if it is not.
    pub(crate) fn refuses(&self, principal: &str, token: Option<&str>) -> Option<String> {
        let given = self
            .tokens
            .iter()
            .find(|(name, _)| name == principal)
            .map(|(_, t)| t.as_str());
        match (token, given) {
            (None, _) => Some(format!(
                "no bearer token: the contract sends this as principal '{principal}'"
            )),
            (Some(t), Some(g)) if t != g => Some(format!(
                "the bearer token is not principal '{principal}''s (given with --principal)"
            )),
            (Some(_), _) => None,
        }
    }
}

/// The bearer token of `req`, if it has a non-empty one.
pub(crate) fn bearer(req: &HttpRequest) -> Option<&str> {
    req.headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_token_must_be_presented_any_other_principal_takes_any_token() {
        let p = Principals::new(&[("alice".into(), "a-1".into())]);
        assert_eq!(p.refuses("alice", Some("a-1")), None);
        assert!(p.refuses("alice", Some("b")).is_some());
        assert!(p.refuses("alice", None).is_some());
        assert_eq!(p.refuses("bob", Some("anything")), None);
        assert!(p.refuses("bob", None).is_some());
    }
}
