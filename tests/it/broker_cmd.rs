//! CLI client commands against a real `accord serve`.

use predicates::str::contains;

use crate::broker::BrokerProcess;
use crate::support::accord;

#[test]
fn pacticipant_create_then_list_shows_it() {
    let broker = BrokerProcess::start(&[]);
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "Order Service",
            "--main-branch",
            "main",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success()
        .stdout(contains("created pacticipant Order Service"));
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "Order Service",
            "--repository-url",
            "https://git/x",
        ])
        .env("PACT_BROKER_BASE_URL", &broker.url)
        .assert()
        .success()
        .stdout(contains("updated pacticipant"));
    accord()
        .args(["pacticipant", "list", "--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains("Order Service\tmain\thttps://git/x"));
}

#[test]
fn a_token_closes_the_broker_to_anonymous_writes() {
    let broker = BrokerProcess::start(&[]);
    let out = accord()
        .args([
            "token",
            "create",
            "--role",
            "write",
            "--name",
            "ci",
            "--database-url",
            &broker.database_url,
        ])
        .output()
        .expect("token create runs");
    assert!(out.status.success());
    let secret = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "x",
            "--broker-url",
            &broker.url,
        ])
        .env_remove("ACCORD_BROKER_TOKEN")
        .env_remove("PACT_BROKER_TOKEN")
        .assert()
        .code(2)
        .stderr(contains("HTTP 401"))
        .stderr(contains("--token (or ACCORD_BROKER_TOKEN)"));
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "x",
            "--broker-url",
            &broker.url,
            "--token",
            &secret,
        ])
        .assert()
        .success();
    accord()
        .args([
            "pacticipant",
            "list",
            "--broker-url",
            &broker.url,
            "--broker-username",
            "ci",
            "--broker-password",
            &secret,
        ])
        .assert()
        .success()
        .stdout(contains("x\t"));
    let read_out = accord()
        .args([
            "token",
            "create",
            "--role",
            "read",
            "--name",
            "reader",
            "--database-url",
            &broker.database_url,
        ])
        .output()
        .expect("token create runs");
    let reader = String::from_utf8_lossy(&read_out.stdout).trim().to_owned();
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "y",
            "--broker-url",
            &broker.url,
            "--token",
            &reader,
        ])
        .assert()
        .code(2)
        .stderr(contains("HTTP 403"));
}

#[test]
fn serve_on_a_busy_port_fails_and_leaves_no_database_behind() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = busy.local_addr().expect("its address").to_string();
    // the default database (accord.db in the working directory) …
    let cwd = crate::support::temp_dir("serve-busy-port-cwd");
    accord()
        .args(["serve", "--bind", &addr])
        .current_dir(&cwd)
        .env_remove("DATABASE_URL")
        .assert()
        .code(2)
        .stderr(contains(format!("cannot listen on {addr}")))
        .stderr(contains("Address already in use"));
    let left: Vec<_> = std::fs::read_dir(&cwd).expect("read dir").collect();
    assert!(left.is_empty(), "files were created: {left:?}");
    // … and one named by --database-url
    let dir = crate::support::temp_dir("serve-busy-port");
    let db = dir.join("accord.db");
    accord()
        .args(["serve", "--bind", &addr, "--database-url"])
        .arg(&db)
        .assert()
        .code(2)
        .stderr(contains(format!("cannot listen on {addr}")));
    assert!(!db.exists(), "{} was created", db.display());
}

#[test]
fn a_token_command_refuses_a_database_that_does_not_exist() {
    let dir = crate::support::temp_dir("token-no-db");
    let db = dir.join("accord.db");
    accord()
        .args([
            "token",
            "create",
            "--role",
            "write",
            "--name",
            "ci",
            "--database-url",
        ])
        .arg(&db)
        .assert()
        .failure()
        .stderr(contains("no broker database at"))
        .stderr(contains("accord.db"));
    assert!(!db.exists(), "{} was created", db.display());
}

/// `accord serve` on a fresh database, logging at info: the process and
/// the address it printed.
fn serve_logging_info(name: &str) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = crate::support::temp_dir(name);
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("accord"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url"])
        .arg(dir.join("accord.db"))
        .env("RUST_LOG", "info")
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("accord serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the listening line");
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .expect("an address")
        .to_owned();
    (child, addr)
}

/// Sends `signal` (`INT`, `TERM`), waits for the exit and returns what the
/// broker logged; it must have stopped by itself, with exit 0.
fn stop_with(mut child: std::process::Child, signal: &str) -> String {
    use std::io::Read;
    let pid = child.id().to_string();
    std::process::Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .expect("kill runs");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr read");
    let status = child.wait().expect("exits");
    assert!(status.success(), "SIG{signal}: {status:?} {stderr}");
    stderr
}

