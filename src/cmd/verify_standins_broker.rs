//! `accord verify --dependencies-from-broker`: the provider's own latest
//! contracts with its dependencies, read from the broker (the provider
//! under test the consumer) — from its main branch where it has one, else
//! its latest — each to be served as a stand-in under its provider's name.

use accord_dsl::Contract;

use crate::client::{BrokerClient, segment};

/// The latest contracts in which `provider` is the consumer, by their
/// provider's name (characters a name may not hold become `_`).
pub fn fetch(client: &BrokerClient, provider: &str) -> anyhow::Result<Vec<(String, Contract)>> {
    let integrations = client.get("/integrations")?;
    let me = client.get(&format!("/pacticipants/{}", segment(provider)))?;
    let main = me["mainBranch"].as_str();
    let mut out = Vec::new();
    let listed = integrations["_embedded"]["integrations"].as_array();
    for pair in listed.into_iter().flatten() {
        let Some(dep) = pair["provider"]["name"].as_str() else {
            continue;
        };
        if pair["consumer"]["name"].as_str() != Some(provider) {
            continue;
        }
        let body = latest(client, dep, provider, main)?;
        let origin = format!("the broker's latest contract of {provider} with {dep}");
        out.push((name_of(dep), accord_dsl::pact::from_value(&body, &origin)?));
    }
    Ok(out)
}

/// The latest pact of `consumer` with `provider` on the consumer's `main`
/// branch, else (no main branch, or none published on it) its latest.
fn latest(
    client: &BrokerClient,
    provider: &str,
    consumer: &str,
    main: Option<&str>,
) -> anyhow::Result<serde_json::Value> {
    let base = format!(
        "/pacts/provider/{}/consumer/{}",
        segment(provider),
        segment(consumer)
    );
    if let Some(branch) = main {
        let on_main = format!("{base}/branch/{}/latest", segment(branch));
        let reply = client.send(reqwest::Method::GET, &on_main, None)?;
        if reply.status == 200 {
            return Ok(reply.body);
        }
    }
    client.get(&format!("{base}/latest"))
}

/// A dependency name from a pacticipant's: other characters become `_`.
fn name_of(pacticipant: &str) -> String {
    pacticipant
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
