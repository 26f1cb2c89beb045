//! Helpers shared by the CLI tests.

use std::path::PathBuf;

use assert_cmd::Command;

/// A fresh directory under the system temp dir for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("accord-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// The `accord` binary built for these tests.
pub fn accord() -> Command {
    Command::cargo_bin("accord").expect("accord binary")
}

/// `accord verify` of provider `items` (the fixtures provider, with its
/// state-change URL) against the broker at `broker_url`.
pub fn verify_items(broker_url: &str, provider: &accord_fixtures::http::HttpProvider) -> Command {
    let mut cmd = accord();
    cmd.args(["verify", "--provider", "items", "--provider-base-url"])
        .arg(provider.base_url())
        .arg("--state-change-url")
        .arg(provider.state_change_url())
        .args(["--broker-url", broker_url]);
    cmd
}

/// The repository root (where `examples/` lives).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
