//! `accord verify --publish`: sends each pact's results back to the broker
//! the way Pact's verifier does (reference §2.3): the provider version onto
//! its branch (`PUT pb:branch-version` of the pact's `pb:provider`), each tag
//! (`PUT pb:version-tag`), then `POST pb:publish-verification-results` with
//! Pact's body plus Accord's `findings`. A failure before the results are
//! posted stops the publication; a pact whose results are refused does not
//! stop the others'. Only a refused connection or a 429 is retried for the
//! results (a 5xx may have stored them).

use anyhow::{Context, bail};
use reqwest::Method;
use serde_json::json;

use accord_verifier::ContractResult;

use super::verify_fetch::{FetchedPact, expand};
use crate::client::{BrokerClient, link};

/// The provider version the results are for.
#[derive(Debug, Clone)]
pub struct Target {
    pub version: String,
    pub branch: Option<String>,
    pub tags: Vec<String>,
    pub build_url: Option<String>,
}

/// Publishes every result (`results[i]` belongs to `pacts[i]`); returns,
/// for each, the href of the published verification or why it is not
/// published. An error when nothing could be published.
pub fn publish(
    client: &BrokerClient,
    pacts: &[FetchedPact],
    results: &[ContractResult],
    target: &Target,
) -> anyhow::Result<Vec<anyhow::Result<String>>> {
    if let Some(provider_href) = pacts.iter().find_map(|p| p.provider_href.as_deref()) {
        register_version(client, provider_href, target)
            .context("no verification results were published")?;
    } else if target.branch.is_some() || !target.tags.is_empty() {
        bail!(
            "no verification results were published: the pacts carry no pb:provider link to record the provider's branch or tags"
        );
    }
    Ok(pacts
        .iter()
        .zip(results)
        .map(|(pact, result)| publish_one(client, pact, result, target))
        .collect())
}

/// Puts the provider version on its branch and tags it.
fn register_version(
    client: &BrokerClient,
    provider_href: &str,
    target: &Target,
) -> anyhow::Result<()> {
    let provider = client
        .get(provider_href)
        .context("cannot read the provider from the broker")?;
    let version = target.version.as_str();
    if let Some(branch) = &target.branch {
        let template = link(&provider, "pb:branch-version", None).context(
            "the broker has no pb:branch-version link (Pact Broker 2.86.0 or later records branches)",
        )?;
        let href = expand(template, &[("branch", branch), ("version", version)]);
        client
            .expect_ok(Method::PUT, &href, Some(&json!({})))
            .with_context(|| format!("cannot put provider version {version} on branch {branch}"))?;
    }
    for tag in &target.tags {
        let template = link(&provider, "pb:version-tag", None)
            .context("the broker has no pb:version-tag link")?;
        let href = expand(template, &[("version", version), ("tag", tag)]);
        client
            .expect_ok(Method::PUT, &href, Some(&json!({})))
            .with_context(|| format!("cannot tag provider version {version} with {tag}"))?;
    }
    Ok(())
}

fn publish_one(
    client: &BrokerClient,
    pact: &FetchedPact,
    result: &ContractResult,
    target: &Target,
) -> anyhow::Result<String> {
    let href = pact.publish_href.as_deref().with_context(|| {
        format!(
            "the pact at {} has no pb:publish-verification-results link",
            pact.sourced.source
        )
    })?;
    let mut body = result.publication(&target.version, env!("CARGO_PKG_VERSION"));
    if let (Some(url), Some(map)) = (&target.build_url, body.as_object_mut()) {
        map.insert("buildUrl".into(), json!(url));
    }
    let reply = client.post(href, &body).with_context(|| {
        format!(
            "cannot publish the verification results of {}'s pact ({})",
            result.consumer, pact.sourced.source
        )
    })?;
    Ok(link(&reply, "self", None).unwrap_or(href).to_owned())
}
