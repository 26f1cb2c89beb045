//! A webhook definition as clients send it (the Pact Broker's body) and as
//! it is stored: who it matches, its events, its request template.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{BrokerError, FieldError};
use crate::names::PacticipantName;

/// Every event name a webhook may subscribe to: the Pact Broker's six and
/// Accord's four.
pub const EVENT_NAMES: [&str; 10] = [
    "contract_published",
    "contract_content_changed",
    "contract_requiring_verification_published",
    "provider_verification_published",
    "provider_verification_succeeded",
    "provider_verification_failed",
    "deployment_recorded",
    "release_recorded",
    "admission_changed",
    "drift_detected",
];

/// The event a webhook without `events` subscribes to (as the Pact Broker).
pub const DEFAULT_EVENT: &str = "contract_content_changed";

/// The body of `POST /webhooks`, `PUT /webhooks/{uuid}`, `POST /webhooks/execute`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookBody {
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub consumer: Option<SelectorBody>,
    #[serde(default)]
    pub provider: Option<SelectorBody>,
    #[serde(default)]
    pub events: Option<Vec<EventBody>>,
    #[serde(default)]
    pub request: Option<RequestTemplate>,
    #[serde(default)]
    pub enabled: Option<bool>,
}

/// `{"name": …}` or `{"label": …}`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, Eq)]
pub struct SelectorBody {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// `{"name": "contract_published"}`.
#[derive(Debug, Deserialize)]
pub struct EventBody {
    pub name: String,
}

/// The request template, stored as given (password recoverable).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct RequestTemplate {
    #[serde(default)]
    pub method: String,
    #[serde(default)]
    pub url: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
}

/// Who a webhook matches: a pacticipant by name or by label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    Name(String),
    Label(String),
}

/// A checked definition, ready to store.
#[derive(Debug, Clone)]
pub struct Definition {
    pub description: Option<String>,
    pub consumer: Option<Selector>,
    pub provider: Option<Selector>,
    pub events: Vec<String>,
    pub request: RequestTemplate,
    pub enabled: bool,
}

/// The longest description, URL, header value or name accepted.
const MAX_TEXT: usize = 8 * 1024;

impl WebhookBody {
    /// Checks the body; `scope` are the consumer and provider the URL names
    /// (the scoped routes), which win over the body's.
    pub fn validate(
        self,
        scope: (Option<String>, Option<String>),
    ) -> Result<Definition, BrokerError> {
        let mut errors = Vec::new();
        let consumer = selector(scope.0, self.consumer, "$.consumer", &mut errors);
        let provider = selector(scope.1, self.provider, "$.provider", &mut errors);
        let events = events(self.events, &mut errors);
        let request = self.request.unwrap_or_default();
        check_request(&request, &mut errors);
        if let Some(d) = &self.description {
            if d.len() > MAX_TEXT {
                errors.push(FieldError::new("$.description", "is too long"));
            } else if has_control(d, true) {
                errors.push(FieldError::new(
                    "$.description",
                    "must not contain control characters (such as NUL) other than tab and line breaks",
                ));
            }
        }
        if !errors.is_empty() {
            return Err(BrokerError::BadRequest {
                detail: errors
                    .iter()
                    .map(|e| format!("{}: {}", e.field, e.message))
                    .collect::<Vec<_>>()
                    .join("; "),
                errors,
            });
        }
        Ok(Definition {
            description: self.description,
            consumer,
            provider,
            events,
            request,
            enabled: self.enabled.unwrap_or(true),
        })
    }
}

fn selector(
    scoped: Option<String>,
    body: Option<SelectorBody>,
    path: &str,
    errors: &mut Vec<FieldError>,
) -> Option<Selector> {
    if let Some(name) = scoped {
        return Some(Selector::Name(name));
    }
    match body? {
        SelectorBody {
            name: Some(_),
            label: Some(_),
        } => {
            errors.push(FieldError::new(path, "cannot have both a name and a label"));
            None
        }
        SelectorBody { name: Some(n), .. } => match PacticipantName::parse(&n) {
            Ok(_) => Some(Selector::Name(n)),
            Err(e) => {
                errors.push(FieldError::new(format!("{path}.name"), e.to_string()));
                None
            }
        },
        SelectorBody { label: Some(l), .. } => match PacticipantName::parse(&l) {
            Ok(_) => Some(Selector::Label(l)),
            Err(e) => {
                errors.push(FieldError::new(format!("{path}.label"), e.to_string()));
                None
            }
        },
        _ => {
            errors.push(FieldError::new(path, "needs a non-empty name or label"));
            None
        }
    }
}

