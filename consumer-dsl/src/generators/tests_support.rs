//! Finding the conformance data in unit tests: the integration tests'
//! helper, included so the locator is written once.

use std::path::PathBuf;

#[path = "../../tests/it/support.rs"]
mod support;

/// The pact-compatibility-suite fixtures folder, or `None` (after saying
/// why) when the conformance data is missing; under `CI=true` a missing
/// folder fails the test instead.
pub(crate) fn fixtures_dir() -> Option<PathBuf> {
    support::conformance_dir("pact-compatibility-suite/fixtures")
}

/// The Pact specification's folder (`version-*/testcases/…`), or `None`
/// as [`fixtures_dir`] says.
pub(crate) fn specification_dir() -> Option<PathBuf> {
    support::conformance_dir("pact-specification")
}

/// Every `.json` file below `dir`, sorted.
pub(crate) fn json_files_in(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    support::json_files(dir, &mut out);
    out.sort();
    out
}
