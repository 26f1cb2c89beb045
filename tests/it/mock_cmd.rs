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

/// `spec` (relative to the repository) compiled into `dir/name`.
fn compile(spec: &std::path::Path, dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let out = dir.join(name);
    let o = accord()
        .args(["contract", "compile"])
        .arg(spec)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{o:?}");
    out
}

/// An MCP contract of one call, pinned to 2026-07-28 (one POST a call).
const PLAN_TOOLS: &str = "consumer: orchestrator\nprovider: plan-tools\nprotocols: { mcp: \"2026-07-28\" }\ninteractions:\n  - mcp: make a plan\n    tool: make_plan\n    arguments: { goal: ship }\n    expect: { text: planned }\n";

/// A consumer "test": GET /items/7 from the items mock, and (with `mcp`)
/// call make_plan on the plan-tools mock, each found through its own
/// variable; the single-contract variable is not set.
fn orchestrator(mcp: bool) -> String {
    let mut script = String::from(
        "import os, json, urllib.request\n\
         assert 'ACCORD_MOCK_URL' not in os.environ\n\
         r = urllib.request.urlopen(os.environ['ACCORD_MOCK_URL_ITEMS'] + '/items/7')\n\
         assert r.status == 200\n\
         assert os.environ['ACCORD_MCP_URL_PLAN_TOOLS'] == os.environ['ACCORD_MOCK_URL_PLAN_TOOLS'] + '/mcp'\n",
    );
    if mcp {
        script.push_str(
            "meta = {'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}}\n\
             body = {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call', 'params': {'name': 'make_plan', 'arguments': {'goal': 'ship'}, '_meta': meta}}\n\
             req = urllib.request.Request(os.environ['ACCORD_MCP_URL_PLAN_TOOLS'], data=json.dumps(body).encode(), headers={\n\
                 'content-type': 'application/json', 'accept': 'application/json, text/event-stream',\n\
                 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'make_plan'})\n\
             assert 'planned' in urllib.request.urlopen(req).read().decode()\n",
        );
    }
    script
}

#[test]
fn one_mock_serves_several_contracts_each_provider_under_its_own_variable() {
    let Some(python) = python() else { return };
    let dir = temp_dir("mock-cmd-several");
    let root = crate::support::repo_root();
    let http = compile(
        &root.join("examples/walkthrough/web.yaml"),
        &dir,
        "web-items.json",
    );
    std::fs::write(dir.join("plan-tools.yaml"), PLAN_TOOLS).expect("write");
    let mcp = compile(&dir.join("plan-tools.yaml"), &dir, "plan-tools.json");
    let out = dir.join("pacts");
    let run = |with_mcp: bool| {
        accord()
            .args(["mock", "--contract"])
            .arg(&http)
            .arg("--contract")
            .arg(&mcp)
            .arg("--out")
            .arg(&out)
            .args(["--", &python, "-c", &orchestrator(with_mcp)])
            .output()
            .expect("runs")
    };

    // both exercised as written: both written, each surface printed with its provider
    let o = run(true);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("items: HTTP http://127.0.0.1:"), "{stdout}");
    assert!(
        stdout.contains("plan-tools: MCP http://127.0.0.1:"),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!("mock: items ({})", http.display())),
        "{stderr}"
    );
    assert!(out.join("web-items.json").exists(), "{stderr}");
    assert!(
        out.join("orchestrator-plan-tools.json").exists(),
        "{stderr}"
    );
    drop(std::fs::remove_dir_all(&out));

    // only the HTTP contract exercised: it is written, the MCP one is not and fails the run
    let o = run(false);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the contract {} was not exercised as written",
            mcp.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("MISS   0x  MCP/ToolCall  make a plan"),
        "{stderr}"
    );
    let written: Vec<_> = std::fs::read_dir(&out)
        .expect("out")
        .map_while(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(written, ["web-items.json"], "{stderr}");
    drop(std::fs::remove_dir_all(&dir));
}

#[test]
fn two_contracts_of_one_provider_are_refused() {
    let dir = temp_dir("mock-cmd-same-provider");
    let web = crate::support::repo_root().join("examples/walkthrough/web.yaml");
    let http = compile(&web, &dir, "web-items.json");
    let o = accord()
        .args(["mock", "--contract"])
        .arg(&http)
        .arg("--contract")
        .arg(&http)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("would share ACCORD_MOCK_URL_ITEMS"),
        "{o:?}"
    );
    drop(std::fs::remove_dir_all(&dir));
}
