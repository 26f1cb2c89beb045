//! `Synchronous/HTTP` interactions, and Pact messages (asynchronous and
//! synchronous), which are shown as messages: never as HTTP.

use accord_dsl::model::{HttpInteraction, Message, MessageInteraction, SyncMessageInteraction};
use serde_json::Value;

use super::fields::{BodyView, Field, RuleRow, generator_rows, multi_fields, rule_rows};

/// A request and the response expected to it.
#[derive(Debug, Clone)]
pub struct HttpView {
    pub method: String,
    pub path: String,
    pub query: Vec<Field>,
    pub request_headers: Vec<Field>,
    pub request_body: Option<BodyView>,
    pub request_rules: Vec<RuleRow>,
    pub status: u16,
    pub response_headers: Vec<Field>,
    pub response_body: Option<BodyView>,
    pub response_rules: Vec<RuleRow>,
    /// Attributes of the request or response this broker does not know.
    pub extra: Vec<Field>,
}

impl From<&HttpInteraction> for HttpView {
    fn from(i: &HttpInteraction) -> Self {
        let (req, res) = (&i.request, &i.response);
        let mut request_rules = rule_rows(&req.matching_rules);
        request_rules.extend(generated(&req.generators.to_v4_json()));
        let mut response_rules = rule_rows(&res.matching_rules);
        response_rules.extend(generated(&res.generators.to_v4_json()));
        let extra = req
            .extra
            .iter()
            .map(|(k, v)| Field::json(format!("request.{k}"), v))
            .chain(
                res.extra
                    .iter()
                    .map(|(k, v)| Field::json(format!("response.{k}"), v)),
            )
            .collect();
        HttpView {
            method: super::redact::redact_text(&req.method.to_ascii_uppercase()),
            path: super::redact::redact_text(&req.path),
            query: multi_fields(req.query.as_ref()),
            request_headers: multi_fields(req.headers.as_ref()),
            request_body: BodyView::of(&req.body),
            request_rules,
            status: res.status,
            response_headers: multi_fields(res.headers.as_ref()),
            response_body: BodyView::of(&res.body),
            response_rules,
            extra,
        }
    }
}

/// Generator rows, labelled as generators.
pub fn generated(v4: &Value) -> Vec<RuleRow> {
    generator_rows(v4)
        .into_iter()
        .map(|mut r| {
            for line in &mut r.rule {
                *line = format!("generator {line}");
            }
            r
        })
        .collect()
}

/// One message: contents, metadata, rules.
#[derive(Debug, Clone)]
pub struct MessagePart {
    pub label: String,
    pub contents: Option<BodyView>,
    pub metadata: Vec<Field>,
    pub rules: Vec<RuleRow>,
}

impl MessagePart {
    fn of(label: impl Into<String>, m: &Message) -> MessagePart {
        let mut rules = rule_rows(&m.matching_rules);
        rules.extend(generated(&m.generators.to_v4_json()));
        let mut metadata: Vec<Field> = m.metadata.iter().map(|(k, v)| Field::json(k, v)).collect();
        metadata.extend(
            m.extra
                .iter()
                .filter(|(k, _)| k.as_str() != "_id")
                .map(|(k, v)| Field::json(k, v)),
        );
        MessagePart {
            label: label.into(),
            contents: BodyView::of(&m.contents),
            metadata,
            rules,
        }
    }
}

/// A message interaction: what the provider sends (asynchronous), or a
/// request message and its responses (synchronous).
#[derive(Debug, Clone)]
pub struct MessageView {
    pub synchronous: bool,
    pub parts: Vec<MessagePart>,
}

impl From<&MessageInteraction> for MessageView {
    fn from(i: &MessageInteraction) -> Self {
        MessageView {
            synchronous: false,
            parts: vec![MessagePart::of("Message the provider sends", &i.message)],
        }
    }
}

impl From<&SyncMessageInteraction> for MessageView {
    fn from(i: &SyncMessageInteraction) -> Self {
        let mut parts = vec![MessagePart::of("Request message", &i.request)];
        let many = i.response.len() > 1;
        parts.extend(i.response.iter().enumerate().map(|(n, m)| {
            let label = if many {
                format!("Response message {}", n + 1)
            } else {
                "Response message".to_owned()
            };
            MessagePart::of(label, m)
        }));
        MessageView {
            synchronous: true,
            parts,
        }
    }
}
