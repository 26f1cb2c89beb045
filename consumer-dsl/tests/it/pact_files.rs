//! Pact files of every specification version: the request, response and
//! message of each pact-specification test case, wrapped in a pact file of
//! its version, is read (upgraded to V4), written as V4 and read back
//! unchanged.

use std::path::{Path, PathBuf};

use crate::support::{conformance_dir, json_files};
use accord_dsl::pact::{
    Severity, from_value, lint, read_contract, summarize, to_v4_json, write_contract,
};
use serde_json::{Value, json};

/// The pact file of `version` holding the test case's `expected` part.
fn wrap(version: &str, kind: &str, expected: &Value) -> Value {
    let spec = match version {
        "version-1" => "1.0.0",
        "version-1.1" => "1.1.0",
        "version-2" => "2.0.0",
        "version-3" => "3.0.0",
        _ => "4.0",
    };
    let v4 = spec == "4.0";
    let mut interaction = match kind {
        "request" => json!({"description": "d", "request": expected, "response": {"status": 200}}),
        "response" => {
            json!({"description": "d", "request": {"method": "GET", "path": "/"}, "response": expected})
        }
        _ => {
            let mut m = expected.clone();
            m["description"] = json!("d");
            m
        }
    };
    if v4 {
        let kind = if kind == "message" {
            "Asynchronous/Messages"
        } else {
            "Synchronous/HTTP"
        };
        interaction["type"] = json!(kind);
    }
    let list = if kind == "message" && !v4 {
        "messages"
    } else {
        "interactions"
    };
    json!({
        "consumer": {"name": "c"},
        "provider": {"name": "p"},
        list: [interaction],
        "metadata": {"pactSpecification": {"version": spec}}
    })
}

#[test]
fn every_specification_test_case_upgrades_to_v4_and_round_trips() {
    let Some(dir) = conformance_dir("pact-specification") else {
        return;
    };
    let mut files = Vec::new();
    json_files(&dir, &mut files);
    assert!(files.len() >= 800, "found only {} test cases", files.len());
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&dir).expect("under the conformance dir");
        let mut parts = rel.iter().filter_map(|p| p.to_str());
        let (Some(version), Some(_), Some(kind)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("test case readable");
        let case: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .unwrap_or_else(|e| panic!("{}: {e}", rel.display()));
        let origin = rel.display().to_string();
        let doc = wrap(version, kind, &case["expected"]);
        let contract = from_value(&doc, &origin).unwrap_or_else(|e| panic!("{e}"));
        let written = write_contract(&contract);
        let back = read_contract(&written, &origin)
            .unwrap_or_else(|e| panic!("{origin}: V4 not re-readable: {e}\n{written}"));
        assert_eq!(
            back, contract,
            "{origin}: the V4 form reads differently:\n{written}"
        );
        assert_eq!(
            to_v4_json(&back)["metadata"]["pactSpecification"]["version"],
            "4.0"
        );
        checked += 1;
    }
    assert_eq!(checked, files.len());
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

#[test]
fn the_example_spec_compiles_to_a_contract_that_round_trips_and_lints_clean() {
    let dir = repo_root().join("examples");
    let text =
        std::fs::read_to_string(dir.join("planning-agent.yaml")).expect("the example exists");
    let resolve = |reference: &str| -> Result<Value, accord_dsl::spec::ResolveError> {
        let text = std::fs::read_to_string(dir.join(reference))?;
        Ok(serde_json::from_str(&text)?)
    };
    let contract = accord_dsl::spec::compile_spec(&text, "planning-agent.yaml", &resolve)
        .unwrap_or_else(|e| panic!("the example compiles: {e}"));
    let written = write_contract(&contract);
    let back = read_contract(&written, "written.json").unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(back, contract, "the V4 form reads differently:\n{written}");
    let errors: Vec<_> = lint(&contract)
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    assert_eq!(errors, vec![]);
    let summary = summarize(&contract);
    assert_eq!(summary.total, contract.interactions.len());
    assert_eq!(summary.by_type.len(), 5, "{:?}", summary.by_type);
}

#[test]
fn every_interaction_example_of_the_format_document_reads_and_round_trips() {
    let doc = std::fs::read_to_string(repo_root().join("docs/contract-format.md"))
        .expect("the format document exists");
    let mut checked = 0;
    for block in doc.split("```json").skip(1) {
        let Some((body, _)) = block.split_once("```") else {
            continue;
        };
        let Ok(Value::Object(example)) = serde_json::from_str::<Value>(body) else {
            continue;
        };
        if !example.contains_key("type") {
            continue;
        }
        let file = json!({
            "consumer": {"name": "c"}, "provider": {"name": "p"},
            "interactions": [example],
            "metadata": {"pactSpecification": {"version": "4.0"},
                         "accord": {"formatVersion": "1.0", "a2a": "1.0", "mcp": "2026-07-28", "jsonSchema": "2020-12"}}
        });
        let contract =
            from_value(&file, "docs/contract-format.md").unwrap_or_else(|e| panic!("{e}\n{body}"));
        let back = read_contract(&write_contract(&contract), "written.json")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, contract, "{body}");
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} interaction examples found");
}
