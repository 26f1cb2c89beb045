//! `accord mock` as an A2A agent, driven by the official a2a-sdk client
//! (tests/peers/a2a_mock_client.py): stream, get, failed cancel, list, a
//! held task (sent with its delegation record) canceled — and the runs that
//! must fail.

use crate::peers::python;
use crate::support::{RunningMock, accord, repo_root, temp_dir};

fn run(
    python: &str,
    out: &std::path::Path,
    principal: &str,
    extra: &[&str],
) -> std::process::Output {
    let root = repo_root();
    accord()
        .args(["mock", "--contract"])
        .arg(root.join("tests/peers/a2a_mock_client.yaml"))
        .args(["--principal", principal, "--out"])
        .arg(out)
        .args(["--", python])
        .arg(root.join("tests/peers/a2a_mock_client.py"))
        .args(extra)
        .output()
        .expect("runs")
}

#[test]
fn the_a2a_sdk_client_exercises_the_contract_through_the_mock() {
    let Some(python) = python() else { return };
    let dir = temp_dir("mock-a2a");
    let out = dir.join("pacts");
    let o = run(&python, &out, "alice=token-a", &[]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("A2A http://127.0.0.1:"), "{stdout}");
    assert!(stdout.contains("/.well-known/agent-card.json"), "{stdout}");
    assert!(
        stderr.contains("every interaction was exercised"),
        "{stderr}"
    );
    let written = out.join("orchestrator-planning-agent.json");
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&written).expect("written")).expect("json");
    assert_eq!(back["interactions"][0]["type"], "A2A/Task");
    drop(std::fs::remove_dir_all(&dir));
}

#[test]
fn a_message_the_contract_does_not_expect_or_a_wrong_token_fails_the_run() {
    let Some(python) = python() else { return };
    let dir = temp_dir("mock-a2a-fail");
    let out = dir.join("pacts");
    let o = run(&python, &out, "alice=token-a", &["--off-contract"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("request mismatch for SendMessage /a2a"),
        "{stderr}"
    );
    assert!(stderr.contains("not written"), "{stderr}");
    assert!(!out.exists());
    let o = run(&python, &out, "alice=another-token", &[]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("not principal 'alice''s"), "{stderr}");
    assert!(!out.exists());
    drop(std::fs::remove_dir_all(&dir));
}

/// The slow plan's delegation record, sent by the SDK in the message's
/// metadata (a protobuf Struct: its counts arrive as doubles), must be the
/// contract's: another `maxDepth` fails the run, naming the path.
#[test]
fn a_send_with_another_delegation_record_fails_the_run() {
    let Some(python) = python() else { return };
    let dir = temp_dir("mock-a2a-delegation");
    let out = dir.join("pacts");
    let o = run(&python, &out, "alice=token-a", &["--wrong-delegation"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("body $.message.metadata.delegation.maxDepth"),
        "{stderr}"
    );
    assert!(stderr.contains("the slow plan was refused"), "{stderr}");
    assert!(!out.exists());
    drop(std::fs::remove_dir_all(&dir));
}

/// The mock is a provider that keeps the contract it was built from:
/// Accord's own verifier passes it (a disagreement between what the mock
/// serves and what the verifier judges shows here).
#[test]
fn the_verifier_passes_the_mock_built_from_the_same_contract() {
    let root = repo_root();
    let contract = root.join("tests/peers/a2a_mock_client.yaml");
    let dir = temp_dir("mock-a2a-verify");
    let compiled = dir.join("contract.json");
    let o = accord()
        .args(["contract", "compile"])
        .arg(&contract)
        .arg("-o")
        .arg(&compiled)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{o:?}");
    let mock = RunningMock::start(
        &[
            "--principal".as_ref(),
            "alice=token-a".as_ref(),
            "--contract".as_ref(),
            compiled.as_os_str(),
        ],
        "A2A",
    );
    let base = mock.url.trim_end_matches("/.well-known/agent-card.json");
    let o = accord()
        .args([
            "verify",
            "--provider",
            "planning-agent",
            "--principal",
            "alice=token-a",
        ])
        .args(["--provider-base-url", base, "--contract"])
        .arg(&compiled)
        .output()
        .expect("runs");
    drop(mock);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("2 passed, 0 failed"), "{stdout}");
    drop(std::fs::remove_dir_all(&dir));
}
