//! Secrets never reach a page. Everything a page shows from a contract
//! (examples, bodies, headers, queries, metadata, provider states, MCP
//! arguments, A2A parts, descriptions) or from a verification result
//! (findings, test results, build URL, verifier) passes through this
//! module, and only through it: [`named`] for a value under a name (a
//! header, a field, a finding's path), [`redact`] for a JSON document,
//! [`redact_text`] for text, [`redact_url`] for a URL to link; [`pretty`]
//! and [`compact`] print a redacted document. All of them reduce to one
//! walk: a value is hidden (shown as [`HIDDEN`]) when
//!
//! - its name is a secret's ([`names::is_secret_name`]: `Authorization`,
//!   `Cookie`, `X-Access-Key`, `pwd`, `jwt`, `sig`, `sessionId`, …): a
//!   text or number is hidden whole, and inside an object or list under
//!   such a name every text and number (the names and the shape stay);
//! - it holds a credential in text ([`text`]): after `Bearer`/`Basic`, a
//!   URL's user-info, the value of a secret-named `name=value` or
//!   `name: value` pair (query strings, form bodies, header lines);
//! - it has a secret's shape ([`shapes`]): a JWT, an issuer-prefixed
//!   token (`ghp_…`, `sk_live_…`, `AKIA…`), a long random-looking string.
//!
//! Shown: nulls and booleans, Accord's `credential` words (`expired`:
//! which credential is sent, not one) and its `auth` expectation
//! (principal, tenant, probes: names, not secrets), and long hex or
//! random-looking ids under an id's or a digest's name (`_id`, `taskId`,
//! `sha`, `etag`). Identifiers the page itself computes and shows (the
//! content sha, declaration digests) are not contract values and do not
//! pass through here.

mod names;
mod shapes;
#[cfg(test)]
mod tests;
mod text;

use serde_json::{Map, Value};

use names::is_id_name;
pub use names::is_secret_name;

/// What a hidden value is shown as.
pub const HIDDEN: &str = "(hidden)";

/// Accord's `auth.credential` words: which credential is sent, not one.
const CREDENTIAL_WORDS: [&str; 4] = ["valid", "none", "expired", "invalid"];

/// The keys of Accord's `auth` expectation: read as Accord's vocabulary.
const ACCORD_AUTH: [&str; 4] = ["principal", "tenant", "credential", "probes"];

/// Names shown inside an object under a secret's name: what kind of
/// credential it is, not the credential (`{"type": "basic", …}`).
const KIND_NAMES: [&str; 4] = ["type", "scheme", "schemes", "in"];

/// `text` with its secrets hidden wherever they sit.
pub fn redact_text(text: &str) -> String {
    scrub(text, false)
}

/// A URL to show and link: its user-info removed, secret query values and
/// secret-shaped parts hidden
/// (`https://u:p@ci/b?access_token=x` → `https://ci/b?access_token=(hidden)`).
pub fn redact_url(url: &str) -> String {
    shapes::hide(&text::pairs(&text::user_info(url, None)), false)
}

/// A copy of `value` with every secret hidden.
pub fn redact(value: &Value) -> Value {
    walk(None, value, false)
}

/// A copy of `value`, found under `name` (a header, a field, a metadata
/// entry, the last step of a finding's path), with every secret hidden.
pub fn named(name: &str, value: &Value) -> Value {
    walk(Some(name), value, false)
}

/// The last step of a path (`$.result.apiKey` → `apiKey`): the name its
/// values are found under.
pub fn last_step(path: &str) -> &str {
    path.rsplit(['.', '[', ']', '\'', '"', '/'])
        .find(|s| !s.is_empty() && !s.bytes().all(|b| b.is_ascii_digit()) && *s != "*")
        .unwrap_or(path)
}

/// `value` redacted and pretty-printed.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&redact(value)).unwrap_or_default()
}

/// `value` redacted, on one line (a text as itself).
pub fn compact(value: &Value) -> String {
    line(&redact(value))
}

