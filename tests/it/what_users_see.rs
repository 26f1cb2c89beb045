//! What users read from the CLI, as reviewed snapshots (`insta`, files in
//! `snapshots/`): every command's `--help`, the `verify` summary, the
//! can-i-deploy answers and lint's report. Ports, durations and temporary
//! paths are redacted; a change to any other character is a snapshot diff.

use std::path::Path;

use accord_fixtures::http::HttpProvider;
use serde_json::json;

use crate::support::{accord, temp_dir};

/// `accord` with none of the variables its options read from the
/// environment, so what a developer has set does not show, and help
/// wrapped at 100 columns whatever terminal runs the tests (no terminal
/// on any standard stream: clap then reads `COLUMNS`; stdin is an empty
/// pipe).
fn clean_accord() -> assert_cmd::Command {
    let mut cmd = accord();
    cmd.env("COLUMNS", "100").write_stdin("");
    for (name, _) in std::env::vars() {
        if name.starts_with("ACCORD_") || name.starts_with("PACT_") || name == "DATABASE_URL" {
            cmd.env_remove(name);
        }
    }
    cmd
}

/// Runs `cmd`: its exit code, standard output and standard error, as one text.
fn run(mut cmd: assert_cmd::Command) -> String {
    let out = cmd.output().expect("accord runs");
    let code = out
        .status
        .code()
        .map_or("none (a signal)".to_owned(), |c| c.to_string());
    let mut text = format!("exit code: {code}\n");
    for (name, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        if !bytes.is_empty() {
            text.push_str(&format!("--- {name}\n{}", String::from_utf8_lossy(bytes)));
        }
    }
    text
}

/// Snapshots `text` as `name`, exactly.
fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ omit_expression => true }, {
        insta::assert_snapshot!(name, text);
    });
}

/// Snapshots the output of a run as `name`, with `dir` (the test's
/// temporary directory), loopback ports and durations redacted.
fn snapshot_run(name: &str, text: &str, dir: Option<&Path>) {
    let dir = dir.map(|d| regex_escape(&d.to_string_lossy()));
    let mut filters = vec![
        (r"127\.0\.0\.1:\d+", "127.0.0.1:[port]"),
        (r"\b\d+(\.\d+)? ?(ms|s)\b", "[duration]"),
    ];
    if let Some(dir) = &dir {
        filters.insert(0, (dir.as_str(), "[dir]"));
    }
    insta::with_settings!({ filters => filters, omit_expression => true }, {
        insta::assert_snapshot!(name, text);
    });
}

/// `text` as a regex that matches it literally.
fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '/' || c == '-' || c == '_' {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}

/// The subcommands a `--help` text lists under `Commands:` (not `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // a wrapped description continues on a deeper-indented line
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_commands_help() {
    let mut queue = vec![Vec::<String>::new()];
    let mut seen = 0;
    while let Some(path) = queue.pop() {
        let mut cmd = clean_accord();
        cmd.env_clear()
            .env("COLUMNS", "100")
            .args(&path)
            .arg("--help");
        let out = cmd.output().expect("accord runs");
        assert_eq!(out.status.code(), Some(0), "accord {path:?} --help");
        let help = String::from_utf8_lossy(&out.stdout).into_owned();
        for sub in subcommands(&help) {
            let mut deeper = path.clone();
            deeper.push(sub);
            queue.push(deeper);
        }
        let name = if path.is_empty() {
            "help".to_owned()
        } else {
            format!("help_{}", path.join("_"))
        };
        snapshot(&name, &help);
        seen += 1;
    }
    assert!(seen > 20, "the walk found {seen} commands");
}

#[test]
fn the_verify_summary_of_a_pass_and_a_failure() {
    let provider = HttpProvider::start().expect("provider");
    let dir = temp_dir("seen-verify");
    let contract = dir.join("web-items.json");
    let item = |id: i64, description: &str, body: serde_json::Value| {
        json!({
            "type": "Synchronous/HTTP",
            "description": description,
            "providerStates": [{"name": "an item exists", "params": {"id": id}}],
            "request": {"method": "GET", "path": format!("/items/{id}")},
            "response": {"status": 200, "body": {"content": body},
                         "matchingRules": {"body": {"$.name": {"matchers": [{"match": "type"}]}}}}
        })
    };
    let doc = json!({
        "consumer": {"name": "web"},
        "provider": {"name": "items"},
        "interactions": [
            item(7, "get item 7", json!({"id": 7, "name": "anything"})),
            item(8, "get item 8 with its price", json!({"id": 8, "name": "widget", "price": 10})),
        ],
        "metadata": {"pactSpecification": {"version": "4.0"}}
    });
    std::fs::write(&contract, doc.to_string()).expect("contract");
    let mut cmd = clean_accord();
    cmd.args(["verify", "--provider", "items", "--provider-base-url"])
        .arg(provider.base_url())
        .arg("--state-change-url")
        .arg(provider.state_change_url())
        .arg("--contract")
        .arg(&contract)
        .args(["--jobs", "1"]); // the live lines in contract order
    snapshot_run("verify_summary", &run(cmd), Some(&dir));
}

#[test]
fn can_i_deploy_yes_and_no() {
    let broker = crate::can_i_deploy_cmd::seeded_broker();
    for (name, to) in [("can_i_deploy_yes", "prod"), ("can_i_deploy_no", "broken")] {
        let mut cmd = clean_accord();
        cmd.args(["can-i-deploy", "--broker-url", &broker.url])
            .args(["--pacticipant", "Foo", "--version", "1", "--to", to]);
        snapshot_run(name, &run(cmd), None);
    }
}

#[test]
fn lint_of_a_pact_with_warnings() {
    let dir = temp_dir("seen-lint");
    let file = dir.join("web-items.json");
    let doc = json!({
        "consumer": {"name": "web"},
        "provider": {"name": "items"},
        "interactions": [{
            "type": "Synchronous/HTTP",
            "description": "get item 7",
            "request": {"method": "GET", "path": "/items/7", "querry": "full=true"},
            "response": {"statsu": 200, "body": {"id": 7}}
        }],
        "metadata": {"pactSpecification": {"version": "4.0"}}
    });
    std::fs::write(&file, doc.to_string()).expect("pact");
    let mut cmd = clean_accord();
    cmd.args(["contract", "lint"]).arg(&file);
    snapshot_run("lint_warnings", &run(cmd), Some(&dir));
}
