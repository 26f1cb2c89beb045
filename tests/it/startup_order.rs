//! `link/startup-symbols.txt`, the order build.rs gives the linker for
//! the release binary (ARCHITECTURE.md "Start-up and idle memory"): lld
//! matches each line to a symbol exactly and skips a line it cannot find
//! without a word, so a list written by hand or demangled by mistake
//! would silently order nothing. These are the linker names it expects.

use std::collections::HashSet;
use std::path::Path;

fn lines() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("link/startup-symbols.txt");
    let text = std::fs::read_to_string(&path).expect("link/startup-symbols.txt");
    text.lines().map(str::to_owned).collect()
}

fn is_linker_name(line: &str) -> bool {
    let mut chars = line.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic());
    first_ok && chars.all(|c| c.is_ascii_alphanumeric() || "_.$".contains(c))
}

#[test]
fn startup_symbols_are_mangled_linker_names_once_each() {
    let lines = lines();
    assert!(
        lines.len() > 1000,
        "{} names: regenerate the list",
        lines.len()
    );
    let bad: Vec<&String> = lines
        .iter()
        .filter(|l| !is_linker_name(l))
        .take(5)
        .collect();
    assert!(bad.is_empty(), "not linker names: {bad:?}");
    let unique: HashSet<&String> = lines.iter().collect();
    assert_eq!(unique.len(), lines.len(), "a name listed twice");
    // Rust names as the linker sees them (legacy `_ZN…E` and v0 `_R…`),
    // with the binary's own entry point among them
    assert!(lines.iter().any(|l| l.starts_with("_ZN6accord4main17h")));
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("_ZN") || l.starts_with("_R"))
            .count()
            > 1000
    );
}
