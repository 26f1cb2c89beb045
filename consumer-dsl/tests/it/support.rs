//! Finding the conformance data, which lives outside the project at
//! `../shared/conformance` (or `ACCORD_CONFORMANCE_DIR`). Shared by the
//! integration tests and, through `#[path]`, by the library's unit tests.
//!
//! A missing folder makes the caller skip (after saying why); under
//! `CI=true` it fails the test instead.

// Each includer uses only some of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `sub` (e.g. `pact-specification`, `pact-compatibility-suite/fixtures`)
/// below the conformance root, or `None` after saying why it is missing.
pub fn conformance_dir(sub: &str) -> Option<PathBuf> {
    let root = std::env::var_os("ACCORD_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance"));
    let dir = root.join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "conformance data missing at {} (required under CI=true)",
        dir.display()
    );
    eprintln!("skipped: conformance data missing at {}", dir.display());
    None
}

/// Every `.json` file below `dir`, recursively, appended to `out`.
pub fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// Cases for the no-panic properties: 512 by default, `PROPTEST_CASES` runs more.
pub fn proptest_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(512)
}
