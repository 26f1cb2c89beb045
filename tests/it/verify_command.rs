//! `accord verify … -- COMMAND`: the provider started by the verifier with
//! the stand-ins' URLs in its environment, waited for, and stopped after
//! the run; a command that exits at once is exit 2 naming it.

use std::net::TcpListener;
use std::path::Path;

use serde_json::{Value, json};

use crate::support::{accord, temp_dir};

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

fn write(path: &Path, doc: &Value) {
    std::fs::write(path, doc.to_string()).expect("write");
}

fn python() -> Option<String> {
    let p = std::env::var("ACCORD_PYTHON").unwrap_or_else(|_| "python3".into());
    let found = std::process::Command::new(&p)
        .arg("--version")
        .output()
        .is_ok();
    if !found && std::env::var("CI").as_deref() == Ok("true") {
        panic!("no Python ({p}) for the provider command");
    }
    found.then_some(p)
}

#[test]
fn a_provider_started_by_the_command_gets_the_dependency_urls_and_is_stopped_after() {
    let Some(python) = python() else {
        eprintln!("skipped: no python3 for the provider command");
        return;
    };
    let dir = temp_dir("verify-command");
    let port = free_port();
    let env_file = dir.join("env.json");
    let script = dir.join("provider.py");
    std::fs::write(
        &script,
        format!(
            "import os, json, http.server, urllib.request\n\
             open({:?}, 'w').write(json.dumps(dict(os.environ)))\n\
             class Site(http.server.SimpleHTTPRequestHandler):\n    \
                 def do_GET(self):\n        \
                     urllib.request.urlopen(os.environ['ACCORD_DEPENDENCY_URL_TOOL_SERVER'] + '/status').read()\n        \
                     super().do_GET()\n\
             http.server.HTTPServer(('127.0.0.1', {port}), Site).serve_forever()\n",
            env_file.display().to_string()
        ),
    )
    .expect("script");
    let contract = dir.join("web-site.json");
    write(
        &contract,
        &json!({"consumer": {"name": "web"}, "provider": {"name": "site"},
        "interactions": [{"type": "Synchronous/HTTP", "description": "the index",
            "request": {"method": "GET", "path": "/"}, "response": {"status": 200}}],
        "metadata": {"pactSpecification": {"version": "4.0"}}}),
    );
    let tools = dir.join("site-tools.json");
    write(
        &tools,
        &json!({"consumer": {"name": "site"}, "provider": {"name": "tools"},
        "interactions": [{"type": "MCP/ToolCall", "description": "search", "tool": "meeting.search",
            "arguments": {}, "result": {"content": [{"type": "text", "text": "ok"}]}},
            {"type": "Synchronous/HTTP", "description": "the status (the site asks it per page)",
             "request": {"method": "GET", "path": "/status"}, "response": {"status": 200}}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}}),
    );
    let out = accord()
        .current_dir(&dir)
        .args(["verify", "--provider", "site", "--provider-base-url"])
        .arg(format!("http://127.0.0.1:{port}"))
        .arg("--contract")
        .arg(&contract)
        .arg("--dependency")
        .arg(format!("tool-server={}", tools.display()))
        .args(["--provider-start-timeout", "20", "--"])
        .arg(&python)
        .arg(&script)
        .output()
        .expect("runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let env: Value =
        serde_json::from_slice(&std::fs::read(&env_file).expect("env written")).expect("json");
    let url = env["ACCORD_DEPENDENCY_URL_TOOL_SERVER"]
        .as_str()
        .expect("the stand-in's URL");
    assert!(url.starts_with("http://127.0.0.1:"), "{env}");
    assert_eq!(
        env["ACCORD_DEPENDENCY_MCP_URL_TOOL_SERVER"].as_str(),
        Some(format!("{url}/mcp").as_str())
    );
    assert!(
        env.get("ACCORD_DEPENDENCY_A2A_URL_TOOL_SERVER").is_none(),
        "{env}"
    );
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the provider was stopped after the run"
    );
    // the site called its stand-in (per page): no "never called" warning
    assert!(!stderr.contains("no interaction called it"), "{stderr}");
}

#[test]
fn a_provider_command_that_exits_at_once_is_exit_two_naming_it() {
    let dir = temp_dir("verify-command-exits");
    let contract = dir.join("web-site.json");
    write(
        &contract,
        &json!({"consumer": {"name": "web"}, "provider": {"name": "site"},
        "interactions": [{"type": "Synchronous/HTTP", "description": "the index",
            "request": {"method": "GET", "path": "/"}, "response": {"status": 200}}],
        "metadata": {"pactSpecification": {"version": "4.0"}}}),
    );
    let out = accord()
        .args(["verify", "--provider", "site", "--provider-base-url"])
        .arg(format!("http://127.0.0.1:{}", free_port()))
        .arg("--contract")
        .arg(&contract)
        .args(["--", "false"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the provider command `false` exited (exit status: 1) before"),
        "{stderr}"
    );
}
