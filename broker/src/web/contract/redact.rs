//! Secrets never reach a page: values under credential-like keys
//! (`Authorization`, `Cookie`, `token`, `password`, …) and the credential
//! part of `Bearer …`/`Basic …` texts are replaced by [`HIDDEN`], in
//! contracts (their examples may carry real-looking tokens) and in stored
//! verification data (findings, test results).

use serde_json::Value;

/// What a hidden value is shown as.
pub const HIDDEN: &str = "(hidden)";

/// Key names (lower case, without `-` and `_`) whose values are secrets.
const SECRET_KEYS: [&str; 17] = [
    "authorization",
    "proxyauthorization",
    "cookie",
    "setcookie",
    "apikey",
    "xapikey",
    "xauthtoken",
    "token",
    "accesstoken",
    "refreshtoken",
    "idtoken",
    "secret",
    "clientsecret",
    "password",
    "passwd",
    "credentials",
    "privatekey",
];

/// True when a header, parameter or JSON key names a secret.
pub fn is_secret_name(name: &str) -> bool {
    let squashed: String = name
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    SECRET_KEYS.contains(&squashed.as_str())
}

/// `text` with the credential after each `Bearer `/`Basic ` hidden,
/// wherever it sits (a header value, a sentence quoting one).
pub fn redact_text(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some((start, scheme)) = next_scheme(&lower, at) {
        let secret = start + scheme;
        let end = text[secret..]
            .find(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == ',')
            .map_or(text.len(), |n| secret + n);
        out.push_str(&text[at..secret]);
        out.push_str(if end > secret { HIDDEN } else { "" });
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// The next `bearer `/`basic ` at or after `from`: (position, length).
fn next_scheme(lower: &str, from: usize) -> Option<(usize, usize)> {
    ["bearer ", "basic "]
        .iter()
        .filter_map(|s| lower[from..].find(s).map(|n| (from + n, s.len())))
        .min()
}

/// A copy of `value` with every secret hidden.
pub fn redact(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let shown = match v {
                        Value::Null | Value::Bool(_) => v.clone(),
                        _ if is_secret_name(k) => Value::String(HIDDEN.into()),
                        _ => redact(v),
                    };
                    (k.clone(), shown)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        Value::String(s) => Value::String(redact_text(s)),
        other => other.clone(),
    }
}

/// `value` redacted and pretty-printed.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&redact(value)).unwrap_or_default()
}

/// `value` redacted, on one line.
pub fn compact(value: &Value) -> String {
    match redact(value) {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn credentials_are_hidden_wherever_they_sit() {
        let v = json!({"headers": {"Authorization": "Bearer abc", "X-Api-Key": ["k"]},
            "push": {"token": "push-token-1", "scheme": "Bearer"},
            "note": "sent Authorization: bearer xyz, twice", "credential": "expired", "tenant": "t"});
        let shown = redact(&v);
        let text = shown.to_string();
        for secret in ["abc", "\"k\"", "push-token-1", "xyz"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert_eq!(shown["credential"], "expired");
        assert_eq!(shown["push"]["scheme"], "Bearer");
        assert_eq!(shown["tenant"], "t");
        assert_eq!(shown["note"], "sent Authorization: bearer (hidden), twice");
    }
}
