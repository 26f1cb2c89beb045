//! `accord serve --webhook-*-allowlist` (and their variables): repeatable,
//! comma lists accepted, printed at start, bad values refused naming the flag.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::support::{accord, temp_dir};

const VARIABLES: [&str; 3] = [
    "ACCORD_WEBHOOK_SCHEME_ALLOWLIST",
    "ACCORD_WEBHOOK_HOST_ALLOWLIST",
    "ACCORD_WEBHOOK_METHOD_ALLOWLIST",
];

/// Starts `accord serve` and returns its log up to the method allowlist line.
pub(crate) fn startup_log(args: &[&str], env: &[(&str, &str)]) -> String {
    let db = temp_dir("webhook-flags").join("accord.db");
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("accord"));
    cmd.args(["serve", "--bind", "127.0.0.1:0", "--database-url"])
        .arg(&db)
        .args(args)
        .env("RUST_LOG", "info")
        .env_remove("DATABASE_URL")
        .env_remove("ACCORD_WORKERS");
    for name in VARIABLES {
        cmd.env_remove(name);
    }
    let mut child = cmd
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("accord serve starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut log = String::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("a log line");
        log.push_str(&line);
        log.push('\n');
        if line.contains("webhook method allowlist") {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    log
}

#[test]
fn the_defaults_are_printed_at_start() {
    let log = startup_log(&[], &[]);
    assert!(log.contains("webhook scheme allowlist: https\n"), "{log}");
    assert!(
        log.contains("webhook host allowlist: none: any public address"),
        "{log}"
    );
    assert!(log.contains("webhook method allowlist: POST\n"), "{log}");
}

#[test]
fn flags_repeat_and_take_comma_lists() {
    let log = startup_log(
        &[
            "--webhook-scheme-allowlist",
            "http,https",
            "--webhook-host-allowlist",
            "localhost",
            "--webhook-host-allowlist",
            "10.0.0.0/8,*.Example.com",
            "--webhook-method-allowlist",
            "post",
            "--webhook-method-allowlist",
            "PUT",
        ],
        &[],
    );
    assert!(
        log.contains("webhook scheme allowlist: http, https\n"),
        "{log}"
    );
    assert!(
        log.contains(
            "webhook host allowlist: localhost, 10.0.0.0/8, *.example.com (only these hosts)"
        ),
        "{log}"
    );
    assert!(
        log.contains("webhook method allowlist: POST, PUT\n"),
        "{log}"
    );
}

#[test]
fn the_variables_give_the_same_lists() {
    let log = startup_log(
        &[],
        &[
            ("ACCORD_WEBHOOK_SCHEME_ALLOWLIST", "http"),
            (
                "ACCORD_WEBHOOK_HOST_ALLOWLIST",
                "ci.example.com,192.168.0.0/16",
            ),
            ("ACCORD_WEBHOOK_METHOD_ALLOWLIST", "put,POST"),
        ],
    );
    assert!(log.contains("webhook scheme allowlist: http\n"), "{log}");
    assert!(
        log.contains("webhook host allowlist: ci.example.com, 192.168.0.0/16 (only these hosts)"),
        "{log}"
    );
    assert!(
        log.contains("webhook method allowlist: PUT, POST\n"),
        "{log}"
    );
}

#[test]
fn bad_values_are_refused_naming_the_flag() {
    for (flag, value, named) in [
        (
            "--webhook-host-allowlist",
            "10.0.0.0/33",
            "prefix length 33",
        ),
        ("--webhook-host-allowlist", "user@host", "user@host"),
        ("--webhook-scheme-allowlist", "gopher", "http or https only"),
        ("--webhook-scheme-allowlist", "ht tp", "not a URL scheme"),
        ("--webhook-method-allowlist", "PO ST", "not an HTTP method"),
    ] {
        let db = temp_dir("webhook-flags").join("accord.db");
        let out = accord()
            .args(["serve", "--bind", "127.0.0.1:0", "--database-url"])
            .arg(&db)
            .args([flag, value])
            .output()
            .expect("accord runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains(named),
            "{flag} {value}: {stderr}"
        );
    }
}

#[test]
fn a_bad_variable_is_refused_naming_the_flag() {
    let db = temp_dir("webhook-flags").join("accord.db");
    let out = accord()
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url"])
        .arg(&db)
        .env("ACCORD_WEBHOOK_HOST_ALLOWLIST", "ok.example.com,::1/200")
        .output()
        .expect("accord runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--webhook-host-allowlist") && stderr.contains("200"),
        "{stderr}"
    );
}

#[test]
fn a_webhook_ca_file_that_is_missing_or_holds_no_certificate_stops_the_start() {
    let dir = temp_dir("webhook-ca");
    let garbage = dir.join("garbage.pem");
    std::fs::write(&garbage, "not a certificate\n").expect("write");
    for (file, named) in [
        (dir.join("missing.pem"), "No such file"),
        (garbage, "no certificate in it"),
    ] {
        let db = dir.join("accord.db");
        let out = accord()
            .args(["serve", "--bind", "127.0.0.1:0", "--database-url"])
            .arg(&db)
            .arg("--webhook-ca-file")
            .arg(&file)
            .output()
            .expect("accord runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", file.display());
        let shown = file.display().to_string();
        assert!(
            stderr.contains("--webhook-ca-file")
                && stderr.contains(&shown)
                && stderr.contains(named),
            "{stderr}"
        );
    }
}
