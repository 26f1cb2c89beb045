use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::cases::{Case, OpKind};
use super::report::{self, Declared, Live};
use super::risk::Risk;

/// A contract of consumer `planner` with these interactions (YAML).
fn contract(interactions: &str) -> Live {
    let text = format!(
        "consumer: planner\nprovider: plan-tools\nprotocols: {{ mcp: \"2026-07-28\", a2a: \"1.0\" }}\n\
         principals:\n  alice: {{ tenant: tenant-a }}\n  bob: {{ tenant: tenant-b }}\n\
         interactions:\n{interactions}"
    );
    let none = |_: &str| -> Result<Value, accord_dsl::spec::ResolveError> { Ok(Value::Null) };
    let contract = accord_dsl::spec::compile_spec(&text, "c.yaml", &none).expect("compiles");
    Live {
        consumer: "planner".into(),
        contract: std::sync::Arc::new(contract),
    }
}

const CALL: &str = "  - mcp: delete a plan\n    as: alice\n    tool: plan_delete\n    \
    arguments: { plan_id: plan-1 }\n    expect: { structured: { deleted: true } }\n";
const UNAUTHENTICATED: &str = "  - mcp: no token\n    credential: none\n    negative: true\n    \
    tool: plan_delete\n    arguments: { plan_id: plan-1 }\n    expect: { is_error: true }\n";
const CROSS_TENANT: &str = "  - mcp: other tenant\n    as: bob\n    negative: cross_tenant\n    \
    tool: plan_delete\n    arguments: { plan_id: plan-1 }\n    expect: { is_error: true }\n";
const NO_APPROVAL: &str = "  - mcp: no approval\n    as: alice\n    approval: { granted: false }\n    \
    tool: plan_delete\n    arguments: { plan_id: plan-1 }\n    expect: { is_error: true }\n";

fn tools(list: Value) -> Declared {
    Declared {
        card: None,
        listings: BTreeMap::from([("alice".to_owned(), json!({ "tools": list }))]),
    }
}

fn delete_tool() -> Declared {
    tools(json!([{"name": "plan_delete", "annotations": {"destructiveHint": true}}]))
}

fn missing(r: &report::Report) -> Vec<(String, &'static str)> {
    r.gaps
        .iter()
        .map(|g| (g.name.clone(), g.missing_name()))
        .collect()
}

#[test]
fn a_destructive_tool_with_all_three_cases_has_no_gap() {
    let live = [contract(
        &[CALL, UNAUTHENTICATED, CROSS_TENANT, NO_APPROVAL].concat(),
    )];
    let r = report::build(&delete_tool(), &live);
    assert_eq!(r.gaps, vec![]);
    let op = &r.operations[0];
    assert_eq!((op.kind, op.risk), (OpKind::Tool, Risk::Destructive));
    assert_eq!(
        op.present,
        vec![
            Case::Authorization,
            Case::TenantProbe,
            Case::Approval,
            Case::Boundary
        ]
    );
}

#[test]
fn each_missing_case_kind_is_its_own_named_gap() {
    let cases = [
        (UNAUTHENTICATED, "authorization"),
        (CROSS_TENANT, "tenant_probe"),
        (NO_APPROVAL, "approval"),
    ];
    for (left_out, kind) in cases {
        let rest: String = cases
            .iter()
            .filter(|(c, _)| *c != left_out)
            .map(|(c, _)| *c)
            .collect();
        let r = report::build(&delete_tool(), &[contract(&format!("{CALL}{rest}"))]);
        assert_eq!(missing(&r), vec![("plan_delete".to_owned(), kind)]);
    }
}

#[test]
fn a_probe_and_a_call_as_another_principal_count() {
    let probe = "  - mcp: probed\n    as: alice\n    tool: plan_delete\n    \
        arguments: { plan_id: plan-2 }\n    expect: { is_error: false }\n    probe_as: [bob]\n";
    let other = "  - mcp: bob may not\n    as: bob\n    negative: true\n    tool: plan_delete\n    \
        arguments: { plan_id: plan-1 }\n    expect: { is_error: true }\n";
    let r = report::build(
        &delete_tool(),
        &[contract(&[CALL, probe, other, NO_APPROVAL].concat())],
    );
    assert_eq!(r.gaps, vec![]);
}

