//! The verifier's credentials are canaries: a token it holds (a
//! principal's, the one presented, a `--header` value) that comes back in
//! an answer leaked.
//!
//! | where | finding |
//! | --- | --- |
//! | a tool error, a JSON-RPC error, an HTTP refusal | SENSITIVE_DATA_IN_ERROR (protocol) |
//! | a served result, a tool listing | CREDENTIAL_LEAKED (authorization) |
//!
//! A finding names whose credential leaked, never the credential. Values
//! shorter than 8 bytes are not canaries: they would match by chance. One
//! secret is one canary, whatever holds it (a principal's token that is
//! also the presented one is named once, by the first), so a leak is one
//! finding at its path.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::config::Token;
use crate::driver::{Authorization, Exchange};
use crate::finding::{Finding, Layer, codes};

const SHORTEST: usize = 8;

/// The credentials to look for, each with whose it is.
#[derive(Default)]
pub struct Canaries(Vec<(String, String)>);

impl std::fmt::Debug for Canaries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Canaries({})", self.0.len())
    }
}

impl Canaries {
    /// Every credential the verifier holds for a request.
    pub fn of(
        principals: &BTreeMap<String, Token>,
        presented: Authorization<'_>,
        headers: &[(String, Token)],
    ) -> Self {
        let mut out = Vec::new();
        for (name, token) in principals {
            out.push((format!("principal `{name}`"), token.expose().to_owned()));
        }
        if let Authorization::Bearer(t) = presented {
            out.push(("the presented bearer token".to_owned(), t.to_owned()));
        }
        for (name, value) in headers {
            out.push((format!("header `{name}`"), value.expose().to_owned()));
        }
        let mut canaries = Canaries::default();
        for (who, token) in out {
            canaries.add(who, &token);
        }
        canaries
    }

    /// Every credential an exchange holds: its principals', the one it
    /// presents, its `--header`s, and the tokens its provider states issued.
    pub fn of_exchange(exchange: &Exchange<'_>) -> Self {
        // by name first: the presented token is named by whose it is
        let mut canaries = Canaries::of(
            exchange.principals,
            Authorization::AsWritten,
            exchange.custom_headers,
        );
        let values = exchange.state_values;
        if let Some(tokens) = values.get("tokens").and_then(Value::as_object) {
            for (who, t) in tokens {
                if let Some(t) = t.as_str() {
                    canaries.add(format!("principal `{who}` (issued by a state)"), t);
                }
            }
        }
        for key in ["token", "expiredToken"] {
            if let Some(t) = values.get(key).and_then(Value::as_str) {
                canaries.add(format!("the state-issued `{key}`"), t);
            }
        }
        if let Authorization::Bearer(t) = exchange.authorization {
            canaries.add("the presented bearer token".to_owned(), t);
        }
        canaries
    }

    /// Adds a credential (one already watched, or too short, is skipped).
    pub fn add(&mut self, who: String, token: &str) {
        if token.len() >= SHORTEST && !self.0.iter().any(|(_, t)| t == token) {
            self.0.push((who, token.to_owned()));
        }
    }

    /// Whose credentials `body` carries.
    pub fn found_in(&self, body: &[u8]) -> Vec<&str> {
        let mut who: Vec<&str> = self
            .0
            .iter()
            .filter(|(_, t)| body.windows(t.len()).any(|w| w == t.as_bytes()))
            .map(|(w, _)| w.as_str())
            .collect();
        who.dedup();
        who
    }

    /// The findings for an answer (`error`: it refused or failed).
    pub fn judge(&self, body: &[u8], error: bool, path: &str) -> Vec<Finding> {
        self.found_in(body)
            .into_iter()
            .map(|who| {
                if error {
                    let detail = format!("the credential of {who} appears in the error");
                    Finding::new(
                        Layer::Protocol,
                        codes::SENSITIVE_DATA_IN_ERROR,
                        path,
                        detail,
                    )
                } else {
                    let detail = format!("the credential of {who} appears in the answer");
                    Finding::new(Layer::Authorization, codes::CREDENTIAL_LEAKED, path, detail)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canaries() -> Canaries {
        let principals = [("alice".to_owned(), Token::new("secret-of-alice"))].into();
        let headers = [("X-Api-Key".to_owned(), Token::new("key-1234567"))];
        Canaries::of(&principals, Authorization::Bearer("presented-1"), &headers)
    }

    #[test]
    fn a_credential_in_an_error_or_a_result_is_named_by_whose_never_shown() {
        let c = canaries();
        let f = c.judge(
            b"{\"text\": \"denied for secret-of-alice\"}",
            true,
            "result",
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].reason_code, "SENSITIVE_DATA_IN_ERROR");
        assert!(f[0].detail.contains("principal `alice`"));
        assert!(!f[0].detail.contains("secret-of-alice"));
        let f = c.judge(b"key-1234567 and presented-1", false, "result");
        let codes: Vec<_> = f.iter().map(|f| f.reason_code).collect();
        assert_eq!(codes, ["CREDENTIAL_LEAKED", "CREDENTIAL_LEAKED"]);
        assert!(c.judge(b"nothing of note", true, "result").is_empty());
    }

    #[test]
    fn short_values_are_not_canaries() {
        let principals = [("bob".to_owned(), Token::new("abc"))].into();
        let c = Canaries::of(&principals, Authorization::AsWritten, &[]);
        assert!(c.judge(b"abc abc", true, "result").is_empty());
    }

    #[test]
    fn a_principal_token_that_is_also_presented_leaks_as_one_finding() {
        let principals = [("alice".to_owned(), Token::new("secret-of-alice"))].into();
        let c = Canaries::of(&principals, Authorization::Bearer("secret-of-alice"), &[]);
        let f = c.judge(b"denied for secret-of-alice", true, "error");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].detail.contains("principal `alice`"), "{f:?}");
    }
}
