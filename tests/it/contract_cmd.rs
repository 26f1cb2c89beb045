//! `accord contract compile|lint|digest`: the example spec end to end, and
//! bad input named by file, line, column and field.

use serde_json::Value;

use crate::support::{accord, repo_root, temp_dir};

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_example_spec_compiles_lints_clean_and_digests_stably() {
    let dir = temp_dir("compile");
    let out_file = dir.join("planning-agent.json");
    let spec = repo_root().join("examples/planning-agent.yaml");
    let compiled = accord()
        .args(["contract", "compile"])
        .arg(&spec)
        .arg("-o")
        .arg(&out_file)
        .output()
        .expect("runs");
    assert_eq!(compiled.status.code(), Some(0), "{}", stderr_of(&compiled));

    let contract: Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).expect("written")).expect("JSON");
    assert_eq!(contract["metadata"]["pactSpecification"]["version"], "4.0");
    assert_eq!(contract["metadata"]["accord"]["a2a"], "1.0");
    let types: Vec<&str> = contract["interactions"]
        .as_array()
        .expect("interactions")
        .iter()
        .filter_map(|i| i["type"].as_str())
        .collect();
    for t in [
        "Synchronous/HTTP",
        "Asynchronous/Messages",
        "Synchronous/Messages",
        "A2A/Task",
        "MCP/ToolCall",
    ] {
        assert!(types.contains(&t), "the example covers {t}: {types:?}");
    }

    let lint = accord()
        .args(["contract", "lint"])
        .arg(&out_file)
        .output()
        .expect("runs");
    assert_eq!(
        lint.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&lint),
        stderr_of(&lint)
    );
    let text = stdout_of(&lint);
    assert!(text.contains("A2A/Task"), "{text}");
    assert!(text.contains("0 error(s)"), "{text}");

    let digest = accord()
        .args(["contract", "digest"])
        .arg(&out_file)
        .output()
        .expect("runs");
    let digest = stdout_of(&digest).trim().to_string();
    assert_eq!(digest, accord_dsl::canonical::digest(&contract));
    assert!(
        text.contains(&format!("digest: {digest}")),
        "lint prints the same digest: {text}"
    );

    // a spec is linted as what it compiles to
    let from_spec = accord()
        .args(["contract", "lint"])
        .arg(&spec)
        .output()
        .expect("runs");
    assert_eq!(
        from_spec.status.code(),
        Some(0),
        "{}",
        stderr_of(&from_spec)
    );
    let spec_text = stdout_of(&from_spec);
    assert!(
        spec_text.contains(&format!("digest: {digest}")),
        "the spec lints to the compiled file's digest: {spec_text}"
    );
    assert!(spec_text.contains("0 error(s)"), "{spec_text}");
}

