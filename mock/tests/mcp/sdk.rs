//! The official Python `mcp` client (`tests/peers/mcp_client.py`) against
//! the mock, in both eras. Needs `ACCORD_PYTHON`, a Python with `mcp`
//! installed (`.ci/run` sets it); without it the tests say they skipped,
//! except under `CI=true`.

use accord_mock::{MockMismatch, MockServer};
use serde_json::{Value, json};

use super::*;

/// The Python to run the SDK client with, or `None` (said) when the test
/// skips.
fn python() -> Option<String> {
    match std::env::var("ACCORD_PYTHON") {
        Ok(p) if !p.is_empty() => Some(p),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but ACCORD_PYTHON (a Python with the mcp SDK) is not set")
        }
        _ => {
            eprintln!("skipped the SDK client: ACCORD_PYTHON is not set");
            None
        }
    }
}

/// Runs `tests/peers/mcp_client.py` against `mock` in `mode`: its JSON
/// summary.
fn sdk_client(python: &str, mock: &MockServer, mode: &str, case: &str) -> Value {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/mcp_client.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(mock.mcp_url().expect("an MCP surface"))
        .args(["--mode", mode, "--case", case])
        .output()
        .expect("the client runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"))
}

#[test]
fn the_python_sdk_client_exercises_the_contract_in_both_eras() {
    let Some(python) = python() else { return };
    for (mode, pin, version) in [("auto", MODERN, MODERN), ("legacy", LEGACY, LEGACY)] {
        let mock = MockServer::start(&contract(pin)).expect("starts");
        let seen = sdk_client(&python, &mock, mode, "good");
        assert_eq!(seen["protocol_version"], version, "{seen}");
        assert_eq!(seen["tools"]["make_plan"]["title"], "Make plan", "{seen}");
        assert_eq!(
            seen["plan"]["structured"]["steps"],
            json!(["search", "summarise"]),
            "{seen}"
        );
        assert_eq!(seen["missing"]["is_error"], true, "{seen}");
        assert_eq!(seen["shred"]["error_code"], -32602, "{seen}");
        let report = mock.verify();
        assert!(report.ok, "{mode}: {}", report.table());
    }
}

#[test]
fn the_python_sdk_client_calling_with_arguments_the_contract_does_not_allow_fails_the_report() {
    let Some(python) = python() else { return };
    for (mode, pin) in [("auto", MODERN), ("legacy", LEGACY)] {
        let mock = MockServer::start(&contract(pin)).expect("starts");
        let seen = sdk_client(&python, &mock, mode, "bad");
        assert_eq!(seen["plan"]["is_error"], true, "{seen}");
        let text = seen["plan"]["text"].as_str().unwrap_or_default();
        assert!(text.contains("argument 'max_steps'"), "{text}");
        let report = mock.verify();
        assert!(!report.ok);
        let named = report.mismatches.iter().any(|m| matches!(m,
            MockMismatch::RequestMismatch { mismatches, .. } if mismatches.iter().any(|x| x.path == "$.arguments.max_steps")));
        assert!(named, "{mode}: {}", report.table());
    }
}
