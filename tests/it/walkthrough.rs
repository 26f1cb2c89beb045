//! The README's "Walk-through": its shell blocks, exactly as written, run
//! in order by bash from the repository's root with the `accord` built for
//! these tests first on the PATH. It must end with can-i-deploy saying yes.

use std::path::Path;
use std::process::Command;

/// The ```sh blocks of the README section `## Walk-through`, in order.
fn walkthrough_blocks(readme: &str) -> Vec<String> {
    let start = readme
        .find("\n## Walk-through")
        .expect("the README has a Walk-through section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    let section = &rest[..end];
    section
        .split("```sh\n")
        .skip(1)
        .filter_map(|b| b.split_once("```").map(|(code, _)| code.to_owned()))
        .collect()
}

#[test]
fn the_readme_walk_through_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let blocks = walkthrough_blocks(&readme);
    assert!(blocks.len() >= 4, "{blocks:?}");
    assert!(blocks.iter().any(|b| b.contains("can-i-deploy")));
    let bin = assert_cmd::cargo::cargo_bin("accord");
    let dir = bin.parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // stop what the blocks started even when one of them fails
    let script = format!(
        "set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n{}",
        blocks.concat()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(root)
        .env("PATH", path)
        .env("RUST_LOG", "warn")
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Computer says yes"), "{stdout}");
    assert!(stdout.contains("Verification PASSED"), "{stdout}");
}
