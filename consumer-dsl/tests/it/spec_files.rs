//! The example spec in `examples/` and the YAML blocks of
//! `docs/contract-format.md` compile.

use std::path::{Path, PathBuf};

use accord_dsl::model::accord::{CounterChange, Credential, TaskState};
use accord_dsl::spec::{ResolveError, compile_spec};
use accord_dsl::{Contract, Interaction};
use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

fn file_resolver(base: PathBuf) -> impl Fn(&str) -> Result<Value, ResolveError> {
    move |reference: &str| {
        let text = std::fs::read_to_string(base.join(reference))?;
        Ok(serde_json::from_str(&text)?)
    }
}

fn example() -> Contract {
    let dir = repo_root().join("examples");
    let text =
        std::fs::read_to_string(dir.join("planning-agent.yaml")).expect("the example exists");
    compile_spec(&text, "examples/planning-agent.yaml", &file_resolver(dir))
        .expect("the example compiles")
}

#[test]
fn the_example_spec_compiles_every_interaction_type() {
    let c = example();
    let types: std::collections::BTreeSet<&str> =
        c.interactions.iter().map(Interaction::type_name).collect();
    assert_eq!(
        types.into_iter().collect::<Vec<_>>(),
        [
            "A2A/Task",
            "Asynchronous/Messages",
            "MCP/ToolCall",
            "Synchronous/HTTP",
            "Synchronous/Messages"
        ]
    );
    let accord = c.accord.as_ref().expect("accord metadata");
    assert_eq!(accord.a2a.as_deref(), Some("1.0"));
    assert_eq!(accord.mcp.as_deref(), Some("2026-07-28"));
    assert_eq!(accord.json_schema, "2020-12");
    assert_eq!(c.mcp_tools.len(), 2);
    assert_eq!(c.agent_card.as_ref().map(|a| a.skills.len()), Some(2));
}

#[test]
fn the_example_loads_the_artifact_schema_from_its_file() {
    let c = example();
    let Some(Interaction::A2aTask(t)) = c.interactions.first() else {
        panic!("the first interaction is an A2A task");
    };
    let artifact = t.task.steps.iter().find_map(|s| match s {
        accord_dsl::model::accord::TaskStep::Artifact(a) => Some(a),
        _ => None,
    });
    let part = artifact
        .and_then(|a| a.parts.first())
        .expect("an artifact part");
    assert_eq!(
        part.schema.as_ref().and_then(|s| s["title"].as_str()),
        Some("Work plan")
    );
    assert_eq!(part.media_type.as_deref(), Some("application/json"));
    assert_eq!(t.task.terminal_state, Some(TaskState::Completed));
    assert!(t.task.streaming);
    let rules = part.matching_rules.to_v4_json();
    assert_eq!(rules["body"]["$.data.steps"]["matchers"][0]["min"], 1);
    assert_eq!(
        rules["body"]["$.data.steps[*].title"]["matchers"][0]["match"],
        "type"
    );
    let se = t
        .meta
        .expectations
        .side_effects
        .as_ref()
        .expect("side effects");
    assert_eq!(se["records"], CounterChange::Exact(1));
    assert_eq!(se["outbound_writes"], CounterChange::Exact(0));
}

#[test]
fn the_example_expresses_auth_cases() {
    let c = example();
    let by_desc = |d: &str| {
        c.interactions
            .iter()
            .find(|i| i.meta().description == d)
            .unwrap_or_else(|| panic!("interaction `{d}`"))
    };
    let unauth = by_desc("an unauthenticated caller is refused").meta();
    assert_eq!(
        unauth.expectations.auth.as_ref().map(|a| a.credential),
        Some(Credential::None)
    );
    assert!(unauth.expectations.negative);
    let probe = by_desc("nobody else sees my task").meta();
    let probes = &probe.expectations.auth.as_ref().expect("auth").probes;
    assert_eq!(probes[0].principal, "bob");
    assert_eq!(probes[0].tenant.as_deref(), Some("tenant-b"));
}

#[test]
fn a_missing_schema_file_names_the_reference_and_field() {
    let dir = repo_root().join("examples");
    let text =
        std::fs::read_to_string(dir.join("planning-agent.yaml")).expect("the example exists");
    let text = text.replace("schemas/work-plan.json", "schemas/nope.json");
    let err =
        compile_spec(&text, "planning-agent.yaml", &file_resolver(dir)).expect_err("no such file");
    let msg = err.to_string();
    assert!(msg.contains("schemas/nope.json"), "{msg}");
    assert!(
        msg.contains("interactions[0].expect[2].artifact.parts[0].schema"),
        "{msg}"
    );
}
