//! Deployments recorded to production and the can-i-deploy answers, read
//! from the broker's matrix through `accord record-deployment`'s and
//! `accord can-i-deploy`'s code; the reason codes come from the
//! verifications the demo ran.

use std::collections::BTreeSet;

use serde_json::Value;

use super::scenario::{CONSUMERS, ENVIRONMENT, PROVIDERS};
use super::verification::PactVerdict;
use crate::client::BrokerClient;
use crate::cmd::can_i_deploy::{self, Destination};
use crate::cmd::{environment, record_deployment};

/// Creates the production environment and records the deployed consumer
/// versions and the good provider versions there; `name version` of each.
pub fn record_deployments(client: &BrokerClient) -> anyhow::Result<Vec<String>> {
    let href = environment::environments_href(client)?;
    let body =
        environment::create_body(ENVIRONMENT, Some("Production".to_owned()), true, None, None);
    environment::create(client, &href, &body)?;
    let consumers = CONSUMERS
        .iter()
        .filter(|c| c.deployed)
        .map(|c| (c.name, c.version));
    let providers = PROVIDERS
        .iter()
        .filter(|p| p.is_good())
        .map(|p| (p.name, p.version));
    let mut recorded = Vec::new();
    for (name, version) in consumers.chain(providers) {
        record_deployment::record(client, name, version, ENVIRONMENT, None)?;
        recorded.push(format!("{name} {version}"));
    }
    Ok(recorded)
}

/// The broker's answer to one can-i-deploy question.
#[derive(Debug, Clone)]
pub struct Answer {
    pub pacticipant: &'static str,
    pub version: &'static str,
    /// `Some(true)` yes, `Some(false)` no, `None` unknown.
    pub deployable: Option<bool>,
    /// The integrations that decided it, one phrase each.
    pub because: Vec<String>,
    /// The query string of the question (for `/ui/can-i-deploy`).
    pub query: String,
}

impl Answer {
    /// `yes`, `no` or `unknown`.
    pub fn word(&self) -> &'static str {
        match self.deployable {
            Some(true) => "yes",
            Some(false) => "no",
            None => "unknown",
        }
    }
}

/// Asks the broker whether `pacticipant` `version` can go to production.
pub fn can_i_deploy(
    client: &BrokerClient,
    pacticipant: &'static str,
    version: &'static str,
    verdicts: &[PactVerdict],
) -> anyhow::Result<Answer> {
    let to = Some(Destination::Environment(ENVIRONMENT));
    let query = can_i_deploy::query(pacticipant, version, to, &[]);
    let body = client.get(&format!("/can-i-deploy?{query}"))?;
    let rows = body["matrix"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut because: Vec<String> = rows
        .iter()
        .map(|row| row_phrase(row, pacticipant, verdicts))
        .collect();
    if because.is_empty() {
        because.push(body["summary"]["reason"].as_str().unwrap_or("").to_owned());
    }
    Ok(Answer {
        pacticipant,
        version,
        deployable: body["summary"]["deployable"].as_bool(),
        because,
        query,
    })
}

/// `counterpart version: verified` / `failed (layer: CODE, …)` / `not verified`.
fn row_phrase(row: &Value, pacticipant: &str, verdicts: &[PactVerdict]) -> String {
    let side = if row["consumer"]["name"] == pacticipant {
        &row["provider"]
    } else {
        &row["consumer"]
    };
    let who = format!(
        "{} {}",
        side["name"].as_str().unwrap_or("?"),
        side["version"]["number"].as_str().unwrap_or("?")
    );
    let result = &row["verificationResult"];
    match result["success"].as_bool() {
        Some(true) => format!("{who}: verified"),
        Some(false) => {
            let href = result["_links"]["self"]["href"].as_str().unwrap_or("");
            format!("{who}: failed ({})", reasons_of(href, verdicts))
        }
        None => format!("{who}: not verified"),
    }
}

/// The `layer: CODE` pairs of the verification published at `href`.
fn reasons_of(href: &str, verdicts: &[PactVerdict]) -> String {
    let codes: BTreeSet<String> = verdicts
        .iter()
        .filter(|v| !href.is_empty() && v.href == href)
        .flat_map(|v| &v.failures)
        .map(|f| format!("{}: {}", f.layer, f.reason_code))
        .collect();
    if codes.is_empty() {
        "see the verification".to_owned()
    } else {
        codes.into_iter().collect::<Vec<_>>().join(", ")
    }
}

/// The page of a published verification: `{broker}/ui` followed by the
/// API path of the result.
pub fn verification_page(broker: &str, href: &str) -> String {
    let path = match reqwest::Url::parse(href) {
        Ok(url) => url.path().to_owned(),
        Err(_) => href.strip_prefix(broker).unwrap_or(href).to_owned(),
    };
    format!("{broker}/ui{path}")
}
