//! The message drivers, the way Pact verifies message pacts: `POST` to the
//! provider's message endpoint `{"description", "providerStates"}` (plus
//! `"request"` for synchronous messages); the reply body is the message,
//! its `Content-Type` the `contentType` metadata, and a base64 JSON
//! `Pact-Message-Metadata` header the rest of the metadata.

use accord_dsl::Interaction;
use accord_dsl::matching::match_message;
use accord_dsl::model::{InteractionMeta, Message};
use accord_dsl::pact::message_to_v4;
use base64::Engine;
use serde_json::{Map, Value, json};

use crate::body::body_from_bytes;
use crate::driver::{BoxFuture, Driver, Exchange, Sent};
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::transport::Received;

/// Replays `Asynchronous/Messages` and `Synchronous/Messages`.
#[derive(Debug, Clone, Copy, Default)]
pub struct MessageDriver;

impl Driver for MessageDriver {
    fn handles(&self, interaction: &Interaction) -> bool {
        matches!(
            interaction,
            Interaction::AsyncMessage(_) | Interaction::SyncMessage(_)
        )
    }

    fn send<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
    ) -> BoxFuture<'a, Result<Sent, VerifyError>> {
        Box::pin(async move {
            let (body, expected) = match interaction {
                Interaction::AsyncMessage(m) => (request_body(&m.meta, None), Some(&m.message)),
                Interaction::SyncMessage(m) => {
                    (request_body(&m.meta, Some(&m.request)), m.response.first())
                }
                _ => return Ok(Sent::default()),
            };
            let mut request = exchange
                .transport
                .client()
                .post(exchange.message_url)
                .json(&body);
            for (name, value) in exchange.custom_headers {
                request = request.header(name.as_str(), value.expose());
            }
            let received = match exchange.transport.send(request).await {
                Ok(r) => r,
                Err(cut) => {
                    return Ok(Sent {
                        findings: vec![cut.finding("message")],
                        ..Sent::default()
                    });
                }
            };
            Ok(judge(expected, &received))
        })
    }
}

/// The JSON posted to the message endpoint.
pub fn request_body(meta: &InteractionMeta, request: Option<&Message>) -> Value {
    let mut body = Map::new();
    body.insert("description".into(), json!(meta.description));
    if !meta.provider_states.is_empty() {
        body.insert("providerStates".into(), json!(meta.provider_states));
    }
    if let Some(r) = request {
        body.insert("request".into(), message_to_v4(r));
    }
    Value::Object(body)
}

/// The received reply as a message.
pub fn actual_message(received: &Received) -> Message {
    let content_type = received.header("content-type");
    let mut metadata = Map::new();
    if let Some(ct) = content_type {
        metadata.insert("contentType".into(), json!(ct));
    }
    if let Some(encoded) = received.header("pact-message-metadata")
        && let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(encoded.trim())
        && let Ok(Value::Object(extra)) = serde_json::from_slice::<Value>(&bytes)
    {
        metadata.extend(extra);
    }
    Message {
        contents: body_from_bytes(&received.body, content_type),
        metadata,
        ..Message::default()
    }
}

fn judge(expected: Option<&Message>, received: &Received) -> Sent {
    let timing = |findings| Sent {
        findings,
        warnings: Vec::new(),
        ack: Some(received.ack),
        total: Some(received.total),
        served_unexpectedly: false,
        ..Sent::default()
    };
    if !(200..300).contains(&received.status) {
        let detail = format!("the message endpoint answered status {}", received.status);
        let f = Finding::new(Layer::Protocol, codes::REQUEST_FAILED, "message", detail)
            .values(None, Some(json!(received.status)));
        return timing(vec![f]);
    }
    let Some(expected) = expected else {
        return timing(Vec::new());
    };
    let actual = actual_message(received);
    timing(
        match_message(expected, &actual)
            .iter()
            .map(Finding::from_mismatch)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use accord_dsl::model::ProviderState;

    use super::*;

    #[test]
    fn the_message_request_names_description_and_states() {
        let meta = InteractionMeta {
            description: "an order event".into(),
            provider_states: vec![ProviderState::named("an order")],
            ..InteractionMeta::default()
        };
        assert_eq!(
            request_body(&meta, None),
            json!({"description": "an order event", "providerStates": [{"name": "an order"}]})
        );
    }

    #[test]
    fn metadata_comes_from_content_type_and_the_pact_header() {
        let meta = base64::engine::general_purpose::STANDARD.encode(br#"{"topic":"orders"}"#);
        let received = Received {
            status: 200,
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("pact-message-metadata".into(), meta),
            ],
            body: br#"{"id":1}"#.to_vec(),
            ack: Duration::ZERO,
            total: Duration::ZERO,
        };
        let m = actual_message(&received);
        assert_eq!(m.metadata.get("topic"), Some(&json!("orders")));
        assert_eq!(
            m.metadata.get("contentType"),
            Some(&json!("application/json"))
        );
        assert_eq!(m.contents.as_json(), Some(&json!({"id": 1})));
    }
}
