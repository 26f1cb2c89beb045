//! Which scenarios this harness runs, and why it skips the others.
//!
//! In scope: scenarios that need only the contract model, the Pact file
//! writer, the generators and the matcher. Out of scope (reported as
//! SKIPPED with the reason, never silently dropped): scenarios that verify
//! a provider or talk to a broker, and those that start the HTTP mock
//! server. accord-mock's harness (`mock/tests/compat`) includes this file
//! and runs exactly the scenarios skipped here with [`IN_MOCK_HARNESS`], so
//! none is counted twice and none vanishes.

use crate::suite::Case;

/// The skip reason of the scenarios accord-mock's harness runs.
pub const IN_MOCK_HARNESS: &str = "needs the HTTP mock server: runs in accord-mock's harness (cargo test -p accord-mock --test compat)";

/// The reason a scenario is out of scope, or `None` when it runs.
pub fn skip_reason(case: &Case) -> Option<String> {
    if case.file.ends_with("_provider.feature") || case.tags.iter().any(|t| t == "provider") {
        return Some("needs the provider verifier: runs in accord-verifier's harness (cargo test -p accord-verifier --test compat)".into());
    }
    if case.tags.iter().any(|t| t == "wip") {
        return Some("tagged @wip upstream (work in progress in the suite)".into());
    }
    let text = |needle: &str| case.steps.iter().any(|s| s.value.contains(needle));
    if text("broker") || text("Broker") {
        return Some("needs the Pact broker (broker issue)".into());
    }
    if text("mock server") {
        return Some(IN_MOCK_HARNESS.into());
    }
    None
}
