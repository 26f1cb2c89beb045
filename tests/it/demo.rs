//! `accord demo`: once (`--no-serve`), its verdicts, answers and URLs; and
//! serving, its pages answering until SIGINT stops it and removes its
//! database.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::support::accord;

/// The broker's URL: the line after the `Broker` heading.
fn broker_url(stdout: &str) -> String {
    let mut lines = stdout.lines().skip_while(|l| *l != "Broker");
    let line = lines.nth(1).expect("a line after Broker");
    line.split_whitespace().next().expect("a URL").to_owned()
}

/// The temporary directory of the database (`(SQLite …/accord.db)`).
fn database_dir(stdout: &str) -> PathBuf {
    let line = stdout
        .lines()
        .find(|l| l.contains("(SQLite "))
        .expect("the database line");
    let path = line
        .split("(SQLite ")
        .nth(1)
        .and_then(|rest| rest.strip_suffix(')'))
        .expect("a path");
    PathBuf::from(path)
        .parent()
        .expect("a directory")
        .to_owned()
}

/// The line of the answer for `name version`.
fn answer<'a>(stdout: &'a str, who: &str) -> &'a str {
    let start = format!("  {who} → production: ");
    stdout
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no answer for {who}:\n{stdout}"))
}

/// The verification pages printed (`…/ui/pacts/…/verification-results/N`).
fn verification_pages(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("http://") && l.contains("/verification-results/"))
        .map(str::to_owned)
        .collect()
}

/// `{broker}/ui/pacts/provider/P/consumer/C/pact-version/SHA/verification-results/N`.
fn has_verification_page_shape(url: &str, broker: &str) -> bool {
    let Some(path) = url.strip_prefix(&format!("{broker}/ui/pacts/provider/")) else {
        return false;
    };
    let parts: Vec<&str> = path.split('/').collect();
    parts.len() == 7
        && parts[1] == "consumer"
        && parts[3] == "pact-version"
        && parts[4].len() >= 40
        && parts[4].chars().all(|c| c.is_ascii_hexdigit())
        && parts[5] == "verification-results"
        && parts[6].parse::<u32>().is_ok()
}

#[test]
fn the_demo_verifies_deploys_and_answers_from_real_runs() {
    let out = accord()
        .args(["demo", "--no-serve", "--port", "0"])
        .env_remove("RUST_LOG")
        .timeout(Duration::from_secs(180))
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    // the good versions pass every pact, the faulty ones fail with their code
    let failed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("FAILED"))
        .collect();
    assert_eq!(failed.len(), 5, "{stdout}");
    let passed = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("passed"))
        .count();
    assert_eq!(passed, 5, "{stdout}");
    assert!(stdout.contains("schema CONTENT_MODE_MISMATCH"), "{stdout}");
    assert!(
        stdout.contains("SIDE_EFFECT_DECLARATION_MISMATCH"),
        "{stdout}"
    );
    // can-i-deploy: yes for the good, no for the faulty, naming the reason
    assert!(answer(&stdout, "planning-agent 2.0.0").contains(": yes"));
    assert!(answer(&stdout, "plan-tools 3.2.0").contains(": yes"));
    let no = answer(&stdout, "planning-agent 2.1.0");
    assert!(
        no.contains(": no")
            && no.contains("release-orchestrator 1.4.0: failed (schema: CONTENT_MODE_MISMATCH"),
        "{no}"
    );
    let no = answer(&stdout, "plan-tools 3.3.0");
    assert!(
        no.contains(": no") && no.contains("ops-console 2.3.0: failed"),
        "{no}"
    );
    // the delegation chain: the planner's downstream work judged through
    // its tool server's stand-in, exactly the seed's three findings
    assert!(answer(&stdout, "work-planner 1.0.0").contains(": yes"));
    let no = answer(&stdout, "work-planner 1.1.0");
    assert!(
        no.contains(": no")
            && no.contains(
                "release-orchestrator 1.4.0: failed (authorization: CREDENTIAL_FORWARDED, \
                 behavior: DELEGATION_FORBIDDEN_ACTION, trace: TRACE_CONTEXT_BROKEN)"
            ),
        "{no}"
    );
    assert!(answer(&stdout, "release-orchestrator 1.5.0").contains(": yes"));
    // the URLs have their pages' shapes
    let broker = broker_url(&stdout);
    assert!(broker.starts_with("http://127.0.0.1:"), "{broker}");
    assert!(stdout.contains(&format!("{broker}/ui/matrix")));
    assert!(
        stdout.contains("this run, --no-serve, stops its broker when it ends"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!(
        "{broker}/ui/can-i-deploy?pacticipant=planning-agent&version=2.1.0&environment=production"
    )));
    let pages = verification_pages(&stdout);
    assert_eq!(pages.len(), 5, "{stdout}");
    for page in &pages {
        assert!(has_verification_page_shape(page, &broker), "{page}");
    }
    assert!(
        !database_dir(&stdout).exists(),
        "the temporary database is removed"
    );
}

/// Reads `child`'s standard output line by line on a thread.
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// What it printed up to and including the `Serving` line.
fn until_serving(lines: &mpsc::Receiver<String>) -> String {
    let mut text = String::new();
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(180))
            .unwrap_or_else(|_| panic!("no Serving line:\n{text}"));
        text.push_str(&line);
        text.push('\n');
        if line.starts_with("Serving") {
            return text;
        }
    }
}

fn get(client: &reqwest::blocking::Client, url: &str, accept: &str) -> (u16, String) {
    let reply = client
        .get(url)
        .header("Accept", accept)
        .send()
        .expect("the demo's broker answers");
    let status = reply.status().as_u16();
    (status, reply.text().unwrap_or_default())
}

/// The serving demo, killed if the test fails before stopping it (a demo
/// left running would hold its port and temp folder and hang CI).
struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

#[test]
fn the_serving_demo_answers_its_pages_and_cleans_up_on_sigint() {
    // stderr to a file: a pipe nobody reads until the end could fill and block the demo
    let stderr_file = tempfile::NamedTempFile::new().expect("a temp file");
    let mut serving = Serving(
        Command::new(assert_cmd::cargo::cargo_bin("accord"))
            .args(["demo", "--port", "0"])
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(stderr_file.reopen().expect("the temp file"))
            .spawn()
            .expect("accord demo starts"),
    );
    let child = &mut serving.0;
    let lines = lines_of(child);
    let stdout = until_serving(&lines);
    let broker = broker_url(&stdout);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::new();
    let (status, _) = get(&client, &format!("{broker}/ui/matrix"), "text/html");
    assert_eq!(status, 200, "the matrix page");
    let pages = verification_pages(&stdout);
    let page = pages.first().expect("a failed verification's page");
    let (status, _) = get(&client, page, "text/html");
    assert_eq!(status, 200, "{page}");
    let (status, body) = get(
        &client,
        &format!("{broker}/matrix?q[][pacticipant]=planning-agent&latestby=cvpv"),
        "application/hal+json",
    );
    assert_eq!(status, 200, "{body}");
    let matrix: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert!(
        matrix["matrix"]
            .as_array()
            .is_some_and(|rows| !rows.is_empty()),
        "{matrix}"
    );
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    let mut rest = String::new();
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(30)) {
        rest.push_str(&line);
        rest.push('\n');
    }
    let status = child.wait().expect("exits");
    let stderr = std::fs::read_to_string(stderr_file.path()).unwrap_or_default();
    assert!(status.success(), "{status:?}\n{rest}\n{stderr}");
    assert!(rest.contains("Stopped (SIGINT)"), "{rest}");
    assert!(!database_dir(&stdout).exists(), "the database is removed");
}