/// One raw HTTP/1.1 request with `headers`; the answer's status line.
fn request(addr: &str, target: &str, headers: &str) -> String {
    use std::io::{Read, Write};
    let mut conn = std::net::TcpStream::connect(addr).expect("connects");
    write!(
        conn,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n"
    )
    .expect("sent");
    let mut answer = String::new();
    let _ = conn.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn serve_logs_one_line_per_request_without_credentials_and_a_line_on_shutdown() {
    let (child, addr) = serve_logging_info("serve-access-log");
    let refused = request(
        &addr,
        "/pacticipants?q=query-secret",
        "Authorization: Bearer header-secret\r\n",
    );
    assert!(refused.contains("401"), "{refused}");
    assert!(request(&addr, "/", "").contains("200"));
    let stderr = stop_with(child, "INT");
    let line_of = |path: &str| {
        stderr
            .lines()
            .find(|l| l.contains("request") && l.contains(&format!("path={path} ")))
            .unwrap_or_else(|| panic!("no access line for {path}: {stderr}"))
            .to_owned()
    };
    // an unknown bearer token: refused, and logged like any request
    let line = line_of("/pacticipants");
    assert!(line.contains(" INFO "), "{line}");
    assert!(
        line.contains("method=GET") && line.contains("status=401"),
        "{line}"
    );
    assert!(line.contains("ms="), "{line}");
    let line = line_of("/");
    assert!(
        line.contains("method=GET") && line.contains("status=200"),
        "{line}"
    );
    let lines = stderr
        .lines()
        .filter(|l| l.contains("request") && l.contains("method="))
        .count();
    assert_eq!(lines, 2, "one line per request: {stderr}");
    assert!(
        !stderr.contains("header-secret") && !stderr.contains("query-secret"),
        "{stderr}"
    );
    assert!(!stderr.contains("Bearer"), "{stderr}");
    assert!(
        stderr.contains("SIGINT") && stderr.contains("accord broker stopped"),
        "{stderr}"
    );
}

#[test]
fn serve_stops_gracefully_on_sigterm_with_a_line() {
    let (child, addr) = serve_logging_info("serve-sigterm");
    assert!(request(&addr, "/", "").contains("200"));
    let stderr = stop_with(child, "TERM");
    assert!(stderr.contains("SIGTERM"), "{stderr}");
    assert!(stderr.contains("accord broker stopped"), "{stderr}");
}

#[test]
fn admission_show_prints_a_versions_state_and_refuses_an_unknown_one() {
    let broker = BrokerProcess::start(&[]);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let put = reqwest::blocking::Client::new()
        .put(format!("{}/pacticipants/agent/versions/1.0.0", broker.url))
        .header("Content-Type", "application/json")
        .body("{}")
        .send()
        .expect("broker answers");
    assert!(put.status().is_success(), "{}", put.status());
    accord()
        .args([
            "admission",
            "show",
            "agent",
            "1.0.0",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success()
        .stdout(contains("agent 1.0.0: DRAFT"));
    accord()
        .args([
            "admission",
            "show",
            "agent",
            "9.9.9",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .code(2)
        .stderr(contains("404"));
}

#[test]
fn drift_report_sends_a_file_and_a_payload_field_is_refused_by_path() {
    let broker = BrokerProcess::start(&[]);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::blocking::Client::new();
    for (path, body) in [
        ("/pacticipants/agent/versions/1.0.0", "{}"),
        ("/environments", r#"{"name": "production"}"#),
    ] {
        let url = format!("{}{path}", broker.url);
        let request = if path == "/environments" {
            http.post(url)
        } else {
            http.put(url)
        };
        let reply = request
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .expect("broker answers");
        assert!(reply.status().is_success(), "{path}: {}", reply.status());
    }
    let dir = crate::support::temp_dir("drift-report");
    let good = dir.join("drift.json");
    let report = serde_json::json!({
        "provider": "agent", "version": "1.0.0", "environment": "production",
        "window": {"start": "2026-12-05T04:00:00Z", "end": "2026-12-05T04:05:00Z"},
        "counts": {"unknownErrorCodes": 2}
    });
    std::fs::write(&good, report.to_string()).expect("write");
    accord()
        .args(["drift", "report"])
        .arg(&good)
        .args(["--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains(
            "Recorded drift report 1 for agent 1.0.0 in production (admission: DRAFT)",
        ))
        .stdout(contains(
            "  action: unknown_error_codes: 2 at or over the threshold 1: warn",
        ));
    let mut carrying = report.clone();
    carrying["response"] = serde_json::json!({"plan": 1});
    let bad = dir.join("payload.json");
    std::fs::write(&bad, carrying.to_string()).expect("write");
    accord()
        .args(["drift", "report"])
        .arg(&bad)
        .args(["--broker-url", &broker.url])
        .assert()
        .code(2)
        .stderr(contains("$.response"));
}

#[test]
fn drift_policy_set_reads_yaml_and_show_prints_it() {
    let broker = BrokerProcess::start(&[]);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let reply = reqwest::blocking::Client::new()
        .post(format!("{}/pacticipants", broker.url))
        .header("Content-Type", "application/json")
        .body(r#"{"name": "agent"}"#)
        .send()
        .expect("broker answers");
    assert!(reply.status().is_success(), "{}", reply.status());
    let dir = crate::support::temp_dir("drift-policy");
    let file = dir.join("policy.yaml");
    let yaml = "drift_policy:\n  rules:\n    unknown_error_codes: { threshold: 5, action: route_disable }\n";
    std::fs::write(&file, yaml).expect("write");
    accord()
        .args(["drift", "policy", "set", "agent"])
        .arg(&file)
        .args(["--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains("Set the drift policy of agent"));
    accord()
        .args([
            "drift",
            "policy",
            "show",
            "agent",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success()
        .stdout(contains("\"route_disable\""));
    std::fs::write(
        &file,
        "drift_policy:\n  rules:\n    latency: { threshold: 1, action: warn }\n",
    )
    .expect("write");
    accord()
        .args(["drift", "policy", "set", "agent"])
        .arg(&file)
        .args(["--broker-url", &broker.url])
        .assert()
        .code(2)
        .stderr(contains("rules"));
}
