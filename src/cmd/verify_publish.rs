//! `accord verify --publish`: sends each pact's results back to the broker
//! the way Pact's verifier does (reference §2.3): the provider version onto
//! its branch (`PUT pb:branch-version` of the pact's `pb:provider`), each tag
//! (`PUT pb:version-tag`), then `POST pb:publish-verification-results` with
//! Pact's body plus Accord's `findings`. A failure before the results are
//! posted stops the publication; a pact whose results are refused does not
//! stop the others' (but a 403, which every pact would get, stops them, in
//! one line). Only a refused connection or a 429 is retried for the
//! results (a 5xx may have stored them). What the run read of the
//! provider's declarations (its Agent Card, each profile's tool list) is
//! put as the provider version's declarations first (Accord's broker).

use anyhow::Context;
use reqwest::Method;
use serde_json::json;

use accord_verifier::ContractResult;

use super::verify_fetch::{FetchedPact, expand};
use crate::client::{BrokerClient, Index, describe_error, link, segment};

/// The provider version the results are for.
#[derive(Debug, Clone)]
pub struct Target {
    /// The provider's name, as the broker knows it.
    pub provider: String,
    pub version: String,
    pub branch: Option<String>,
    pub tags: Vec<String>,
    pub build_url: Option<String>,
    /// The provider's declarations read during the run (listing digests),
    /// published with every result.
    pub declarations: Vec<accord_verifier::report::Declaration>,
    /// The producer artifact's digest (`--producer-digest`).
    pub producer_digest: Option<String>,
    /// How long the results stand as admission evidence (`--evidence-ttl`).
    pub evidence_ttl_seconds: Option<u64>,
}

/// Where one pact's published verification is.
#[derive(Debug, Clone)]
pub struct Published {
    /// The result's API URL (its `self` link).
    pub href: String,
    /// The page a person reads it on (Accord's broker links it as
    /// `accord:page`; a Pact Broker has none).
    pub page: Option<String>,
}

/// What publishing achieved.
#[derive(Debug, Default)]
pub struct Publication {
    /// For each pact, where its published verification is (`None`: not
    /// published).
    pub published: Vec<Option<Published>>,
    /// Why results were not published: one line per failure.
    pub failures: Vec<String>,
}

impl Publication {
    /// Nothing published for `count` pacts (`failure`, if any, says why).
    pub fn none(count: usize, failure: Option<String>) -> Publication {
        Publication {
            published: vec![None; count],
            failures: failure.into_iter().collect(),
        }
    }
}

/// Refuses, before any pact is fetched or replayed, a run whose results
/// the credential could not publish: Accord's broker names the role of the
/// credential on its index (`X-Accord-Role`), and publishing needs write.
/// A Pact Broker names none, and nothing is assumed of it.
pub fn check_role(index: &Index) -> anyhow::Result<()> {
    match index.role.as_deref() {
        Some("read") => anyhow::bail!(
            "--publish needs a credential with the write role, and this one has the read role: \
             nothing was verified. Use a write token (`accord token create --role write …`), \
             or verify without --publish"
        ),
        _ => Ok(()),
    }
}

/// Publishes every result (`results[i]` belongs to `pacts[i]`). A pact
/// whose results are refused does not stop the others; a provider version
/// that cannot be put on its branch or tagged stops them all.
pub fn publish(
    client: &BrokerClient,
    pacts: &[FetchedPact],
    results: &[ContractResult],
    target: &Target,
) -> Publication {
    let nothing = |why: String| {
        Publication::none(
            pacts.len(),
            Some(format!("no verification results were published: {why}")),
        )
    };
    if let Some(provider_href) = pacts.iter().find_map(|p| p.provider_href.as_deref()) {
        if let Err(err) = register_version(client, provider_href, target) {
            return nothing(format!("{err:#}"));
        }
    } else if target.branch.is_some() || !target.tags.is_empty() {
        return nothing(
            "the pacts carry no pb:provider link to record the provider's branch or tags".into(),
        );
    }
    let mut publication = Publication::default();
    publication.failures.extend(declare(client, target));
    for (i, (pact, result)) in pacts.iter().zip(results).enumerate() {
        match publish_one(client, pact, result, target) {
            Ok(published) => publication.published.push(Some(published)),
            Err(err) if err.downcast_ref::<Forbidden>().is_some() => {
                // the same credential is refused for every pact: once is enough
                publication.published.resize(pacts.len(), None);
                let rest = pacts.len() - i - 1;
                let skipped = match rest {
                    0 => String::new(),
                    n => format!(" (the results of {n} more pacts were not sent)"),
                };
                publication.failures.push(format!("{err}{skipped}"));
                break;
            }
            Err(err) => {
                publication.published.push(None);
                publication.failures.push(format!("{err:#}"));
            }
        }
    }
    publication
}

/// Publishes what the run read (the Agent Card, each profile's tool list)
/// as the provider version's declarations, so they name the digests that
/// were verified. A broker without declarations (a Pact Broker: 404) is
/// skipped; another refusal is a failure, said once per declaration.
fn declare(client: &BrokerClient, target: &Target) -> Vec<String> {
    let mut failures = Vec::new();
    let base = format!(
        "/pacticipants/{}/versions/{}/declarations",
        segment(&target.provider),
        segment(&target.version)
    );
    for d in &target.declarations {
        let Some(content) = d.content.0.as_deref() else {
            continue;
        };
        let path = match d.kind {
            "a2a/agent-card" => format!("{base}/agent-card"),
            _ => format!("{base}/mcp-tools/{}", segment(&d.profile)),
        };
        match client.send(Method::PUT, &path, Some(content)) {
            Ok(reply) if (200..300).contains(&reply.status) || reply.status == 404 => {}
            Ok(reply) => failures.push(format!(
                "the broker refused the {} declaration ({}): {}",
                d.kind,
                d.profile,
                describe_error(&reply)
            )),
            Err(err) => failures.push(format!("{err:#}")),
        }
    }
    failures
}

/// The broker refused a pact's results with 403: the credential may not
/// publish, for this pact or any other.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Forbidden(String);

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
) -> anyhow::Result<Published> {
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
    if let (false, Some(map)) = (target.declarations.is_empty(), body.as_object_mut()) {
        map.insert("declarations".into(), json!(target.declarations));
    }
    // Accord's evidence fields; a Pact Broker ignores them
    if let (Some(digest), Some(map)) = (&target.producer_digest, body.as_object_mut()) {
        map.insert("producerDigest".into(), json!(digest));
    }
    if let (Some(ttl), Some(map)) = (target.evidence_ttl_seconds, body.as_object_mut()) {
        map.insert("evidenceTtlSeconds".into(), json!(ttl));
    }
    let reply = client.send(Method::POST, href, Some(&body))?;
    match reply.status {
        200..=299 => Ok(Published {
            href: link(&reply.body, "self", None).unwrap_or(href).to_owned(),
            page: link(&reply.body, "accord:page", None).map(str::to_owned),
        }),
        403 => Err(Forbidden(format!(
            "the broker refused the verification results of {}'s pact: {}",
            result.consumer,
            describe_error(&reply)
        ))
        .into()),
        _ => Err(anyhow::anyhow!(
            "POST {} failed: {}",
            client.url(href),
            describe_error(&reply)
        ))
        .with_context(|| {
            format!(
                "cannot publish the verification results of {}'s pact ({})",
                result.consumer, pact.sourced.source
            )
        }),
    }
}
