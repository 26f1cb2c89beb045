//! Once per interface and run, after an interaction that created a task:
//! what the card declares must work, even where the contract does not use
//! it (a consumer reads the card to decide what to call).
//!
//! | the card declares | probe (side-effect free) | refused as unsupported | finding |
//! | --- | --- | --- | --- |
//! | `pushNotifications: true` | `ListTaskPushNotificationConfigs` of the created task, as its creator | PUSH_NOTIFICATION_NOT_SUPPORTED or UNSUPPORTED_OPERATION | DECLARED_CAPABILITY_BROKEN (protocol) |
//! | `extendedAgentCard: true` | `GetExtendedAgentCard`, with the interaction's credential | UNSUPPORTED_OPERATION (EXTENDED_AGENT_CARD_NOT_CONFIGURED is the spec's own answer for a card not set up yet, not judged) | DECLARED_CAPABILITY_BROKEN (protocol) |
//!
//! Any other answer (served, or another error such as TASK_NOT_FOUND) is
//! not judged here. Streaming is judged where the contract streams (a
//! terminal task cannot show it works); streaming the card does not
//! declare by its own probe (`streaming`); another undeclared capability
//! where the contract relies on it (its own sends and follow-ups). Every
//! answer is watched for leaked credentials.

use accord_dsl::model::accord::A2aOperation;
use serde_json::{Map, Value, json};

use super::capability::{broken, declares};

use super::wire::{Client, Interface};
use crate::driver::Exchange;
use crate::finding::Finding;

/// The probes of what `card` declares, on `interface`, with `task_id`
/// (a task the interaction created, as its creator).
pub async fn probe(
    interface: &Interface,
    exchange: &Exchange<'_>,
    card: &Value,
    task_id: &str,
) -> Vec<Finding> {
    let client = Client {
        transport: exchange.transport,
        interface,
        authorization: exchange.authorization,
        custom_headers: exchange.custom_headers,
        version: "1.0",
    };
    let mut out = Vec::new();
    let mut watch = super::probe::Watch::new(exchange);
    if declares(card, "pushNotifications") {
        let op = A2aOperation::ListTaskPushNotificationConfigs;
        let mut params = Map::new();
        params.insert("taskId".into(), json!(task_id));
        if let Ok(answer) = client.call(op, params).await {
            watch.scan(Some(&answer), "agentCard.capabilities.pushNotifications");
            out.extend(broken(
                card,
                op,
                &answer,
                "agentCard.capabilities.pushNotifications",
            ));
        }
    }
    if declares(card, "extendedAgentCard") {
        let op = A2aOperation::GetExtendedAgentCard;
        if let Ok(answer) = client.call(op, Map::new()).await {
            watch.scan(Some(&answer), "agentCard.capabilities.extendedAgentCard");
            out.extend(broken(
                card,
                op,
                &answer,
                "agentCard.capabilities.extendedAgentCard",
            ));
        }
    }
    out.extend(watch.leaks);
    out
}
