//! `GET /integrations` (every consumer/provider pair with a contract) and
//! `GET /metrics` (counts, named as the Pact Broker names them).

use std::collections::HashMap;

use actix_web::{HttpResponse, web};
use serde_json::{Value, json};

use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::integrations::{self, Counts, Dated};
use crate::store::pacticipants;

fn named(base: &BaseUrl, name: &str) -> Value {
    json!({
        "name": name,
        "_links": { "self": Link::new(base.url(&["pacticipants", name])).name(name).to_value() },
    })
}

/// `GET /integrations`.
pub async fn list_integrations(
    state: web::Data<AppState>,
    base: BaseUrl,
) -> Result<HttpResponse, BrokerError> {
    let (pairs, everyone) = state
        .run(|conn| Ok((integrations::list(conn)?, pacticipants::list(conn)?)))
        .await?;
    let names: HashMap<i64, String> = everyone.into_iter().map(|p| (p.id, p.name)).collect();
    let mut items = Vec::with_capacity(pairs.len());
    for pair in &pairs {
        let (Some(c), Some(p)) = (names.get(&pair.consumer_id), names.get(&pair.provider_id))
        else {
            continue; // deleted between the two reads
        };
        let links = Links::new()
            .add(
                "pb:latest-pact",
                Link::new(base.url(&["pacts", "provider", p, "consumer", c, "latest"]))
                    .title("Latest pact"),
            )
            .add(
                "pb:matrix",
                Link::new(format!(
                    "{}?q[][pacticipant]={}&q[][pacticipant]={}&latestby=cvpv",
                    base.url(&["matrix"]),
                    crate::hal::encode_segment(c),
                    crate::hal::encode_segment(p)
                ))
                .title("Matrix of pacts and verification results"),
            );
        items.push(json!({
            "consumer": named(&base, c),
            "provider": named(&base, p),
            "latestPactCreatedAt": pair.latest_pact_created_at.map(crate::api::time),
            "_links": links.into_value(),
        }));
    }
    Ok(hal::ok(&json!({
        "_embedded": { "integrations": items },
        "_links": { "self": Link::new(base.url(&["integrations"])).title("Integrations").to_value() },
    })))
}

fn dated(d: &Dated) -> Value {
    json!({
        "count": d.count,
        "first": d.first.map(crate::api::time),
        "last": d.last.map(crate::api::time),
    })
}

fn metrics_json(c: &Counts) -> Value {
    json!({
        "pacticipants": { "count": c.pacticipants, "withMainBranchSetCount": c.pacticipants_with_main_branch },
        "integrations": { "count": c.integrations },
        "pactPublications": dated(&c.pact_publications),
        "pactVersions": { "count": c.pact_versions },
        "verificationResults": dated(&c.verification_results),
        "pacticipantVersions": { "count": c.pacticipant_versions },
        "webhooks": { "count": 0 },
        "tags": { "count": c.tags },
        "triggeredWebhooks": { "count": 0 },
        "webhookExecutions": { "count": 0 },
        "matrix": { "count": c.matrix },
        "environments": { "count": c.environments },
        "deployedVersions": { "count": c.deployed_versions, "currentlyDeployedCount": c.currently_deployed },
        "releasedVersions": { "count": c.released_versions, "currentlySupportedCount": c.currently_supported },
    })
}

/// `GET /metrics`.
pub async fn get_metrics(state: web::Data<AppState>) -> Result<HttpResponse, BrokerError> {
    let counts = state.run(|conn| Ok(integrations::counts(conn)?)).await?;
    Ok(hal::ok(&metrics_json(&counts)))
}