#[test]
fn lint_reads_old_pact_versions_and_reports_json() {
    let dir = temp_dir("lint-v2");
    let file = dir.join("v2.json");
    let pact = r#"{"consumer":{"name":"web"},"provider":{"name":"api"},
        "interactions":[{"description":"get","providerState":"a thing exists",
          "request":{"method":"GET","path":"/things/1","query":"a=1&b=2"},
          "response":{"status":200,"body":{"id":1},"matchingRules":{"$.body.id":{"match":"type"}}}}],
        "metadata":{"pactSpecification":{"version":"2.0.0"}}}"#;
    std::fs::write(&file, pact).expect("write");
    let out = accord()
        .args(["contract", "lint", "--json"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let report: Value = serde_json::from_str(&stdout_of(&out)).expect("JSON report");
    assert_eq!(report["pactSpecification"], "2.0.0");
    assert_eq!(report["interactions"]["byType"]["Synchronous/HTTP"], 1);
    assert_eq!(report["problems"].as_array().map(Vec::len), Some(0));
}

#[test]
fn lint_exits_one_on_a_contract_with_errors() {
    let dir = temp_dir("lint-dup");
    let file = dir.join("dup.json");
    let interaction = r#"{"type":"Synchronous/HTTP","description":"same","request":{"method":"GET","path":"/"},"response":{"status":200}}"#;
    let pact = format!(
        r#"{{"consumer":{{"name":"a"}},"provider":{{"name":"b"}},"interactions":[{interaction},{interaction}],"metadata":{{"pactSpecification":{{"version":"4.0"}}}}}}"#
    );
    std::fs::write(&file, pact).expect("write");
    let out = accord()
        .args(["contract", "lint"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stdout_of(&out));
    assert!(stdout_of(&out).contains("error ["), "{}", stdout_of(&out));
}

#[test]
fn a_misspelt_spec_field_is_named_with_file_line_and_column() {
    let dir = temp_dir("bad-spec");
    let spec = dir.join("bad.yaml");
    std::fs::write(&spec, "consumer: x\nprovider: y\ninteractions:\n  - http: a\n    request: { methd: GET, path: / }\n    response: { status: 200 }\n").expect("write");
    let out_file = dir.join("out.json");
    let out = accord()
        .args(["contract", "compile"])
        .arg(&spec)
        .arg("-o")
        .arg(&out_file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(err.contains("bad.yaml"), "{err}");
    assert!(err.contains("methd"), "{err}");
    assert!(err.contains("line 5"), "{err}");
    assert!(!out_file.exists(), "nothing is written on error");
}

#[test]
fn a_wrong_type_in_a_pact_file_is_named_by_its_json_path() {
    let dir = temp_dir("bad-pact");
    let file = dir.join("bad.json");
    std::fs::write(&file, r#"{"consumer":{"name":"a"},"provider":{"name":"b"},"interactions":[{"description":"x","request":{"method":42,"path":"/"},"response":{"status":200}}],"metadata":{"pactSpecification":{"version":"2.0.0"}}}"#).expect("write");
    let out = accord()
        .args(["contract", "lint"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(err.contains("$.interactions[0].request.method"), "{err}");

    std::fs::write(&file, "{\"consumer\": ").expect("write");
    let out = accord()
        .args(["contract", "lint"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("line 1"), "{}", stderr_of(&out));
}

#[cfg(unix)]
#[test]
fn compile_into_a_fifo_writes_through_it_and_leaves_it_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_dir("compile-fifo");
    let fifo = dir.join("out.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(&fifo).expect("read the fifo"))
    };
    let out = accord()
        .args(["contract", "compile"])
        .arg(repo_root().join("examples/planning-agent.yaml"))
        .arg("-o")
        .arg(&fifo)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    // checked before joining: a replaced FIFO would leave the reader blocked
    let kind = std::fs::symlink_metadata(&fifo)
        .expect("still there")
        .file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by {kind:?}");
    let text = reader.join().expect("reader");
    let contract: Value = serde_json::from_str(&text).expect("the contract came through the FIFO");
    assert_eq!(contract["metadata"]["accord"]["a2a"], "1.0");
}

#[test]
fn lint_warns_about_a_typo_inside_a_response_and_suggests_the_key() {
    let dir = temp_dir("lint-typo");
    let file = dir.join("typo.json");
    let pact = r#"{"consumer":{"name":"web"},"provider":{"name":"items"},
        "interactions":[{"type":"Synchronous/HTTP","description":"get","request":{"method":"GET","path":"/"},"response":{"statsu":200}}],
        "metadata":{"pactSpecification":{"version":"4.0"}}}"#;
    std::fs::write(&file, pact).expect("write");
    let out = accord()
        .args(["contract", "lint"])
        .arg(&file)
        .output()
        .expect("runs");
    let text = stdout_of(&out);
    assert!(text.contains("UNKNOWN_ATTRIBUTE"), "{text}");
    assert!(text.contains("$.interactions[0].response.statsu"), "{text}");
    assert!(text.contains("did you mean `status`?"), "{text}");
}

#[test]
fn every_command_help_has_an_example_and_its_exit_codes() {
    let commands = [
        "contract",
        "match",
        "serve",
        "migrate",
        "token",
        "pacticipant",
        "environment",
        "record-deployment",
        "record-release",
        "can-i-deploy",
        "verify",
        "publish",
    ];
    for command in commands {
        let out = accord().args([command, "--help"]).output().expect("runs");
        let text = stdout_of(&out);
        assert!(
            text.contains("Exit codes:"),
            "{command} --help names no exit codes:\n{text}"
        );
        assert!(
            text.contains("Example"),
            "{command} --help has no example:\n{text}"
        );
    }
}

/// A delegation record no verifier could judge: `compile` refuses it at
/// the spec's field, `lint` reports its code, and `verify` refuses to load
/// a hand-written contract whose sent record is not the stated one.
#[test]
fn an_unjudgeable_delegation_is_refused_by_compile_lint_and_verify() {
    let dir = temp_dir("delegation");
    let spec = dir.join("d.yaml");
    std::fs::write(
        &spec,
        "consumer: o\nprovider: agent\ninteractions:\n  - a2a: draft\n    send: { text: plan }\n    delegation: { credential: not_forwarded }\n",
    )
    .expect("write");
    let out = accord()
        .args(["contract", "compile"])
        .arg(&spec)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    let text = stderr_of(&out);
    assert!(
        text.contains("interactions[0].delegation.credential")
            && text.contains("DELEGATION_CREDENTIAL_UNPRESENTED")
            && text.contains("line 6"),
        "{text}"
    );
    let file = dir.join("d.json");
    let doc = serde_json::json!({"consumer": {"name": "o"}, "provider": {"name": "agent"},
        "interactions": [{"type": "A2A/Task", "description": "draft",
            "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "plan"}],
                "metadata": {"delegation": {"maxDepth": 2}}}},
            "delegation": {"maxDepth": 0}}],
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    std::fs::write(&file, doc.to_string()).expect("write");
    let lint = accord()
        .args(["contract", "lint"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(lint.status.code(), Some(1), "{}", stdout_of(&lint));
    assert!(
        stdout_of(&lint).contains(
            "[DELEGATION_METADATA_MISMATCH] $.interactions[0].request.message.metadata.delegation"
        ),
        "{}",
        stdout_of(&lint)
    );
    let verify = accord()
        .args(["verify", "--provider", "agent", "--provider-base-url"])
        .arg("http://127.0.0.1:9")
        .arg("--contract")
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(verify.status.code(), Some(2), "{}", stderr_of(&verify));
    assert!(
        stderr_of(&verify).contains("DELEGATION_METADATA_MISMATCH"),
        "{}",
        stderr_of(&verify)
    );
}
