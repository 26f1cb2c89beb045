//! `GET /pacts/provider/{p}/consumer/{c}/webhooks/status`: the Pact
//! Broker's webhook status of a pair — the latest triggered webhook of each
//! webhook that fired for the pair, a summary of their statuses
//! (`successful`, `failed`, and `retrying` / `notRun` when there are any)
//! and a `pb:error-logs` link for each failed or retrying one.

use std::collections::BTreeSet;

use actix_web::{HttpResponse, web};
use serde_json::{Value, json};

use crate::api::pacticipants::find_required;
use crate::api::webhook_runs::triggered_json;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::webhooks::queue::{self, Filter, Triggered};
use crate::webhooks::store;

/// How many of the pair's triggered webhooks are read to find the latest
/// of each webhook.
const READ: i64 = 1000;

/// The Pact Broker's status of a triggered webhook.
fn status_of(t: &Triggered) -> &'static str {
    match t.status.as_str() {
        queue::SUCCESS => "successful",
        queue::FAILURE => "failed",
        _ if t.attempts > 0 => "retrying",
        _ => "notRun",
    }
}

fn summary(latest: &[(Triggered, String)]) -> Value {
    let count = |s: &str| latest.iter().filter(|(t, _)| status_of(t) == s).count();
    let mut out = json!({"successful": count("successful"), "failed": count("failed")});
    for s in ["retrying", "notRun"] {
        if count(s) > 0 {
            out[s] = json!(count(s));
        }
    }
    out
}

/// `GET /pacts/provider/{p}/consumer/{c}/webhooks/status`.
pub async fn get_status(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c) = path.into_inner();
    let (provider, consumer, latest) = state
        .run(move |conn| {
            let provider = find_required(conn, &p)?;
            let consumer = find_required(conn, &c)?;
            let mut seen = BTreeSet::new();
            let mut latest = Vec::new();
            for t in queue::list(conn, Filter::Pair(consumer.id, provider.id), READ)? {
                if seen.insert(t.webhook_id) {
                    let uuid = store::find_by_id(conn, t.webhook_id)?
                        .map(|w| w.uuid)
                        .unwrap_or_default();
                    latest.push((t, uuid));
                }
            }
            Ok((provider.name, consumer.name, latest))
        })
        .await?;
    let max = state.config.webhook_retry_schedule.len() + 1;
    let items: Vec<Value> = latest
        .iter()
        .map(|(t, u)| triggered_json(&base, t, u, max))
        .collect();
    let errors: Vec<Link> = latest
        .iter()
        .filter(|(t, _)| matches!(status_of(t), "failed" | "retrying"))
        .map(|(t, _)| {
            Link::new(base.url(&["triggered-webhooks", &t.uuid, "logs"])).title("Error logs")
        })
        .collect();
    let pair = ["pacts", "provider", &provider, "consumer", &consumer];
    let links = Links::new()
        .add(
            "self",
            Link::new(base.url(&[&pair[..], &["webhooks", "status"]].concat()))
                .title("Webhooks status"),
        )
        .add(
            "pb:pact-webhooks",
            Link::new(base.url(&[&pair[..], &["webhooks"]].concat())).title(format!(
                "Webhooks for the pact between {consumer} and {provider}"
            )),
        )
        .add(
            "pb:consumer",
            Link::new(base.url(&["pacticipants", &consumer]))
                .title("Consumer")
                .name(consumer.clone()),
        )
        .add(
            "pb:provider",
            Link::new(base.url(&["pacticipants", &provider]))
                .title("Provider")
                .name(provider.clone()),
        )
        .add_array("pb:error-logs", errors);
    Ok(hal::ok(&json!({
        "summary": summary(&latest),
        "_embedded": { "triggeredWebhooks": items },
        "_links": links.into_value(),
    })))
}
