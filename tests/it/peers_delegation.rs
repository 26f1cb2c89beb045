//! The delegation chain on the official SDKs: an `a2a-sdk` agent whose tool
//! client is the official `mcp` SDK (`tests/peers/a2a_delegating_planner.py`)
//! verified by `accord verify` with its tool server stood in for from the
//! agent's own contract with it (`tests/peers/a2a_delegating_tools.yaml`),
//! the orchestrator's DRAFT_ONLY contract (`a2a_delegating_planner.yaml`)
//! judging what the agent does downstream. Wired both ways a provider team
//! can: by the provider-state change request's `dependencies`, and by
//! `accord verify … -- COMMAND` with `ACCORD_DEPENDENCY_MCP_URL_TOOLS`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::peers::{python, start};
use crate::support::{accord, repo_root, temp_dir};

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const SCRIPT: &str = "tests/peers/a2a_delegating_planner.py";

/// The orchestrator's spec compiled to a contract file.
fn planner_contract() -> PathBuf {
    let out = temp_dir("peer-delegation").join("orchestrator-planning-agent.json");
    let compiled = accord()
        .args(["contract", "compile"])
        .arg(repo_root().join("tests/peers/a2a_delegating_planner.yaml"))
        .arg("-o")
        .arg(&out)
        .output()
        .expect("runs");
    assert_eq!(compiled.status.code(), Some(0), "{}", stderr_of(&compiled));
    out
}

/// `accord verify` of the planner at `base` with the `tools` stand-in,
/// then `extra` arguments; the exit code and the JSON report.
fn verify(base: &str, extra: &[String]) -> (Option<i32>, Value) {
    let out = accord()
        .args([
            "verify",
            "--provider",
            "planning-agent",
            "--provider-base-url",
            base,
        ])
        .arg("--state-change-url")
        .arg(format!("{base}/_accord/state"))
        .args([
            "--request-timeout-ms",
            "15000",
            "--output",
            "json",
            "--contract",
        ])
        .arg(planner_contract())
        .arg("--dependency")
        .arg(format!(
            "tools={}",
            repo_root()
                .join("tests/peers/a2a_delegating_tools.yaml")
                .display()
        ))
        .args(extra)
        .output()
        .expect("runs");
    let report =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| Value::String(stderr_of(&out)));
    (out.status.code(), report)
}

/// The reason codes of every finding of the report.
fn codes(report: &Value) -> BTreeSet<String> {
    let interactions = report["contracts"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| c["interactions"].as_array().into_iter().flatten());
    interactions
        .flat_map(|i| i["findings"].as_array().into_iter().flatten())
        .filter_map(|f| f["reasonCode"].as_str().map(str::to_owned))
        .collect()
}

/// The observed chain of the run's one interaction: (kind, name).
fn chain(report: &Value) -> Vec<(String, String)> {
    let interaction = &report["contracts"][0]["interactions"][0];
    interaction["downstream"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let text = |k: &str| d[k].as_str().unwrap_or_default().to_owned();
            (text("kind"), text("name"))
        })
        .collect()
}

#[test]
fn the_sdk_planner_wired_by_provider_states_passes_and_its_synthetic_failure_is_three_findings() {
    let Some(python) = python() else { return };
    let good = start(&python, SCRIPT, None);
    let (code, report) = verify(&good.base, &[]);
    assert_eq!(code, Some(0), "{report:#}");
    assert!(codes(&report).is_empty(), "{report:#}");
    let tools: Vec<String> = chain(&report)
        .into_iter()
        .filter(|(kind, name)| kind == "mcp" && name != "initialize")
        .map(|(_, name)| name)
        .collect();
    assert!(
        tools.contains(&"meeting.search".to_owned()) && tools.contains(&"policy.check".to_owned()),
        "the chain shows the agent's tool calls: {tools:?}\n{report:#}"
    );
    let interaction = &report["contracts"][0]["interactions"][0];
    assert_eq!(
        interaction["traceId"].as_str().map(str::len),
        Some(32),
        "{report:#}"
    );

    let faulty = start(&python, SCRIPT, Some("synthetic"));
    let (code, report) = verify(&faulty.base, &[]);
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(
        codes(&report),
        BTreeSet::from([
            "DELEGATION_FORBIDDEN_ACTION".to_owned(),
            "CREDENTIAL_FORWARDED".to_owned(),
            "TRACE_CONTEXT_BROKEN".to_owned(),
        ]),
        "{report:#}"
    );
}

#[test]
fn each_fault_of_the_sdk_planner_is_its_own_finding() {
    let Some(python) = python() else { return };
    for (fault, code) in [
        ("register_tasks", "DELEGATION_FORBIDDEN_ACTION"),
        ("forward_token", "CREDENTIAL_FORWARDED"),
        ("drop_trace", "TRACE_CONTEXT_BROKEN"),
    ] {
        let peer = start(&python, SCRIPT, Some(fault));
        let (exit, report) = verify(&peer.base, &[]);
        assert_eq!(exit, Some(1), "{fault}: {report:#}");
        assert_eq!(
            codes(&report),
            BTreeSet::from([code.to_owned()]),
            "{fault}: {report:#}"
        );
    }
}

#[test]
fn the_sdk_planner_started_by_verify_learns_its_tool_server_from_the_environment() {
    let Some(python) = python() else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let command = |fault: Option<&str>| {
        let mut c = vec![
            "--".to_owned(),
            python.clone(),
            repo_root().join(SCRIPT).display().to_string(),
            "--port".to_owned(),
            port.to_string(),
            "--wiring".to_owned(),
            "env".to_owned(),
        ];
        if let Some(f) = fault {
            c.extend(["--fault".to_owned(), f.to_owned()]);
        }
        c
    };
    let (code, report) = verify(&base, &command(None));
    assert_eq!(code, Some(0), "{report:#}");
    let (code, report) = verify(&base, &command(Some("register_tasks")));
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(
        codes(&report),
        BTreeSet::from(["DELEGATION_FORBIDDEN_ACTION".to_owned()]),
        "{report:#}"
    );
}
