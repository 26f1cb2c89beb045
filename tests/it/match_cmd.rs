//! `accord match`: exit codes 0/1/2, readable and JSON output.

use std::path::PathBuf;

use crate::support::{accord, temp_dir};
use serde_json::{Value, json};

fn write(dir: &std::path::Path, name: &str, v: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, v.to_string()).expect("write file");
    path
}

fn run_match(
    part: &str,
    spec: &str,
    expected: &PathBuf,
    actual: &PathBuf,
    json: bool,
) -> assert_cmd::assert::Assert {
    let mut cmd = accord();
    cmd.args(["match", part, "--specification", spec, "--expected"])
        .arg(expected)
        .arg("--actual")
        .arg(actual);
    if json {
        cmd.arg("--json");
    }
    cmd.assert()
}

#[test]
fn matching_response_exits_zero() {
    let dir = temp_dir("pass");
    let e = write(
        &dir,
        "e.json",
        &json!({"status": 200, "body": {"id": 1},
        "matchingRules": {"body": {"$.id": {"matchers": [{"match": "integer"}]}}}}),
    );
    let a = write(
        &dir,
        "a.json",
        &json!({"status": 200, "body": {"id": 42, "extra": true}}),
    );
    let out = run_match("response", "3", &e, &a, false).code(0);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("no mismatches"), "{stdout}");
}

#[test]
fn mismatching_request_exits_one_and_lists_each_mismatch() {
    let dir = temp_dir("fail");
    let e = write(
        &dir,
        "e.json",
        &json!({"method": "GET", "path": "/a", "query": "x=1"}),
    );
    let a = write(
        &dir,
        "a.json",
        &json!({"method": "POST", "path": "/a", "query": "x=2"}),
    );
    let out = run_match("request", "2", &e, &a, false).code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("method method: Expected method 'GET'"),
        "{stdout}"
    );
    assert!(stdout.contains("query x:"), "{stdout}");
}

#[test]
fn json_output_is_an_array_of_mismatches() {
    let dir = temp_dir("json");
    let e = write(
        &dir,
        "e.json",
        &json!({"contents": {"a": "x"}, "metaData": {"topic": "t"}}),
    );
    let a = write(
        &dir,
        "a.json",
        &json!({"contents": {"a": 1}, "metaData": {"topic": "t"}}),
    );
    let out = run_match("message", "3", &e, &a, true).code(1);
    let list: Value = serde_json::from_slice(&out.get_output().stdout).expect("JSON output");
    let list = list.as_array().expect("array");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["kind"], "body");
    assert_eq!(list[0]["path"], "$.a");
}

#[test]
fn a_test_case_file_supplies_both_sides() {
    let dir = temp_dir("case");
    let case = write(
        &dir,
        "case.json",
        &json!({"match": false, "comment": "c",
        "expected": {"status": 200}, "actual": {"status": 404}}),
    );
    run_match("response", "4", &case, &case, false).code(1);
}

#[test]
fn bad_files_exit_two_naming_the_file_and_path() {
    let dir = temp_dir("bad");
    let e = write(&dir, "e.json", &json!({"headers": {"Accept": {"x": 1}}}));
    let a = write(&dir, "a.json", &json!({}));
    let out = run_match("request", "3", &e, &a, false).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("e.json") && stderr.contains("$.headers.Accept"),
        "{stderr}"
    );
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{ not json").expect("write");
    let out = run_match("request", "3", &broken, &a, false).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("broken.json") && stderr.contains("line 1"),
        "{stderr}"
    );
    run_match("request", "9", &e, &a, false).code(2);
}
