//! Rendering a request template with an event's parameters: `${name}` in
//! the URL (values URI-escaped, as the Pact Broker does), the headers, the
//! body (a JSON body: each string rendered in place) and the Basic auth
//! credentials. An unknown `${…}` is left as written.

use std::collections::BTreeMap;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

use super::model::{REDACTED, RequestTemplate, is_credential_header};
use super::outbound::OutboundRequest;

/// What a value in a URL is escaped with: all but the unreserved characters.
const URL_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `text` with every known `${name}` replaced by `value(name)`.
fn substitute(text: &str, params: &BTreeMap<String, String>, escape: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find('}') {
            Some(end) if params.contains_key(&after[..end]) => {
                let value = params.get(&after[..end]).map(String::as_str).unwrap_or("");
                if escape {
                    out.push_str(&utf8_percent_encode(value, URL_VALUE).to_string());
                } else {
                    out.push_str(value);
                }
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str("${");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn render_json(value: &Value, params: &BTreeMap<String, String>) -> Value {
    match value {
        Value::String(s) => Value::String(substitute(s, params, false)),
        Value::Array(items) => Value::Array(items.iter().map(|v| render_json(v, params)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), render_json(v, params)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The request to send for `template` with `params`.
pub fn render(template: &RequestTemplate, params: &BTreeMap<String, String>) -> OutboundRequest {
    let body = template.body.as_ref().map(|b| match b {
        Value::String(s) => substitute(s, params, false),
        other => render_json(other, params).to_string(),
    });
    let basic_auth = match (&template.username, &template.password) {
        (None, None) => None,
        (user, password) => Some((
            substitute(user.as_deref().unwrap_or(""), params, false),
            substitute(password.as_deref().unwrap_or(""), params, false),
        )),
    };
    OutboundRequest {
        method: template.method.to_ascii_uppercase(),
        url: substitute(&template.url, params, true),
        headers: template
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), substitute(v, params, false)))
            .collect(),
        body,
        basic_auth,
    }
}

/// A rendered request as answers and logs show it: credential-looking
/// header values and the password redacted.
pub fn shown(request: &OutboundRequest) -> Value {
    let headers: serde_json::Map<String, Value> = request
        .headers
        .iter()
        .map(|(k, v)| {
            let value = if is_credential_header(k) {
                REDACTED
            } else {
                v.as_str()
            };
            (k.clone(), Value::String(value.to_string()))
        })
        .collect();
    let body = request
        .body
        .as_ref()
        .map(|b| serde_json::from_str::<Value>(b).unwrap_or_else(|_| Value::String(b.clone())));
    let mut shown = serde_json::json!({
        "method": request.method,
        "url": request.url,
        "headers": headers,
        "body": body,
    });
    if let Some((user, _)) = &request.basic_auth
        && let Value::Object(map) = &mut shown
    {
        map.insert("username".into(), Value::String(user.clone()));
        map.insert("password".into(), Value::String(REDACTED.into()));
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> BTreeMap<String, String> {
        [
            ("pactbroker.consumerName", "Foo Bar"),
            ("pactbroker.pactUrl", "http://b/p?x=1"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }

    #[test]
    fn url_values_are_escaped_and_unknown_names_stay() {
        let t = RequestTemplate {
            method: "post".into(),
            url: "https://ci/x?c=${pactbroker.consumerName}&u=${nope}".into(),
            ..RequestTemplate::default()
        };
        let r = render(&t, &params());
        assert_eq!(r.url, "https://ci/x?c=Foo%20Bar&u=${nope}");
        assert_eq!(r.method, "POST");
    }

    #[test]
    fn json_bodies_render_strings_in_place() {
        let t = RequestTemplate {
            method: "POST".into(),
            url: "https://ci".into(),
            body: Some(
                serde_json::json!({"a": ["${pactbroker.pactUrl}", 1], "b": "${pactbroker.consumerName}!"}),
            ),
            ..RequestTemplate::default()
        };
        let body: Value = serde_json::from_str(&render(&t, &params()).body.unwrap_or_default())
            .unwrap_or_default();
        assert_eq!(
            body,
            serde_json::json!({"a": ["http://b/p?x=1", 1], "b": "Foo Bar!"})
        );
    }

    #[test]
    fn credentials_are_redacted_when_shown() {
        let t = RequestTemplate {
            method: "POST".into(),
            url: "https://ci".into(),
            headers: [
                ("Authorization".to_string(), "Bearer s3cret".to_string()),
                ("X-Api-Key".to_string(), "k".to_string()),
                ("Accept".to_string(), "a".to_string()),
            ]
            .into_iter()
            .collect(),
            username: Some("u".into()),
            password: Some("p".into()),
            ..RequestTemplate::default()
        };
        let shown = shown(&render(&t, &params())).to_string();
        assert!(
            !shown.contains("s3cret") && !shown.contains("\"k\"") && !shown.contains("\"p\""),
            "{shown}"
        );
        assert!(shown.contains("\"a\""));
    }
}
