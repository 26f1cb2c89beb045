//! The README's "Try it" and "Walk-through", pasted in order as a newcomer
//! would, with the `accord` built for these tests first on the PATH and
//! `cargo run --release --` read as `accord` (the README says they are the
//! same). Two lines are skipped, and said so: `cargo test --workspace` (this
//! test is part of that run) and `cargo install --path . --locked` (the
//! built binary stands for the installed one).
//!
//! "Try it" runs block by block: a block starting a process that runs until
//! Ctrl-C (`serve`, `demo`) is started and waited for until it is ready, and
//! gets SIGINT (what Ctrl-C sends) where the README's text between blocks
//! says Ctrl-C; starting one while another still runs, or leaving one
//! running into the walk-through, fails the test (both would want port
//! 9292). The walk-through's blocks run as one bash script (its `&` jobs and
//! `cd` carry over from block to block), without `RUST_LOG`: its terminal
//! must show no access-log line of the background broker.
//!
//! Everything runs in a temporary folder holding a copy of `examples/`, so
//! the repository gets no `accord.db` or contract file.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Prose between blocks, or a ```sh block.
#[derive(Debug)]
enum Piece {
    Prose(String),
    Block(String),
}

/// The README section under `## {heading}`, up to the next `## `.
fn section<'a>(readme: &'a str, heading: &str) -> &'a str {
    let start = readme
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("the README has a {heading} section"));
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    &rest[..end]
}

/// The section's prose and ```sh blocks, in order.
fn pieces(section: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut rest = section;
    while let Some(open) = rest.find("```sh\n") {
        out.push(Piece::Prose(rest[..open].to_owned()));
        let body = &rest[open + 6..];
        let close = body.find("```").expect("a closed block");
        out.push(Piece::Block(body[..close].to_owned()));
        rest = &body[close + 3..];
    }
    out.push(Piece::Prose(rest.to_owned()));
    out
}

/// A process the README leaves running until Ctrl-C.
struct Foreground {
    line: String,
    child: Child,
}

impl Drop for Foreground {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The line a process that runs until Ctrl-C prints once it is ready.
fn ready_line(line: &str) -> Option<&'static str> {
    if line.starts_with("accord serve") {
        Some("accord broker listening on")
    } else if line.starts_with("accord demo") && !line.contains("--no-serve") {
        Some("Serving the broker")
    } else {
        None
    }
}

/// Starts `line` (`accord …`) and waits for its `ready` line.
fn start(line: &str, ready: &str, dir: &Path) -> Foreground {
    let child = Command::new(assert_cmd::cargo::cargo_bin("accord"))
        .args(line.split_whitespace().skip(1))
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let mut running = Foreground {
        line: line.to_owned(),
        child,
    };
    let stdout = running.child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    loop {
        let l = rx
            .recv_timeout(Duration::from_secs(300))
            .unwrap_or_else(|_| panic!("{line} never printed {ready:?}:\n{seen}"));
        seen.push_str(&l);
        seen.push('\n');
        if l.starts_with(ready) {
            // keep reading so a full pipe never blocks it
            std::thread::spawn(move || while rx.recv().is_ok() {});
            return running;
        }
    }
}

/// Ctrl-C: SIGINT, and the process must stop cleanly.
fn interrupt(mut running: Foreground) {
    Command::new("kill")
        .args(["-INT", &running.child.id().to_string()])
        .status()
        .expect("kill runs");
    let status = running.child.wait().expect("it exits");
    assert!(status.success(), "{} after Ctrl-C: {status}", running.line);
}

/// Runs one line of a block that ends by itself.
fn run_line(line: &str, dir: &Path, path: &str) {
    let out = Command::new("bash")
        .args(["-c", line])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("RUST_LOG")
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{line}: {}\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// "Try it" pasted in order; returns the lines skipped.
fn try_it(readme: &str, dir: &Path, path: &str) -> Vec<String> {
    let mut skipped = Vec::new();
    let mut running: Option<Foreground> = None;
    for piece in pieces(section(readme, "Try it")) {
        let code = match piece {
            Piece::Prose(text) => {
                if text.contains("Ctrl-C")
                    && let Some(stopped) = running.take()
                {
                    interrupt(stopped);
                }
                continue;
            }
            Piece::Block(code) => code,
        };
        for line in code.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if line.starts_with("cargo test") || line.starts_with("cargo install") {
                skipped.push(line.to_owned());
                continue;
            }
            let line = line.replace("cargo run --release --", "accord");
            assert!(line.starts_with("accord "), "{line}");
            match ready_line(&line) {
                Some(ready) => {
                    if let Some(other) = &running {
                        panic!("`{line}` while `{}` still runs", other.line);
                    }
                    running = Some(start(&line, ready, dir));
                }
                None => run_line(&line, dir, path),
            }
        }
    }
    if let Some(left) = running {
        panic!(
            "\"Try it\" leaves `{}` running into the walk-through",
            left.line
        );
    }
    skipped
}

/// Copies `from` into `to`, folders included.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from)
        .expect("read_dir")
        .map_while(Result::ok)
    {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

#[test]
fn the_readme_try_it_and_walk_through_run_as_pasted_in_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let clone = tempfile::tempdir().expect("a temp dir");
    copy_dir(&root.join("examples"), &clone.path().join("examples"));
    let bin = assert_cmd::cargo::cargo_bin("accord");
    let dir = bin.parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let skipped = try_it(&readme, clone.path(), &path);
    assert_eq!(
        skipped,
        ["cargo test --workspace", "cargo install --path . --locked"],
        "the only lines not run"
    );
    assert!(clone.path().join("planning-agent.json").exists());
    let blocks: Vec<String> = pieces(section(&readme, "Walk-through"))
        .into_iter()
        .filter_map(|p| match p {
            Piece::Block(code) => Some(code),
            Piece::Prose(_) => None,
        })
        .collect();
    assert!(blocks.len() >= 4, "{blocks:?}");
    // stop what the blocks started even when one of them fails
    let script = format!(
        "set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n{}",
        blocks.concat()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(clone.path())
        .env("PATH", path)
        .env_remove("RUST_LOG")
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{stdout}\n{stderr}", out.status);
    assert!(stdout.contains("Computer says yes"), "{stdout}");
    assert!(stdout.contains("Verification PASSED"), "{stdout}");
    // the terminal shows the answers, not the background broker's log
    let terminal = format!("{stdout}{stderr}");
    assert!(!terminal.contains("method="), "{terminal}");
    assert!(!terminal.contains("mock: "), "{terminal}");
    let log = std::fs::read_to_string("/tmp/accord-walkthrough/broker.log").unwrap_or_default();
    assert!(
        log.contains("method="),
        "the access log is in broker.log:\n{log}"
    );
}
