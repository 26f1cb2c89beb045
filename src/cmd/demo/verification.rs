//! One provider version's CI build: the pacts the broker selects for it,
//! replayed by the verifier, the results published — the functions
//! `accord verify --broker-url … --publish` runs.

use accord_verifier::{ContractResult, ContractSource, Outcome, VerificationReport};
use anyhow::{Context, bail};

use super::providers::RunningProvider;
use super::scenario::PROVIDER_BRANCH;
use crate::client::BrokerClient;
use crate::cmd::verify_fetch::{self, FetchedPact, Selection};
use crate::cmd::verify_publish::{self, Target};

/// WIP pacts published since then are verified too (the broker is new:
/// every pact is younger).
const WIP_SINCE: &str = "2020-01-01";

/// A finding, as the demo prints it.
#[derive(Debug, Clone)]
pub struct Failure {
    pub interaction: String,
    pub reason_code: &'static str,
    pub layer: &'static str,
    pub path: String,
}

/// The verification of one pact by one provider version.
#[derive(Debug, Clone)]
pub struct PactVerdict {
    pub consumer: String,
    /// Why the broker selected it (`latest from main branch`, …).
    pub selected_as: String,
    pub pending: bool,
    pub passed: bool,
    pub interactions: usize,
    /// How many of them failed.
    pub failed_interactions: usize,
    pub failures: Vec<Failure>,
    /// The published verification result (`…/verification-results/N`).
    pub href: String,
}

/// Runs the build of `provider`: selectors as a provider's CI sets them
/// (its main branch and whatever is deployed or released, the defaults of
/// `accord verify`), pending and WIP pacts on, results published with the
/// provider version and branch.
pub fn verify(
    client: &BrokerClient,
    provider: &RunningProvider,
) -> anyhow::Result<Vec<PactVerdict>> {
    let label = provider.version.label();
    let fetched = verify_fetch::fetch(client, provider.version.name, &selection())
        .with_context(|| format!("cannot fetch the pacts {label} must verify"))?;
    let loaded = fetched.pacts.iter().map(|p| p.sourced.clone()).collect();
    let config = provider.verify_config(ContractSource::Loaded(loaded));
    let drivers = accord_verifier::default_drivers();
    let report = accord_verifier::verify_on_threads(&config, drivers, None)
        .with_context(|| format!("cannot verify {label}"))?;
    let target = Target {
        provider: provider.version.name.to_owned(),
        version: provider.version.version.to_owned(),
        branch: Some(PROVIDER_BRANCH.to_owned()),
        tags: Vec::new(),
        build_url: None,
        declarations: report.declarations.clone(),
        producer_digest: None,
        evidence_ttl_seconds: None,
    };
    let publication = verify_publish::publish(client, &fetched.pacts, &report.contracts, &target);
    if !publication.failures.is_empty() {
        bail!("{}", publication.failures.join("; "));
    }
    check_report(&report)?;
    let each = fetched.pacts.iter().zip(&report.contracts);
    let verdicts = each
        .zip(publication.published)
        .map(|((pact, result), published)| verdict(pact, result, published.map(|p| p.href)))
        .collect();
    Ok(verdicts)
}

/// What a provider's CI asks for: its main branch and whatever is
/// deployed or released (`accord verify`'s default selectors), pending
/// and WIP pacts on.
fn selection() -> Selection {
    Selection {
        selectors: Vec::new(),
        provider_branch: Some(PROVIDER_BRANCH.to_owned()),
        provider_tags: Vec::new(),
        include_pending: true,
        wip_since: Some(WIP_SINCE.to_owned()),
    }
}

/// The verdict on one pact, published at `href`.
fn verdict(pact: &FetchedPact, result: &ContractResult, href: Option<String>) -> PactVerdict {
    let failed = result.interactions.iter();
    PactVerdict {
        consumer: result.consumer.clone(),
        selected_as: pact.short_description.clone(),
        pending: result.pending,
        passed: result.passed(),
        interactions: result.interactions.len(),
        failed_interactions: failed.filter(|i| i.outcome == Outcome::Failed).count(),
        failures: failures(result),
        href: href.unwrap_or_default(),
    }
}

/// Every finding of a contract's result, its own and its interactions'.
fn failures(result: &ContractResult) -> Vec<Failure> {
    let own = result.findings.iter().map(|f| ("(the contract)", f));
    let of_interactions = result
        .interactions
        .iter()
        .flat_map(|i| i.findings.iter().map(move |f| (i.description.as_str(), f)));
    own.chain(of_interactions)
        .map(|(interaction, f)| Failure {
            interaction: interaction.to_owned(),
            reason_code: f.reason_code,
            layer: f.layer.as_str(),
            path: f.path.clone(),
        })
        .collect()
}

/// A run that replayed nothing did not verify anything.
fn check_report(report: &VerificationReport) -> anyhow::Result<()> {
    if report.contracts.is_empty() {
        bail!("the verifier replayed no contract of {}", report.provider);
    }
    Ok(())
}
