//! `accord verify` of `A2A/Task` contracts against the reference A2A agent,
//! through the CLI, on both bindings (`--a2a-binding`).

use accord_fixtures::a2a::{A2aAgent, A2aFault};
use serde_json::{Value, json};

use crate::support::{accord, temp_dir};

fn contract_file(name: &str) -> std::path::PathBuf {
    contract_with(name, |_| {})
}

/// The contract, changed by `edit` before it is written.
fn contract_with(name: &str, edit: impl FnOnce(&mut Value)) -> std::path::PathBuf {
    let mut doc = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "agentCard": {"skills": [{"id": "work-planning"}], "capabilities": {"streaming": true}},
        "interactions": [{"type": "A2A/Task", "description": "draft a plan", "skill": "work-planning",
            "streaming": true, "sideEffects": {"records": 1},
            "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"request_id": "r-1", "items": [{"title": "rotate keys"}]}}]}},
            "steps": [{"status": {"state": "TASK_STATE_WORKING"}},
                      {"artifact": {"name": "work-plan", "parts": [{"data": {"status": "draft"}, "mediaType": "application/json"}]}},
                      {"status": {"state": "TASK_STATE_COMPLETED"}}],
            "terminalState": "TASK_STATE_COMPLETED"}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}
    });
    edit(&mut doc);
    let file = temp_dir(&format!("verify-a2a-{name}")).join("contract.json");
    std::fs::write(&file, doc.to_string()).expect("write contract");
    file
}

fn verify(agent: &A2aAgent, binding: &str) -> (Option<i32>, Value) {
    verify_file(agent, binding, &contract_file(binding))
}

fn verify_file(
    agent: &A2aAgent,
    binding: &str,
    contract: &std::path::Path,
) -> (Option<i32>, Value) {
    let out = accord()
        .args([
            "verify",
            "--provider",
            "planning-agent",
            "--provider-base-url",
        ])
        .arg(agent.base_url())
        .args(["--a2a-binding", binding])
        .args(["--state-change-url", &agent.state_change_url()])
        .args(["--observe-url", &agent.observe_url()])
        .args(["--output", "json", "--contract"])
        .arg(contract)
        .output()
        .expect("runs");
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), report)
}

#[test]
fn verify_passes_a_correct_agent_and_names_the_fault_of_a_wrong_one_on_both_bindings() {
    for binding in ["jsonrpc", "http+json"] {
        let agent = A2aAgent::start().expect("agent");
        let (code, report) = verify(&agent, binding);
        assert_eq!(code, Some(0), "{binding}: {report}");
        let used = report["declarations"][0]["used"][0]
            .as_str()
            .unwrap_or_default();
        let expected = if binding == "jsonrpc" {
            "JSONRPC "
        } else {
            "HTTP+JSON "
        };
        assert!(used.starts_with(expected), "{binding}: {report}");
        let agent = A2aAgent::start().expect("agent");
        agent.set_fault(Some(A2aFault::ProseArtifact));
        let (code, report) = verify(&agent, binding);
        assert_eq!(code, Some(1), "{binding}: {report}");
        let finding = &report["contracts"][0]["interactions"][0]["findings"][0];
        assert_eq!(
            finding["reasonCode"], "CONTENT_MODE_MISMATCH",
            "{binding}: {report}"
        );
        assert_eq!(finding["layer"], "schema");
        assert_eq!(finding["path"], "steps[1].artifact.parts[0]");
    }
}

/// An artifact field the consumer reads that the agent does not send:
/// named as missing data, at the step's path.
#[test]
fn a_missing_artifact_field_is_named_as_missing_data() {
    let agent = A2aAgent::start().expect("agent");
    let file = contract_with("missing-field", |doc| {
        doc["interactions"][0]["steps"][1]["artifact"]["parts"][0]["data"]["priority"] =
            json!("high");
    });
    let (code, report) = verify_file(&agent, "jsonrpc", &file);
    assert_eq!(code, Some(1), "{report}");
    let findings = &report["contracts"][0]["interactions"][0]["findings"];
    assert_eq!(findings.as_array().map_or(0, Vec::len), 1, "{findings}");
    let finding = &findings[0];
    assert_eq!(finding["reasonCode"], "RESPONSE_MISMATCH", "{finding}");
    assert_eq!(
        finding["path"], "steps[1].artifact.parts[0].data",
        "{finding}"
    );
    assert_eq!(finding["missing"], json!(["priority"]), "{finding}");
    assert_eq!(
        finding["expected"],
        json!(["priority", "status"]),
        "{finding}"
    );
}

/// The prose artifact judged by the step that expects it and by the
/// skill's output modes: both findings name it by the step's path.
#[test]
fn one_artifact_has_one_path_whichever_check_finds_its_fault() {
    let agent = A2aAgent::start().expect("agent");
    agent.set_fault(Some(A2aFault::ProseArtifact));
    let (_, report) = verify(&agent, "jsonrpc");
    let by_step = report["contracts"][0]["interactions"][0]["findings"][0]["path"].clone();
    // the step accepts any text part: the skill's outputModes find the fault
    let file = contract_with("one-path", |doc| {
        doc["interactions"][0]["steps"][1]["artifact"]["parts"][0] =
            json!({"text": "Here is your plan: rotate keys."});
    });
    let (code, report) = verify_file(&agent, "jsonrpc", &file);
    assert_eq!(code, Some(1), "{report}");
    let finding = &report["contracts"][0]["interactions"][0]["findings"][0];
    assert_eq!(finding["reasonCode"], "CONTENT_MODE_MISMATCH", "{finding}");
    assert_eq!(finding["path"], by_step, "{report}");
    assert_eq!(finding["path"], "steps[1].artifact.parts[0]");
}

#[test]
fn an_unknown_binding_is_a_usage_error() {
    let out = accord()
        .args([
            "verify",
            "--provider",
            "p",
            "--provider-base-url",
            "http://127.0.0.1:9",
        ])
        .args(["--a2a-binding", "grpc", "--contract", "x.json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("http+json"), "{err}");
}

#[test]
fn a_signed_card_is_checked_against_the_trusted_key_files() {
    let agent = A2aAgent::start().expect("agent");
    let dir = temp_dir("verify-a2a-signed");
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "agentCard": {"skills": [{"id": "work-planning"}], "signed": true}, "interactions": [],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let contract = dir.join("contract.json");
    std::fs::write(&contract, doc.to_string()).expect("write contract");
    let jwks = dir.join("keys.json");
    std::fs::write(&jwks, json!({"keys": [agent.card_key()]}).to_string()).expect("write keys");
    let run = |keys: Option<&std::path::Path>| {
        let mut cmd = accord();
        cmd.args([
            "verify",
            "--provider",
            "planning-agent",
            "--provider-base-url",
        ])
        .arg(agent.base_url())
        .arg("--contract")
        .arg(&contract);
        if let Some(k) = keys {
            cmd.arg("--trust-card-key").arg(k);
        }
        cmd.output().expect("runs")
    };
    assert_eq!(run(Some(&jwks)).status.code(), Some(0));
    let unsigned = run(None);
    assert_eq!(unsigned.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unsigned.stdout).contains("CARD_SIGNATURE_INVALID"));
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"kty\": 3}").expect("write junk");
    let refused = run(Some(&junk));
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("junk.json"));
}