fn events(given: Option<Vec<EventBody>>, errors: &mut Vec<FieldError>) -> Vec<String> {
    let Some(given) = given else {
        return vec![DEFAULT_EVENT.to_string()];
    };
    if given.is_empty() {
        errors.push(FieldError::new("$.events", "needs at least one event"));
    }
    let mut names: Vec<String> = Vec::new();
    for (i, e) in given.into_iter().enumerate() {
        if !EVENT_NAMES.contains(&e.name.as_str()) {
            errors.push(FieldError::new(
                format!("$.events[{i}].name"),
                format!("is not an event ({})", EVENT_NAMES.join(", ")),
            ));
        } else if !names.contains(&e.name) {
            names.push(e.name);
        }
    }
    names
}

/// Whether `text` holds a control character: NUL (which PostgreSQL cannot
/// store in text) and the rest; tab always allowed, line breaks when
/// `line_breaks`.
fn has_control(text: &str, line_breaks: bool) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\t' && !(line_breaks && matches!(c, '\n' | '\r')))
}

fn check_request(request: &RequestTemplate, errors: &mut Vec<FieldError>) {
    if request.method.trim().is_empty() {
        errors.push(FieldError::new("$.request.method", "is required"));
    } else if !request.method.bytes().all(|b| b.is_ascii_alphabetic()) || request.method.len() > 16
    {
        errors.push(FieldError::new("$.request.method", "is not an HTTP method"));
    }
    if request.url.trim().is_empty() {
        errors.push(FieldError::new("$.request.url", "is required"));
    } else if request.url.len() > MAX_TEXT {
        errors.push(FieldError::new("$.request.url", "is too long"));
    }
    for (name, value) in &request.headers {
        let valid_name =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic() && b != b':');
        if !valid_name || value.len() > MAX_TEXT || has_control(value, false) {
            errors.push(FieldError::new(
                format!("$.request.headers.{name}"),
                "is not a valid header",
            ));
        }
    }
}

/// Whether a header's name says it carries a credential.
pub fn is_credential_header(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "authorization",
        "token",
        "api-key",
        "apikey",
        "secret",
        "password",
        "cookie",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

/// The redaction shown instead of a credential.
pub const REDACTED: &str = "**********";

impl RequestTemplate {
    /// The template as every answer, page and log shows it: the password
    /// and credential-looking header values replaced.
    pub fn redacted(&self) -> Value {
        let mut shown = self.clone();
        if shown.password.is_some() {
            shown.password = Some(REDACTED.into());
        }
        for (name, value) in shown.headers.iter_mut() {
            if is_credential_header(name) {
                *value = REDACTED.into();
            }
        }
        serde_json::to_value(&shown).unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(json: Value) -> Result<Definition, BrokerError> {
        serde_json::from_value::<WebhookBody>(json)
            .expect("a webhook body")
            .validate((None, None))
    }

    fn refused_at(json: Value) -> Vec<String> {
        match body(json) {
            Err(BrokerError::BadRequest { errors, .. }) => {
                errors.into_iter().map(|e| e.field).collect()
            }
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    fn request() -> Value {
        serde_json::json!({"method": "POST", "url": "https://ci.example/hook"})
    }

    #[test]
    fn control_characters_are_refused_with_the_field_that_holds_them() {
        let with = |key: &str, value: Value| {
            let mut b = serde_json::json!({"request": request()});
            b[key] = value;
            b
        };
        assert_eq!(
            refused_at(with("description", "a\u{0}b".into())),
            ["$.description"]
        );
        assert_eq!(
            refused_at(with("consumer", serde_json::json!({"name": "a\u{0}b"}))),
            ["$.consumer.name"]
        );
        assert_eq!(
            refused_at(with("provider", serde_json::json!({"label": "a\u{1}b"}))),
            ["$.provider.label"]
        );
        let mut b = serde_json::json!({"request": request()});
        b["request"]["headers"] = serde_json::json!({"X-Build": "a\u{0}b"});
        assert_eq!(refused_at(b), ["$.request.headers.X-Build"]);
    }

    #[test]
    fn line_breaks_stay_allowed_in_a_description_only() {
        let d =
            body(serde_json::json!({"description": "two\nlines\tand a tab", "request": request()}))
                .expect("accepted");
        assert_eq!(d.description.as_deref(), Some("two\nlines\tand a tab"));
        let mut b = serde_json::json!({"request": request()});
        b["request"]["headers"] = serde_json::json!({"X-Build": "a\nb"});
        assert_eq!(refused_at(b), ["$.request.headers.X-Build"]);
    }
}
