//! `accord mock`: around the consumer's test command (a Python client
//! here), writing the contract only when it was exercised as written.

use serde_json::json;

use crate::peers::python;
use crate::support::{accord, items_pact, temp_dir};

/// A consumer "test" that GETs each path from ACCORD_MOCK_URL and fails
/// unless each answer is 200.
fn consumer(paths: &[&str]) -> String {
    let list = serde_json::to_string(paths).expect("json");
    format!(
        "import os, urllib.request\nfor p in {list}:\n    r = urllib.request.urlopen(os.environ['ACCORD_MOCK_URL'] + p)\n    assert r.status == 200, r.status\n"
    )
}

#[test]
fn the_contract_is_written_only_when_the_command_exercised_it_as_written() {
    let Some(python) = python() else { return };
    let dir = temp_dir("mock-cmd");
    let contract = dir.join("web-items.json");
    let pact = items_pact("web", json!({"id": 7, "name": "lamp"}));
    std::fs::write(&contract, pact.to_string()).expect("write");
    let out = dir.join("pacts");

    let run = |paths: &[&str]| {
        accord()
            .args(["mock", "--contract"])
            .arg(&contract)
            .arg("--out")
            .arg(&out)
            .args(["--", &python, "-c", &consumer(paths)])
            .output()
            .expect("runs")
    };

    // an unexpected request: the command fails (500), nothing written
    let o = run(&["/items/8"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unexpected request: GET /items/8"), "{err}");
    assert!(
        err.contains("expected but not received: GET /items/7"),
        "{err}"
    );
    assert!(!out.exists());

    // exercised as written: the contract is written, the URL was printed
    let o = run(&["/items/7"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("HTTP http://127.0.0.1:"));
    let written = out.join("web-items.json");
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&written).expect("written")).expect("json");
    assert_eq!(back["interactions"][0]["description"], "get item 7");
    drop(std::fs::remove_dir_all(&dir));
}

#[test]
fn a_failing_command_fails_the_run_and_a_bad_contract_is_a_usage_error() {
    let dir = temp_dir("mock-cmd-fail");
    let contract = dir.join("web-items.json");
    let pact = items_pact("web", json!({"id": 7}));
    std::fs::write(&contract, pact.to_string()).expect("write");
    let o = accord()
        .args(["mock", "--contract"])
        .arg(&contract)
        .args(["--", "false"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("the command failed"));
    let o = accord()
        .args(["mock", "--contract"])
        .arg(dir.join("missing.json"))
        .args(["--", "true"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.json"));
    let o = accord()
        .args(["mock", "--contract"])
        .arg(&contract)
        .args(["--out", "x"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "--out needs a command: {o:?}");
    drop(std::fs::remove_dir_all(&dir));
}
