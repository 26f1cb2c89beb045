//! Which provider scenarios run, and why the others are skipped.

use crate::suite::Case;

/// The provider-side feature files.
pub fn is_provider_feature(case: &Case) -> bool {
    case.file.ends_with("http_provider.feature") || case.file.ends_with("message_provider.feature")
}

/// The reason a scenario is out of scope, or `None` when it runs.
pub fn skip_reason(case: &Case) -> Option<String> {
    let text = |needle: &str| case.steps.iter().any(|s| s.value.contains(needle));
    if case.tags.iter().any(|t| t == "wip") {
        return Some("tagged @wip upstream (work in progress in the suite)".into());
    }
    if text("Pact broker") {
        return Some("needs a mock Pact broker the suite steps drive; this runner does not start one (the broker source itself is tested in tests/it/verify_broker.rs)".into());
    }
    if text("request filter") {
        return Some("request filters are not part of Accord's verifier".into());
    }
    if text("comment") {
        return Some("interaction comments are not printed by Accord's verifier".into());
    }
    if text("warning will be displayed") {
        return Some(
            "Accord does not print a warning for states without a state-change URL".into(),
        );
    }
    if text("with \"\" as the provider state parameter") {
        return Some(
            "Accord does not call the state-change URL for an interaction without provider states"
                .into(),
        );
    }
    None
}
