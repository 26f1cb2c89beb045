//! `accord mock` as an MCP server is a provider that keeps the contract it
//! was built from: Accord's own verifier passes it in both eras (a
//! disagreement between what the mock serves and what the verifier judges
//! shows here). The contract is the conformance fixture
//! (tests/fixtures/mcp-conformance.yaml): content blocks, a tool error,
//! progress notifications, log messages, a protocol error with data.

use crate::support::{RunningMock, accord, repo_root, temp_dir};

/// The fixture compiled, pinned to `era`.
fn compiled(dir: &std::path::Path, era: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(repo_root().join("tests/fixtures/mcp-conformance.yaml"))
        .expect("the fixture");
    let pinned = text.replace("mcp: \"2026-07-28\"", &format!("mcp: \"{era}\""));
    assert!(pinned.contains(era), "the fixture pins an era");
    let spec = dir.join(format!("{era}.yaml"));
    std::fs::write(&spec, pinned).expect("written");
    let out = dir.join(format!("{era}.json"));
    let o = accord()
        .args(["contract", "compile"])
        .arg(&spec)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{o:?}");
    out
}

#[test]
fn the_verifier_passes_the_mcp_mock_built_from_the_same_contract_in_both_eras() {
    let dir = temp_dir("mock-mcp-verify");
    for era in ["2026-07-28", "2025-11-25"] {
        let contract = compiled(&dir, era);
        let mock = RunningMock::start(&["--contract".as_ref(), contract.as_os_str()], "MCP");
        let base = mock.url.trim_end_matches("/mcp");
        let o = accord()
            .args(["verify", "--provider", "accord-mock-conformance"])
            .args(["--provider-base-url", base, "--contract"])
            .arg(&contract)
            .output()
            .expect("runs");
        drop(mock);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{era}: {stdout}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(stdout.contains("11 passed, 0 failed"), "{era}: {stdout}");
    }
    drop(std::fs::remove_dir_all(&dir));
}

#[test]
fn a_provider_that_sends_no_log_messages_fails_with_log_message_not_sent() {
    let dir = temp_dir("mock-mcp-logs");
    for era in ["2026-07-28", "2025-11-25"] {
        let contract = compiled(&dir, era);
        // the provider: the same contract without its log messages
        let text = std::fs::read_to_string(&contract).expect("compiled");
        let mut silent: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let interactions = silent["interactions"].as_array_mut().expect("interactions");
        let before = interactions
            .iter()
            .filter(|i| i.get("logs").is_some())
            .count();
        assert_eq!(before, 1, "the fixture relies on log messages once");
        for i in interactions.iter_mut() {
            i.as_object_mut().map(|o| o.remove("logs"));
        }
        let provider = dir.join(format!("{era}-silent.json"));
        std::fs::write(&provider, silent.to_string()).expect("written");
        let mock = RunningMock::start(&["--contract".as_ref(), provider.as_os_str()], "MCP");
        let base = mock.url.trim_end_matches("/mcp");
        let o = accord()
            .args(["verify", "--provider", "accord-mock-conformance"])
            .args(["--provider-base-url", base, "--contract"])
            .arg(&contract)
            .output()
            .expect("runs");
        drop(mock);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{era}: {stdout}");
        assert!(stdout.contains("LOG_MESSAGE_NOT_SENT"), "{era}: {stdout}");
        assert!(stdout.contains("10 passed, 1 failed"), "{era}: {stdout}");
    }
    drop(std::fs::remove_dir_all(&dir));
}
