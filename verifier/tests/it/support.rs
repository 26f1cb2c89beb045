//! Contracts as Pact V4 JSON, and running the verifier on them.

use std::time::Duration;

use accord_fixtures::http::HttpProvider;
use accord_verifier::{
    ContractSource, Finding, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::{Value, json};

/// A V4 contract from consumer `web` to provider `items` with these interactions.
pub fn contract(interactions: Vec<Value>) -> SourcedContract {
    let doc = json!({
        "consumer": {"name": "web"},
        "provider": {"name": "items"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "4.0"}}
    });
    SourcedContract {
        contract: accord_dsl::pact::from_value(&doc, "test").expect("valid contract"),
        source: "test".into(),
        pending: false,
        wip: false,
        linted: Default::default(),
    }
}

/// An HTTP interaction.
pub fn http(description: &str, request: Value, response: Value) -> Value {
    json!({"type": "Synchronous/HTTP", "description": description, "request": request, "response": response})
}

/// A configuration against the provider with states and observations.
pub fn config(provider: &HttpProvider, contracts: Vec<SourcedContract>) -> VerifyConfig {
    let mut c = VerifyConfig::new(
        "items",
        provider.base_url(),
        ContractSource::Loaded(contracts),
    );
    c.state_change_url = Some(provider.state_change_url());
    c.observe_url = Some(provider.observe_url());
    c.message_url = Some(provider.message_url());
    c.limits.request_timeout = Duration::from_secs(2);
    c
}

/// Runs the verifier.
pub fn run(config: &VerifyConfig) -> VerificationReport {
    verify_blocking(config).expect("no operational failure")
}

/// Every finding of the report.
pub fn findings(report: &VerificationReport) -> Vec<&Finding> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .collect()
}

/// `(layer, code, path)` of every finding.
pub fn codes(report: &VerificationReport) -> Vec<(&'static str, &'static str, String)> {
    findings(report)
        .into_iter()
        .map(|f| (f.layer.as_str(), f.reason_code, f.path.clone()))
        .collect()
}

/// A started provider.
pub fn provider() -> HttpProvider {
    HttpProvider::start().expect("fixture provider starts")
}
