//! The official Pact CLI's webhook commands against the broker, unchanged:
//! `create-webhook`, `create-or-update-webhook --uuid`, `test-webhook`.
//! Skips with a printed reason without `ACCORD_PACT_CLI`, except under
//! `CI=true`.

use std::process::Command;

use super::{Receiver, each_backend_fast, pacticipants};
use crate::support::TestApp;

pub fn pact_cli() -> Option<String> {
    match std::env::var("ACCORD_PACT_CLI") {
        Ok(path) if !path.is_empty() => Some(path),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but ACCORD_PACT_CLI is not set")
        }
        _ => {
            eprintln!("skipped the Pact CLI webhook test: ACCORD_PACT_CLI is not set");
            None
        }
    }
}

pub fn run(bin: &str, app: &TestApp, args: &[&str]) -> String {
    let out = Command::new(bin)
        .arg("broker")
        .args(args)
        .args(["--broker-base-url", &app.url])
        .env("PACT_DO_NOT_TRACK", "true")
        .output()
        .expect("pact runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "pact broker {args:?}: {text}");
    text
}

#[test]
fn the_pact_cli_creates_updates_and_tests_webhooks() {
    let Some(bin) = pact_cli() else { return };
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Bar"]);
        let url = format!("{}/build?c=${{pactbroker.consumerName}}", r.url);
        let created = run(
            &bin,
            app,
            &[
                "create-webhook",
                &url,
                "-X",
                "POST",
                "-H",
                "Content-Type: application/json",
                "-d",
                r#"{"pactUrl":"${pactbroker.pactUrl}"}"#,
                "--user",
                "ci:s3cret",
                "--consumer",
                "Foo",
                "--provider",
                "Bar",
                "--description",
                "build Bar",
                "--contract-content-changed",
                "--contract-requiring-verification-published",
            ],
        );
        let list = app.get("/webhooks");
        let hooks = list.json["_links"]["pb:webhooks"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(hooks.len(), 1, "{created}\n{}", list.text);
        let uuid_value = "0123456789abcdef-webhook";
        run(
            &bin,
            app,
            &[
                "create-or-update-webhook",
                &url,
                "--uuid",
                uuid_value,
                "-X",
                "POST",
                "--provider",
                "Bar",
                "--description",
                "first",
                "--contract-published",
            ],
        );
        run(
            &bin,
            app,
            &[
                "create-or-update-webhook",
                &url,
                "--uuid",
                uuid_value,
                "-X",
                "POST",
                "--provider",
                "Bar",
                "--description",
                "second",
                "--provider-verification-published",
            ],
        );
        let saved = app.get(&format!("/webhooks/{uuid_value}"));
        assert_eq!(saved.json["description"], "second", "{}", saved.text);
        assert_eq!(
            saved.json["events"][0]["name"],
            "provider_verification_published"
        );
        let first = hooks[0]["name"].as_str().expect("uuid").to_owned();
        let shown = app.get(&format!("/webhooks/{first}"));
        assert!(!shown.text.contains("s3cret"), "{}", shown.text);
        let tested = run(&bin, app, &["test-webhook", "--uuid", &first]);
        let got = r.wait_for(1);
        assert_eq!(got.len(), 1, "{tested}");
        assert!(got[0].path.starts_with("/build?c="), "{:?}", got[0].path);
        assert!(
            got[0]
                .header("authorization")
                .is_some_and(|a| a.starts_with("Basic "))
        );
    });
}