/// `value` under `name` redacted, on one line.
pub fn compact_named(name: &str, value: &Value) -> String {
    line(&named(name, value))
}

fn line(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Text redaction: schemes, user-info, pairs, then shapes.
fn scrub(text: &str, ids: bool) -> String {
    let t = text::schemes(text);
    let t = text::user_info(&t, Some(HIDDEN));
    shapes::hide(&text::pairs(&t), ids)
}

/// Pact's rules, whose keys are paths and header names, not the names of
/// values (`{"header": {"Authorization": {"matchers": …}}}`).
const RULES: [&str; 2] = ["matchingRules", "generators"];

/// The one walk: `value` under `name`; `under_secret`: inside an object
/// or list under a secret's name.
fn walk(name: Option<&str>, value: &Value, under_secret: bool) -> Value {
    if let (Some(n), Value::Object(map)) = (name, value)
        && RULES.contains(&n)
    {
        return rules(map);
    }
    let secret_name = name.is_some_and(is_secret_name);
    let kind = name.is_some_and(|n| KIND_NAMES.contains(&n));
    let hide = (under_secret && !kind) || secret_name;
    match value {
        Value::Null | Value::Bool(_) => value.clone(),
        Value::String(s)
            if name == Some("credential") && CREDENTIAL_WORDS.contains(&s.as_str()) =>
        {
            value.clone()
        }
        Value::Number(_) | Value::String(_) if hide => Value::String(HIDDEN.into()),
        Value::Number(_) => value.clone(),
        Value::String(s) => Value::String(scrub(s, name.is_some_and(is_id_name))),
        Value::Array(items) => {
            let inner = hide && !kind;
            Value::Array(items.iter().map(|v| walk(name, v, inner)).collect())
        }
        Value::Object(map) => {
            let inner = (under_secret || secret_name) && !is_accord_auth(name, map);
            Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), walk(Some(k), v, inner)))
                    .collect(),
            )
        }
    }
}

/// Matching rules and generators: their texts pass the text and shape
/// rules (a regex may hold a credential), their keys name no value.
fn rules(map: &Map<String, Value>) -> Value {
    let walked = map.iter().map(|(k, v)| {
        let shown = match v {
            Value::Object(m) => rules(m),
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|i| match i {
                        Value::Object(m) => rules(m),
                        other => walk(None, other, false),
                    })
                    .collect(),
            ),
            other => walk(None, other, false),
        };
        (k.clone(), shown)
    });
    Value::Object(walked.collect())
}

/// Accord's own `auth` expectation (`{"principal": "alice", …}`).
fn is_accord_auth(name: Option<&str>, map: &Map<String, Value>) -> bool {
    name == Some("auth") && map.keys().all(|k| ACCORD_AUTH.contains(&k.as_str()))
}

/// `text` with every occurrence of the texts in `hidden` (at least four
/// characters: values hidden elsewhere on the same row) replaced by
/// [`HIDDEN`]: a finding's detail quoting the actual value it hid.
pub fn without(text: &str, hidden: &[String]) -> String {
    hidden
        .iter()
        .filter(|h| h.chars().count() >= 4)
        .fold(text.to_owned(), |t, h| t.replace(h.as_str(), HIDDEN))
}

/// The texts and numbers of `value` that [`named`] hides (to take them
/// out of prose about the same value, with [`without`]).
pub fn hidden_texts(name: &str, value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect(&named(name, value), value, &mut out);
    out
}

fn collect(shown: &Value, original: &Value, out: &mut Vec<String>) {
    match (shown, original) {
        (Value::String(s), Value::String(o)) if s == HIDDEN && o != HIDDEN => out.push(o.clone()),
        (Value::String(s), Value::Number(n)) if s == HIDDEN => out.push(n.to_string()),
        (Value::Array(a), Value::Array(b)) => a.iter().zip(b).for_each(|(x, y)| collect(x, y, out)),
        (Value::Object(a), Value::Object(b)) => {
            for (k, x) in a {
                if let Some(y) = b.get(k) {
                    collect(x, y, out);
                }
            }
        }
        _ => {}
    }
}