#[test]
fn a_read_only_tool_needs_a_boundary_case() {
    let declared = tools(json!([{"name": "lookup", "annotations": {"readOnlyHint": true}}]));
    let ok = "  - mcp: look up\n    as: alice\n    tool: lookup\n    arguments: { plan_id: p }\n    \
        expect: { structured: { status: ready } }\n";
    let r = report::build(&declared, &[contract(ok)]);
    assert_eq!(missing(&r), vec![("lookup".to_owned(), "boundary")]);
    assert_eq!(r.gaps[0].code(), "COVERAGE_BOUNDARY_CASE_MISSING");
    let error = "  - mcp: unknown plan\n    as: alice\n    tool: lookup\n    \
        arguments: { plan_id: nope }\n    expect: { is_error: true }\n";
    let r = report::build(&declared, &[contract(&format!("{ok}{error}"))]);
    assert_eq!(r.gaps, vec![]);
}

#[test]
fn an_unused_operation_is_one_gap_and_an_undeclared_hint_is_destructive() {
    let declared = tools(json!([{"name": "archive"}]));
    let r = report::build(&declared, &[contract(CALL)]);
    assert_eq!(missing(&r), vec![("archive".to_owned(), "contract")]);
    assert_eq!(r.gaps[0].code(), "COVERAGE_NO_CONTRACT");
    assert_eq!(r.operations[0].risk, Risk::Destructive);
}

#[test]
fn the_riskiest_profile_decides_a_tools_risk() {
    let declared = Declared {
        card: None,
        listings: BTreeMap::from([
            (
                "admin".to_owned(),
                json!({"tools": [{"name": "t", "annotations": {"destructiveHint": false}}]}),
            ),
            (
                "user".to_owned(),
                json!({"tools": [{"name": "t", "annotations": {"readOnlyHint": true}}]}),
            ),
        ]),
    };
    let r = report::build(&declared, &[]);
    assert_eq!(r.operations[0].risk, Risk::Write);
    assert_eq!(r.operations[0].profiles, vec!["admin", "user"]);
}

fn card(tags: Value) -> Declared {
    Declared {
        card: Some(json!({"skills": [{"id": "planning", "tags": tags}]})),
        listings: BTreeMap::new(),
    }
}

#[test]
fn a_skill_is_write_unless_tagged_or_observed_read_only() {
    let plain = "  - a2a: plan\n    as: alice\n    skill: planning\n    send: { text: plan }\n    \
        expect: [{ state: COMPLETED }]\n";
    let r = report::build(&card(json!([])), &[contract(plain)]);
    assert_eq!(r.operations[0].risk, Risk::Write);
    let r = report::build(&card(json!(["read-only"])), &[contract(plain)]);
    assert_eq!(r.operations[0].risk, Risk::ReadOnly);
    let r = report::build(&card(json!(["Destructive"])), &[contract(plain)]);
    assert_eq!(r.operations[0].risk, Risk::Destructive);
    let zero = format!("{plain}    side_effects: {{ records: 0 }}\n");
    let r = report::build(&card(json!([])), &[contract(&zero)]);
    assert_eq!(r.operations[0].risk, Risk::ReadOnly);
    let writes = format!("{plain}    side_effects: {{ records: +1 }}\n");
    let r = report::build(&card(json!(["read-only"])), &[contract(&writes)]);
    assert_eq!(r.operations[0].risk, Risk::Write);
}

#[test]
fn an_a2a_interaction_without_a_skill_is_the_only_skills() {
    let plain = "  - a2a: plan\n    as: alice\n    send: { text: plan }\n    \
        expect: [{ state: COMPLETED }]\n    side_effects: { records: 0 }\n";
    let failed = "  - a2a: refused\n    as: alice\n    send: { text: \"\" }\n    \
        expect: [{ state: FAILED }]\n    side_effects: { records: 0 }\n";
    let r = report::build(&card(json!([])), &[contract(&format!("{plain}{failed}"))]);
    assert_eq!(r.operations[0].interactions, 2);
    assert_eq!(r.gaps, vec![]);
}

#[test]
fn incident_interactions_are_kept() {
    let tagged = format!("{CALL}    comments: {{ tags: [incident] }}\n");
    let r = report::build(&delete_tool(), &[contract(&tagged)]);
    assert_eq!(r.kept.len(), 1);
    assert_eq!(r.kept[0].interaction, "delete a plan");
    assert!(r.kept[0].declared);
    let r = report::build(&tools(json!([])), &[contract(&tagged)]);
    assert!(!r.kept[0].declared, "kept even when the tool is gone");
}
