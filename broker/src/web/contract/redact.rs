//! Secrets never reach a page: values under credential-like keys
//! (`Authorization`, `Cookie`, `authToken`, `apiSecret`, …), the credential
//! part of `Bearer …`/`Basic …` texts, URLs' user-info and the values of
//! secret-named `key=value` pairs (query strings, form bodies) are
//! replaced by [`HIDDEN`], in
//! contracts (their examples may carry real-looking tokens) and in stored
//! verification data (findings, test results).

use serde_json::Value;

/// What a hidden value is shown as.
pub const HIDDEN: &str = "(hidden)";

/// Name parts (lower case, without `-`, `_` and `.`) that make a name a
/// secret's wherever they sit (`apiSecret`, `X-Api-Key`, `Set-Cookie`).
const SECRET_PARTS: [&str; 8] = [
    "secret",
    "password",
    "passwd",
    "apikey",
    "credential",
    "cookie",
    "authorization",
    "privatekey",
];

/// Name endings that make a name a secret's (`authToken`, `X-Vault-Token`,
/// `Private-Token`, `sessionId`); not anywhere (`max_tokens` is a count).
const SECRET_ENDS: [&str; 4] = ["token", "session", "sessionid", "sessid"];

/// Accord's `auth.credential` words: which credential is sent, not one.
const CREDENTIAL_WORDS: [&str; 4] = ["valid", "none", "expired", "invalid"];

/// True when a header, parameter or JSON key names a secret (ignoring
/// case, `-`, `_` and `.`).
pub fn is_secret_name(name: &str) -> bool {
    let squashed: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    SECRET_PARTS.iter().any(|p| squashed.contains(p))
        || SECRET_ENDS.iter().any(|e| squashed.ends_with(e))
}

/// `value` under key `key` is Accord's `credential` word (shown).
fn is_credential_word(key: &str, value: &Value) -> bool {
    key == "credential"
        && value
            .as_str()
            .is_some_and(|v| CREDENTIAL_WORDS.contains(&v))
}

/// `text` with its secrets hidden wherever they sit (a header value, a
/// text or form body, a path with its query, a URL, a sentence quoting
/// one): the credential after `Bearer`/`Basic`, a URL's user-info, and
/// the value of each `key=value` pair whose key names a secret.
pub fn redact_text(text: &str) -> String {
    let text = redact_schemes(text);
    let text = redact_user_info(&text, Some(HIDDEN));
    redact_pairs(&text)
}

/// A URL to show and link: its user-info removed, secret query values
/// hidden (`https://u:p@ci/b?access_token=x` → `https://ci/b?access_token=(hidden)`).
pub fn redact_url(url: &str) -> String {
    redact_pairs(&redact_user_info(url, None))
}

/// Ends a credential or a pair's value.
fn ends_value(c: char) -> bool {
    c.is_whitespace() || matches!(c, '"' | '\'' | '&' | '#' | '<' | '>')
}

