//! The example spec in `examples/` and the YAML blocks of
//! `docs/contract-format.md` compile.

mod builder_equivalence;
mod no_panic;

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

pub(crate) fn example_text() -> String {
    std::fs::read_to_string(repo_root().join("examples/planning-agent.yaml"))
        .expect("the example exists")
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
    let rules = part.rules.matching_rules.to_v4_json();
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
    assert!(unauth.expectations.negative.is_set());
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

/// The ```yaml blocks of the format doc: whole specs compile as they are,
/// interaction lists under a header with principals, other fragments
/// (agent_card, mcp_tools) after `consumer`/`provider`.
fn doc_yaml_blocks() -> Vec<(usize, String)> {
    let doc = std::fs::read_to_string(repo_root().join("docs/contract-format.md"))
        .expect("the format doc exists");
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, line) in doc.lines().enumerate() {
        match (&mut current, line.trim_end()) {
            (None, "```yaml") => current = Some((n + 1, String::new())),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some((_, text)), l) => {
                text.push_str(l);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn every_yaml_block_of_the_format_doc_compiles() {
    let head = "consumer: orchestrator\nprovider: planning-agent\nprincipals:\n  alice: { tenant: tenant-a }\n  bob: { tenant: tenant-b }\n";
    let blocks = doc_yaml_blocks();
    assert!(
        blocks.len() >= 15,
        "found only {} yaml blocks",
        blocks.len()
    );
    let resolver = file_resolver(repo_root().join("examples"));
    for (line, block) in blocks {
        let text = if block.starts_with("consumer:") {
            block.clone()
        } else if block.starts_with("- ") {
            let indented: String = block.lines().map(|l| format!("  {l}\n")).collect();
            format!("{head}interactions:\n{indented}")
        } else {
            format!("{head}{block}")
        };
        let origin = format!("docs/contract-format.md:{line}");
        if let Err(e) = compile_spec(&text, &origin, &resolver) {
            panic!("the yaml block at line {line} does not compile: {e}");
        }
    }
}

#[test]
fn the_json_examples_of_the_format_doc_use_the_model_names() {
    use accord_dsl::model::accord::{
        A2aTask, AgentCardExpectations, Expectations, McpToolCall, McpToolExpectation,
    };
    let doc = std::fs::read_to_string(repo_root().join("docs/contract-format.md"))
        .expect("the format doc exists");
    let blocks: Vec<&str> = doc
        .split("```json\n")
        .skip(1)
        .filter_map(|b| b.split("\n```").next())
        .collect();
    let mut checked = 0;
    for block in blocks {
        let Ok(Value::Object(mut o)) = serde_json::from_str::<Value>(block) else {
            continue;
        };
        let kind = o.remove("type");
        for k in [
            "description",
            "key",
            "pending",
            "providerStates",
            "comments",
        ] {
            o.remove(k);
        }
        let mut exp = serde_json::Map::new();
        for k in Expectations::JSON_KEYS {
            if let Some(v) = o.remove(*k) {
                exp.insert(k.to_string(), v);
            }
        }
        serde_json::from_value::<Expectations>(Value::Object(exp)).expect("expectation attributes");
        let unknown = match kind.as_ref().and_then(Value::as_str) {
            Some("A2A/Task") => {
                serde_json::from_value::<A2aTask>(Value::Object(o))
                    .expect("an A2A task")
                    .extra
            }
            Some("MCP/ToolCall") => {
                serde_json::from_value::<McpToolCall>(Value::Object(o))
                    .expect("an MCP call")
                    .extra
            }
            None if o.contains_key("skills") => {
                serde_json::from_value::<AgentCardExpectations>(Value::Object(o))
                    .expect("a card")
                    .extra
            }
            _ => continue,
        };
        assert!(
            unknown.is_empty(),
            "attributes the model does not know: {unknown:?}"
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
    let tools = doc
        .split("## `mcpTools`\n\n```json\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("the mcpTools block");
    let tools: Vec<McpToolExpectation> = serde_json::from_str(tools).expect("tool expectations");
    assert!(tools.iter().all(|t| t.extra.is_empty()));
}

/// Every example value of the example spec satisfies its own rules, as the
/// matching engine judges them: a mock built from the contract would pass
/// its own verification.
#[test]
fn every_example_of_the_example_spec_matches_its_own_rules() {
    use accord_dsl::matching::{
        MatchingRules, match_json, match_message, match_request, match_response,
    };
    use accord_dsl::model::accord::{PartExpectation, TaskStep};
    let c = example();
    let check = |what: &str, holder: Value, rules: &MatchingRules| {
        if let Some(body) = rules.category("body") {
            let m = match_json(&holder, &holder, body, true);
            assert!(m.is_empty(), "{what}: {m:?}");
        }
    };
    let check_part = |what: &str, p: &PartExpectation| {
        check(
            what,
            serde_json::to_value(p).expect("serialisable"),
            &p.rules.matching_rules,
        );
    };
    for i in &c.interactions {
        let d = &i.meta().description;
        match i {
            Interaction::Http(h) => {
                assert!(match_request(&h.request, &h.request).is_empty(), "{d}");
                assert!(match_response(&h.response, &h.response).is_empty(), "{d}");
            }
            Interaction::AsyncMessage(m) => {
                assert!(match_message(&m.message, &m.message).is_empty(), "{d}")
            }
            Interaction::SyncMessage(m) => {
                assert!(match_message(&m.request, &m.request).is_empty(), "{d}")
            }
            Interaction::A2aTask(t) => {
                check(
                    d,
                    serde_json::to_value(&t.task.request).expect("serialisable"),
                    &t.task.request.rules.matching_rules,
                );
                for step in &t.task.steps {
                    let parts = match step {
                        TaskStep::Status(s) => &s.message_parts,
                        TaskStep::Artifact(a) => &a.parts,
                        TaskStep::Message(m) => &m.parts,
                    };
                    parts.iter().for_each(|p| check_part(d, p));
                }
            }
            Interaction::McpToolCall(m) => {
                check(
                    d,
                    serde_json::to_value(&m.call).expect("serialisable"),
                    &m.call.rules.matching_rules,
                );
                if let Some(r) = &m.call.result {
                    check(
                        d,
                        serde_json::to_value(r).expect("serialisable"),
                        &r.rules.matching_rules,
                    );
                }
            }
        }
    }
}
