//! `accord verify --contract …` against the fixture provider: exit codes
//! 0/1/2, the text summary, JSON and JUnit output, pending contracts.

use std::path::PathBuf;

use accord_fixtures::http::{Fault, HttpProvider};
use serde_json::{Value, json};

use crate::support::{accord, temp_dir};

fn contract_file(dir: &std::path::Path, name: &str, pending: bool) -> PathBuf {
    let doc = json!({
        "consumer": {"name": name},
        "provider": {"name": "items"},
        "interactions": [{
            "type": "Synchronous/HTTP",
            "description": "get item 7",
            "pending": pending,
            "providerStates": [{"name": "an item exists", "params": {"id": 7}}],
            "request": {"method": "GET", "path": "/items/7"},
            "response": {"status": 200, "body": {"content": {"id": 7, "name": "widget"}},
                         "matchingRules": {"body": {"$.name": {"matchers": [{"match": "type"}]}}}}
        }],
        "metadata": {"pactSpecification": {"version": "4.0"}}
    });
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, doc.to_string()).expect("write contract");
    path
}

fn verify(
    provider: &HttpProvider,
    files: &[&PathBuf],
    extra: &[&str],
) -> assert_cmd::assert::Assert {
    let mut cmd = accord();
    cmd.args(["verify", "--provider", "items", "--provider-base-url"])
        .arg(provider.base_url())
        .arg("--state-change-url")
        .arg(provider.state_change_url())
        .arg("--contract")
        .args(files)
        .args(extra);
    cmd.assert()
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

#[test]
fn a_passing_provider_exits_zero_with_a_line_per_interaction() {
    let p = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-pass");
    let file = contract_file(&dir, "web", false);
    let a = verify(&p, &[&file], &[]).code(0);
    let out = stdout(&a);
    assert!(
        out.contains("PASS") && out.contains("web: get item 7"),
        "{out}"
    );
    assert!(out.contains("Verification PASSED"), "{out}");
}

#[test]
fn a_failing_provider_exits_one_and_the_summary_names_layer_code_and_path() {
    let p = HttpProvider::start().expect("provider");
    p.set_fault(Some(Fault::WrongBody));
    let dir = temp_dir("verify-fail");
    let file = contract_file(&dir, "web", false);
    let a = verify(&p, &[&file], &[]).code(1);
    let out = stdout(&a);
    assert!(out.contains("schema RESPONSE_MISMATCH $.name"), "{out}");
    assert!(out.contains("By layer:"), "{out}");
    assert!(out.contains("Verification FAILED"), "{out}");
}

#[test]
fn a_failing_pending_interaction_exits_zero_but_is_shown() {
    let p = HttpProvider::start().expect("provider");
    p.set_fault(Some(Fault::WrongBody));
    let dir = temp_dir("verify-pending");
    let file = contract_file(&dir, "web", true);
    let a = verify(&p, &[&file], &[]).code(0);
    let out = stdout(&a);
    assert!(out.contains("FAIL (pending)"), "{out}");
    assert!(out.contains("1 pending failure(s)"), "{out}");
}

#[test]
fn json_and_junit_outputs_carry_the_findings() {
    let p = HttpProvider::start().expect("provider");
    p.set_fault(Some(Fault::WrongStatus));
    let dir = temp_dir("verify-formats");
    let file = contract_file(&dir, "web", false);
    let a = verify(&p, &[&file], &["--output", "json"]).code(1);
    let report: Value = serde_json::from_slice(&a.get_output().stdout).expect("JSON report");
    let finding = &report["contracts"][0]["interactions"][0]["findings"][0];
    assert_eq!(finding["layer"], "schema");
    assert_eq!(finding["reasonCode"], "RESPONSE_MISMATCH");
    let junit = dir.join("results.xml");
    let out_file = junit.to_str().expect("utf-8 path");
    verify(
        &p,
        &[&file],
        &["--output", "junit", "--output-file", out_file],
    )
    .code(1);
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(
        xml.contains("<failure message=\"RESPONSE_MISMATCH"),
        "{xml}"
    );
}

#[test]
fn a_principal_token_never_appears_in_the_output() {
    let p = HttpProvider::start().expect("provider");
    p.set_fault(Some(Fault::WrongBody));
    let dir = temp_dir("verify-principal");
    let file = contract_file(&dir, "web", false);
    let a = verify(
        &p,
        &[&file],
        &["--principal", "alice=sup3r-s3cret", "--output", "json"],
    )
    .code(1);
    assert!(!stdout(&a).contains("sup3r-s3cret"));
    assert!(!String::from_utf8_lossy(&a.get_output().stderr).contains("sup3r-s3cret"));
}

#[test]
fn operational_errors_and_bad_arguments_exit_two() {
    let p = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-errors");
    let missing = dir.join("absent.json");
    verify(&p, &[&missing], &[]).code(2);
    let file = contract_file(&dir, "web", false);
    verify(&p, &[&file], &["--principal", "no-equals-sign"]).code(2);
    verify(&p, &[&file], &["--filter-description", "("]).code(2);
    // Rejected secrets are never repeated (clap would echo them).
    let rejected = |args: &[&str], says: &str| {
        let a = verify(&p, &[&file], args).code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains(says) && !err.contains("S3CRET"), "{err}");
    };
    rejected(
        &["--header", "Authorization: Bearer S3CRET"],
        "--header expects NAME=VALUE",
    );
    rejected(
        &["-H", "Authorization: Bearer x=S3CRET"],
        "not a valid header name",
    );
    rejected(
        &["--principal", "alice:S3CRET"],
        "--principal expects NAME=TOKEN",
    );
    let mut cmd = accord();
    cmd.args(["verify", "--provider", "other", "--provider-base-url"])
        .arg(p.base_url())
        .arg("--contract")
        .arg(&file);
    cmd.assert().code(2);
}

