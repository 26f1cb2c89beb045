//! Pact's legacy mode, for a broker without `pb:provider-pacts-for-verification`
//! (a Pact Broker older than 2.60): the latest pact of each consumer
//! (`pb:latest-provider-pacts`), or the pacts of consumer versions with a
//! tag (`pb:latest-provider-pacts-with-tag`, `pb:provider-pacts-with-tag`),
//! each collection's `pb:pacts` (or the deprecated `pacts`) fetched one by
//! one. Such a broker knows neither pending nor WIP pacts; selectors other
//! than tags cannot be asked of it.

use anyhow::{Context, bail};
use reqwest::Method;
use serde_json::Value;

use super::verify_fetch::{Fetched, FetchedPact, NoPacts, Selection, expand, fetch_pact};
use crate::client::{BrokerClient, describe_error, link};

/// One provider-pacts collection to read.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Query {
    /// The latest pact of each consumer.
    Latest,
    /// The pact of each consumer's latest version with the tag.
    LatestTagged(String),
    /// The pacts of every consumer version with the tag.
    Tagged(String),
}

impl Query {
    fn relation(&self) -> &'static str {
        match self {
            Query::Latest => "pb:latest-provider-pacts",
            Query::LatestTagged(_) => "pb:latest-provider-pacts-with-tag",
            Query::Tagged(_) => "pb:provider-pacts-with-tag",
        }
    }

    fn tag(&self) -> &str {
        match self {
            Query::Latest => "",
            Query::LatestTagged(tag) | Query::Tagged(tag) => tag,
        }
    }

    fn describe(&self) -> String {
        match self {
            Query::Latest => "latest".to_owned(),
            Query::LatestTagged(tag) => format!("latest with tag {tag}"),
            Query::Tagged(tag) => format!("with tag {tag}"),
        }
    }
}

/// The collection a selector stands for, if a legacy broker has one.
fn query(selector: &Value) -> Option<Query> {
    let map = selector.as_object()?;
    if map.keys().any(|k| k != "tag" && k != "latest") {
        return None;
    }
    let latest = match map.get("latest") {
        None => false,
        Some(value) => value.as_bool()?,
    };
    match (map.get("tag"), latest) {
        (Some(Value::String(tag)), true) => Some(Query::LatestTagged(tag.clone())),
        (Some(Value::String(tag)), false) => Some(Query::Tagged(tag.clone())),
        (None, true) => Some(Query::Latest),
        _ => None,
    }
}

/// The collections for the user's selectors (none: the latest pacts).
fn queries(selectors: &[Value]) -> Result<Vec<Query>, &Value> {
    if selectors.is_empty() {
        return Ok(vec![Query::Latest]);
    }
    selectors.iter().map(|s| query(s).ok_or(s)).collect()
}

/// Fetches the pacts the selection stands for from a legacy broker.
pub fn fetch(
    client: &BrokerClient,
    index: &Value,
    provider: &str,
    selection: &Selection,
) -> anyhow::Result<Fetched> {
    let broker = client.url("/");
    let queries = match queries(&selection.selectors) {
        Ok(queries) => queries,
        Err(selector) => bail!(
            "the broker at {broker} has no pb:provider-pacts-for-verification (a Pact Broker older than 2.60): it can only select pacts by tag ({{\"tag\":T,\"latest\":true}}, {{\"tag\":T}}, {{\"latest\":true}} or --consumer-version-tags), not by {selector}"
        ),
    };
    let what = queries
        .iter()
        .map(Query::describe)
        .collect::<Vec<_>>()
        .join(", ");
    let mut pacts: Vec<FetchedPact> = Vec::new();
    for query in &queries {
        for href in collection(client, index, provider, query)? {
            match pacts.iter_mut().find(|p| p.sourced.source == href) {
                Some(known) => {
                    known.short_description.push_str(", ");
                    known.short_description.push_str(&query.describe());
                }
                None => pacts.push(fetch_pact(client, &href, &query.describe())?),
            }
        }
    }
    if pacts.is_empty() {
        let text = format!(
            "no pacts were found for provider {provider} at {broker} (Pact's legacy mode: {what})"
        );
        return Err(NoPacts(text).into());
    }
    Ok(Fetched {
        pacts,
        notices: notices(&broker, &what, selection),
    })
}

/// What the user is told: legacy mode, and what it cannot do.
fn notices(broker: &str, what: &str, selection: &Selection) -> Vec<String> {
    let mut notices = vec![format!(
        "The broker at {broker} has no pb:provider-pacts-for-verification (a Pact Broker older than 2.60), so pacts are chosen in Pact's legacy mode: {what}"
    )];
    if selection.include_pending || selection.wip_since.is_some() {
        notices.push(
            "This broker cannot tell pending or work-in-progress pacts: --enable-pending and --include-wip-since are ignored".to_owned(),
        );
    }
    notices
}

/// The pact hrefs of one provider-pacts collection (none when the broker
/// does not know the provider).
fn collection(
    client: &BrokerClient,
    index: &Value,
    provider: &str,
    query: &Query,
) -> anyhow::Result<Vec<String>> {
    let template = link(index, query.relation(), None).with_context(|| {
        format!(
            "the broker at {} has neither pb:provider-pacts-for-verification nor {}",
            client.url("/"),
            query.relation()
        )
    })?;
    let url = expand(template, &[("provider", provider), ("tag", query.tag())]);
    let reply = client.send(Method::GET, &url, None)?;
    match reply.status {
        404 => return Ok(Vec::new()),
        200..=299 => {}
        _ => bail!("GET {url} failed: {}", describe_error(&reply)),
    }
    let links = &reply.body["_links"];
    let list = links
        .get("pb:pacts")
        .or_else(|| links.get("pacts"))
        .and_then(Value::as_array)
        .with_context(|| format!("the broker's answer from {url} has no pb:pacts links"))?;
    list.iter()
        .map(|l| {
            l["href"]
                .as_str()
                .map(str::to_owned)
                .with_context(|| format!("a pb:pacts link from {url} has no href"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn no_selectors_read_the_latest_pacts() {
        assert_eq!(queries(&[]), Ok(vec![Query::Latest]));
    }

    #[test]
    fn tag_selectors_map_to_the_tagged_collections() {
        let selectors = [
            json!({"tag": "prod", "latest": true}),
            json!({"tag": "dev"}),
            json!({"tag": "test", "latest": false}),
            json!({"latest": true}),
        ];
        assert_eq!(
            queries(&selectors),
            Ok(vec![
                Query::LatestTagged("prod".into()),
                Query::Tagged("dev".into()),
                Query::Tagged("test".into()),
                Query::Latest,
            ])
        );
    }

    #[test]
    fn a_selector_a_legacy_broker_cannot_answer_is_named() {
        for bad in [
            json!({"mainBranch": true}),
            json!({"tag": "prod", "consumer": "web"}),
            json!({"tag": "prod", "latest": "yes"}),
            json!({"deployedOrReleased": true}),
            json!({"latest": false}),
        ] {
            let selectors = [json!({"tag": "prod"}), bad.clone()];
            assert_eq!(queries(&selectors), Err(&bad));
        }
    }
}
