//! The two verifier runs on one pact file: `accord verify --output json`
//! and `pact verifier --json`, each read back as a verdict per description.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::harness::Target;
use crate::support::accord;

/// Accord's verdict per description: passed, and the findings.
pub fn run_accord(file: &Path, target: &Target) -> HashMap<String, (bool, Vec<Value>)> {
    let mut cmd = accord();
    cmd.args(["verify", "--provider", "items", "--output", "json"])
        .args(["--provider-base-url", &target.base_url])
        .args(["--state-change-url", &target.state_url])
        .arg("--contract")
        .arg(file);
    if let Some(path) = &target.message_path {
        cmd.args(["--message-url", &format!("{}{path}", target.base_url)]);
    }
    let out = cmd.output().expect("run accord verify");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "accord verify printed no JSON report ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut results = HashMap::new();
    for i in report["contracts"][0]["interactions"]
        .as_array()
        .expect("interactions")
    {
        let findings = i["findings"].as_array().cloned().unwrap_or_default();
        let description = i["description"].as_str().expect("description").to_owned();
        results.insert(description, (i["outcome"] == "passed", findings));
    }
    results
}

/// Pact's verdict on one interaction: `None` when it passed, else where
/// it placed the mismatches.
pub type PactVerdict = Option<Vec<String>>;

/// Pact's verdict per description (`None`, with a printed reason, without
/// the Pact CLI; a failure under `CI=true`).
pub fn run_pact(file: &Path, dir: &Path, target: &Target) -> Option<BTreeMap<String, PactVerdict>> {
    let bin = pact_cli_or_skip()?;
    let url = target.base_url.trim_start_matches("http://");
    let (host, port) = url.split_once(':').expect("host:port");
    let report = dir.join("pact-report.json");
    let mut cmd = Command::new(bin);
    cmd.args([
        "verifier",
        "--no-colour",
        "-n",
        "items",
        "-h",
        host,
        "-p",
        port,
    ])
    .args(["--state-change-url", &target.state_url])
    .args(["--request-timeout", "10000", "--retries", "0", "--json"])
    .arg(&report)
    .arg("-f")
    .arg(file)
    .env("PACT_DO_NOT_TRACK", "true");
    if let Some(path) = &target.message_path {
        cmd.args(["--base-path", path]);
    }
    let out = cmd.output().expect("run pact verifier");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json: Value = std::fs::read(&report)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| {
            panic!(
                "pact verifier wrote no report:\n{stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    if std::env::var_os("ACCORD_PACT_CLI_SHOW").is_some() {
        eprintln!("{stdout}\n{json:#}");
    }
    let errors: Vec<&Value> = json["errors"].as_array().into_iter().flatten().collect();
    let pact: Value = serde_json::from_slice(&std::fs::read(file).expect("pact")).expect("pact");
    let mut verdicts = BTreeMap::new();
    for i in pact["interactions"]
        .as_array()
        .or_else(|| pact["messages"].as_array())
        .into_iter()
        .flatten()
    {
        let d = i["description"].as_str().expect("description");
        if stdout.contains(d) {
            let key = format!(" - {d}");
            let error = errors
                .iter()
                .find(|e| e["interaction"].as_str().is_some_and(|f| f.ends_with(&key)));
            verdicts.insert(d.to_owned(), error.map(|e| places(e)));
        }
    }
    Some(verdicts)
}

/// Where Pact's report places the mismatches of one failed interaction.
fn places(error: &Value) -> Vec<String> {
    let mismatches = error["mismatch"]["mismatches"].as_array();
    mismatches
        .into_iter()
        .flatten()
        .filter_map(|m| match m["type"].as_str() {
            Some("StatusMismatch") => Some("status".to_owned()),
            _ => m["path"].as_str().or(m["key"].as_str()).map(str::to_owned),
        })
        .collect()
}

/// The Pact CLI named by `ACCORD_PACT_CLI` (as in `pact_cli::tools`).
fn pact_cli_or_skip() -> Option<std::path::PathBuf> {
    match std::env::var("ACCORD_PACT_CLI") {
        Ok(path) if !path.is_empty() => Some(path.into()),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but ACCORD_PACT_CLI is not set")
        }
        _ => {
            eprintln!(
                "compared Accord's verdicts with the expected ones only: ACCORD_PACT_CLI is not set \
                 (pip install pact-python-cli, then ACCORD_PACT_CLI=/path/to/venv/bin/pact)"
            );
            None
        }
    }
}