/// The credential after each `Bearer`/`Basic` and a whitespace run hidden.
fn redact_schemes(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some((start, scheme)) = next_scheme(&lower, at) {
        let after = start + scheme;
        let spaces = text[after..]
            .find(|c: char| !c.is_whitespace())
            .map_or(text.len(), |n| after + n);
        if spaces == after {
            // `Bearer` not followed by whitespace: a word, not a scheme
            out.push_str(&text[at..after]);
            at = after;
            continue;
        }
        let end = text[spaces..]
            .find(|c: char| ends_value(c) || c == ',')
            .map_or(text.len(), |n| spaces + n);
        out.push_str(&text[at..spaces]);
        out.push_str(if end > spaces { HIDDEN } else { "" });
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// The next `bearer`/`basic` at or after `from`: (position, length).
fn next_scheme(lower: &str, from: usize) -> Option<(usize, usize)> {
    ["bearer", "basic"]
        .iter()
        .filter_map(|s| lower[from..].find(s).map(|n| (from + n, s.len())))
        .min()
}

/// Each URL's user-info (`scheme://user:password@`) replaced by `with`,
/// or removed with its `@` when `with` is `None`.
fn redact_user_info(text: &str, with: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(n) = text[at..].find("://") {
        let host = at + n + 3;
        let authority = text[host..]
            .find(|c: char| ends_value(c) || matches!(c, '/' | '?'))
            .map_or(text.len(), |n| host + n);
        out.push_str(&text[at..host]);
        match text[host..authority].rfind('@') {
            Some(u) => {
                if let Some(w) = with {
                    out.push_str(w);
                    out.push('@');
                }
                out.push_str(&text[host + u + 1..authority]);
            }
            None => out.push_str(&text[host..authority]),
        }
        at = authority;
    }
    out.push_str(&text[at..]);
    out
}

/// The value of each `key=value` pair whose key names a secret hidden
/// (`?access_token=…`, `client_secret=…&password=…`).
fn redact_pairs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(n) = text[at..].find('=') {
        let eq = at + n;
        let key_start = text[..eq]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '[' | ']'))
            .last()
            .map_or(eq, |(i, _)| i);
        let value = eq + 1;
        let end = text[value..]
            .find(ends_value)
            .map_or(text.len(), |n| value + n);
        out.push_str(&text[at..value]);
        if key_start < eq && end > value && is_secret_name(&text[key_start..eq]) {
            out.push_str(HIDDEN);
            at = end;
        } else {
            at = value;
        }
    }
    out.push_str(&text[at..]);
    out
}

/// A copy of `value` with every secret hidden.
pub fn redact(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let shown = match v {
                        Value::Null | Value::Bool(_) => v.clone(),
                        _ if is_credential_word(k, v) => v.clone(),
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

    #[test]
    fn secret_names_match_by_part_or_ending_ignoring_case() {
        for name in [
            "authToken",
            "X-Vault-Token",
            "Private-Token",
            "X-Amz-Security-Token",
            "apiSecret",
            "api_key",
            "API-KEY",
            "client_secret",
            "Proxy-Authorization",
            "Set-Cookie",
            "user.password",
            "JSESSIONID",
            "credentials",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in ["tenant", "max_tokens", "tokenType", "scheme", "description"] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn any_whitespace_after_bearer_or_basic_still_hides_the_credential() {
        assert_eq!(redact_text("Bearer  abc"), "Bearer  (hidden)");
        assert_eq!(redact_text("Bearer\tabc"), "Bearer\t(hidden)");
        assert_eq!(redact_text("basic\n dXNlcjpw"), "basic\n (hidden)");
        assert_eq!(redact_text("scheme Bearer"), "scheme Bearer");
    }

    #[test]
    fn secret_pairs_of_forms_paths_and_urls_are_hidden() {
        assert_eq!(
            redact_text("client_secret=s1&password=p2&grant_type=client_credentials"),
            "client_secret=(hidden)&password=(hidden)&grant_type=client_credentials"
        );
        assert_eq!(
            redact_text("/callback?access_token=t0k&state=ok#x"),
            "/callback?access_token=(hidden)&state=ok#x"
        );
        assert_eq!(
            redact_text("see https://bob:hunter2@ci.example/b?apiKey=k9 now"),
            "see https://(hidden)@ci.example/b?apiKey=(hidden) now"
        );
        assert_eq!(redact_text("a=1&b==2"), "a=1&b==2");
    }

    #[test]
    fn a_url_to_link_loses_its_user_info_and_secret_query_values() {
        assert_eq!(
            redact_url("https://user:ghp_x@ci.example/run/7?token=abc&page=2"),
            "https://ci.example/run/7?token=(hidden)&page=2"
        );
        assert_eq!(
            redact_url("https://ci.example/run/7"),
            "https://ci.example/run/7"
        );
    }

    #[test]
    fn secret_like_json_keys_are_hidden_but_accord_credential_words_are_not() {
        let v = json!({"authToken": "a1", "X-Vault-Token": "v1", "apiSecret": "s1",
            "body": "password=p1", "credential": "expired", "auth": {"credential": "eyJ.x.y"}});
        let text = redact(&v).to_string();
        for secret in ["a1", "v1", "s1", "p1", "eyJ"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert!(text.contains("\"credential\":\"expired\""), "{text}");
    }
}