/// The consumers of a JSON report, in report order.
fn consumers(a: &assert_cmd::assert::Assert) -> Vec<String> {
    let report: Value = serde_json::from_slice(&a.get_output().stdout).expect("JSON report");
    report["contracts"]
        .as_array()
        .expect("contracts")
        .iter()
        .filter_map(|c| c["consumer"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn several_contracts_report_in_the_order_given() {
    let p = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-jobs");
    let a = contract_file(&dir, "alpha", false);
    let b = contract_file(&dir, "beta", false);
    let out = verify(&p, &[&b, &a], &["--jobs", "1", "--output", "json"]).code(0);
    assert_eq!(consumers(&out), vec!["beta", "alpha"]);
}

#[test]
fn a_directory_stands_for_its_json_files_in_name_order() {
    let p = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-dir");
    contract_file(&dir, "beta", false);
    contract_file(&dir, "alpha", false);
    std::fs::write(dir.join("notes.txt"), "not a contract").expect("write");
    let out = verify(&p, &[&dir], &["--output", "json"]).code(0);
    assert_eq!(consumers(&out), vec!["alpha", "beta"]);

    let empty = temp_dir("verify-empty-dir");
    verify(&p, &[&empty], &[])
        .code(2)
        .stderr(predicates::str::contains(
            "holds no contract (*.json) files",
        ));
}

#[test]
fn pact_verifier_flag_names_work_as_aliases() {
    let p = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-aliases");
    let file = contract_file(&dir, "web", false);
    contract_file(&dir, "mobile", false);
    let run = accord()
        .args(["verify", "--provider-name", "items", "--provider-base-url"])
        .arg(p.base_url())
        .arg("--state-change-url")
        .arg(p.state_change_url())
        .arg("--file")
        .arg(&file)
        .assert()
        .code(0);
    assert!(stdout(&run).contains("Verification PASSED"));
    // a pact_verifier_cli command line: the base URL in parts, short names
    let port = p
        .base_url()
        .rsplit(':')
        .next()
        .expect("a port")
        .trim_end_matches('/')
        .to_owned();
    let pact_style = || {
        let mut cmd = accord();
        cmd.args([
            "verify",
            "-n",
            "items",
            "--hostname",
            "127.0.0.1",
            "-p",
            &port,
        ]);
        cmd
    };
    let by_parts = pact_style()
        .args([
            "--transport",
            "http",
            "--request-timeout",
            "5000",
            "-c",
            "web",
        ])
        .arg("-s")
        .arg(p.state_change_url())
        .arg("--dir")
        .arg(&dir)
        .args(["--output", "json"])
        .assert()
        .code(0);
    // --dir read both contracts, -c kept web's; the interaction needed the
    // state -s named and the provider at the assembled URL
    assert_eq!(consumers(&by_parts), vec!["web"]);
    let report: Value = serde_json::from_slice(&by_parts.get_output().stdout).expect("JSON");
    assert_eq!(
        report["contracts"][0]["interactions"][0]["outcome"],
        json!("passed"),
        "{report}"
    );
    // the state change is needed: without -s the same run fails
    pact_style().arg("--file").arg(&file).assert().code(1);
}

#[test]
fn a_file_given_as_pact_url_is_refused_naming_contract() {
    let o = crate::support::accord()
        .args([
            "verify",
            "--provider",
            "p",
            "--provider-base-url",
            "http://127.0.0.1:1",
        ])
        .args(["--pact-url", "pacts/web-items.json"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--pact-url pacts/web-items.json is not a URL")
            && err.contains("use --contract pacts/web-items.json"),
        "{err}"
    );
}

/// A field the consumer reads that the provider does not send: one
/// finding naming it, with the expected keys and the missing one as data.
#[test]
fn a_missing_field_is_named_and_recorded_as_expected_and_actual_data() {
    let p = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-missing-field");
    let mut doc: Value = serde_json::from_str(
        &std::fs::read_to_string(contract_file(&dir, "web", false)).expect("contract"),
    )
    .expect("json");
    doc["interactions"][0]["response"]["body"]["content"]["price"] = json!(10);
    let file = dir.join("web-price.json");
    std::fs::write(&file, doc.to_string()).expect("write contract");
    let a = verify(&p, &[&file], &["--output", "json"]).code(1);
    let report: Value = serde_json::from_slice(&a.get_output().stdout).expect("JSON report");
    let findings = &report["contracts"][0]["interactions"][0]["findings"];
    assert_eq!(findings.as_array().map_or(0, Vec::len), 1, "{findings}");
    let finding = &findings[0];
    assert_eq!(finding["reasonCode"], "RESPONSE_MISMATCH", "{finding}");
    assert_eq!(finding["path"], "$", "{finding}");
    assert_eq!(
        finding["expected"],
        json!(["id", "name", "price"]),
        "{finding}"
    );
    assert_eq!(finding["actual"], json!(["id", "name"]), "{finding}");
    assert_eq!(finding["missing"], json!(["price"]), "{finding}");
    assert!(finding.get("unexpected").is_none(), "{finding}");
    let detail = finding["detail"].as_str().unwrap_or_default();
    assert!(detail.ends_with(": `price` is missing"), "{detail}");
    // the text summary and JUnit name it too, and never print "null"
    let text = stdout(&verify(&p, &[&file], &[]).code(1));
    assert!(text.contains("`price` is missing"), "{text}");
    assert!(!text.contains("null"), "{text}");
    let xml = stdout(&verify(&p, &[&file], &["--output", "junit"]).code(1));
    assert!(xml.contains("`price` is missing"), "{xml}");
    // the clean provider with the contract it meets: no finding
    let clean = contract_file(&dir, "clean", false);
    verify(&p, &[&clean], &[]).code(0);
}
