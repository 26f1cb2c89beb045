//! `delegation:` on an `a2a:` interaction: lowered into the model and into
//! the send's `message.metadata.delegation`; unknown keys, empty maps,
//! contradictions and a second hand-written record refused.

use super::*;
use crate::model::accord::{CredentialRule, Delegation, TraceRule};

const DRAFT_ONLY: &str = r#"  - a2a: draft a plan without registering tasks
    as: alice
    send: { data: { goal: plan the offsite } }
    expect: [{ state: COMPLETED }]
    delegation:
      mode: DRAFT_ONLY
      tools: { allowed: [meeting.search, policy.check], forbidden: [ticket.create] }
      agents: { forbidden: [billing-agent] }
      budget: { tool_calls: 5, cost_units: 10, costs: { meeting.search: 2, policy.check: 1 } }
      max_depth: 0
      deadline_ms: 30000
      trace: propagate
      credential: not_forwarded
"#;

fn record(c: &Contract) -> &Delegation {
    a2a(c).task.delegation.as_ref().expect("a delegation")
}

#[test]
fn every_key_is_lowered_into_the_record_and_the_message_metadata() {
    let c = compile(DRAFT_ONLY);
    let d = record(&c);
    assert_eq!(d.mode.as_deref(), Some("DRAFT_ONLY"));
    assert_eq!(
        d.allowed_tools.as_deref(),
        Some(&["meeting.search".to_owned(), "policy.check".to_owned()][..])
    );
    assert_eq!(d.forbidden_tools, ["ticket.create"]);
    assert_eq!(d.forbidden_agents, ["billing-agent"]);
    let b = d.budget.as_ref().expect("a budget");
    assert_eq!((b.tool_calls, b.cost_units), (Some(5), Some(10)));
    assert_eq!(d.cost_of("meeting.search"), 2);
    assert_eq!(d.cost_of("policy.check"), 1);
    assert_eq!((d.max_depth, d.max_fan_out), (Some(0), None));
    assert_eq!(d.deadline_ms, Some(30000));
    assert_eq!(d.trace_context, Some(TraceRule::Propagate));
    assert_eq!(d.credential, Some(CredentialRule::NotForwarded));
    let sent = a2a(&c)
        .task
        .request
        .message
        .metadata
        .as_ref()
        .expect("metadata");
    assert_eq!(sent["delegation"], d.to_metadata());
    assert_eq!(
        sent["delegation"]["forbiddenTools"],
        json!(["ticket.create"])
    );
    assert_eq!(sent["delegation"]["credential"], json!("notForwarded"));
    assert_eq!(crate::pact::lint(&c), vec![]);
}

#[test]
fn the_record_survives_the_json_round_trip() {
    let c = compile(DRAFT_ONLY);
    let v4 = crate::pact::to_v4_json(&c);
    assert_eq!(v4["interactions"][0]["delegation"]["maxDepth"], json!(0));
    let back = crate::pact::from_value(&v4, "t").expect("readable");
    assert_eq!(record(&back), record(&c));
}

#[test]
fn an_interaction_without_delegation_sends_no_record() {
    let c = compile("  - a2a: x\n    as: alice\n    send: { text: hi }\n");
    assert_eq!(a2a(&c).task.delegation, None);
    assert_eq!(a2a(&c).task.request.message.metadata, None);
}

#[test]
fn an_unknown_key_names_the_closest_at_its_line() {
    for (bad, wanted, line) in [
        ("      max_dept: 1\n", "(did you mean `max_depth`?)", 11),
        (
            "      tools: { forbiden: [x] }\n",
            "(did you mean `forbidden`?)",
            11,
        ),
        (
            "      budget: { tool_call: 1 }\n",
            "(did you mean `tool_calls`?)",
            11,
        ),
        (
            "      agents: { allowed: [x] }\n",
            "`delegation.agents`'s keys are forbidden",
            11,
        ),
    ] {
        let text = format!(
            "{HEAD}  - a2a: x\n    as: alice\n    send: {{ text: hi }}\n    delegation:\n{bad}"
        );
        let e = refuse(&text);
        let msg = e.to_string();
        assert!(msg.contains(wanted), "{msg}");
        assert_eq!(e.location().map(|l| l.0), Some(line), "{msg}");
    }
    refused_with(
        &format!("{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    delegation: {{ trace: keep }}\n"),
        &["unknown variant `keep`", "propagate"],
    );
    refused_with(
        &format!(
            "{HEAD}  - mcp: x\n    tool: t\n    expect: {{ is_error: false }}\n    delegation: {{ max_depth: 0 }}\n"
        ),
        &["`delegation` does not belong to an mcp interaction"],
    );
}

#[test]
fn a_map_that_constrains_nothing_and_blank_names_are_refused() {
    for (block, path) in [
        ("{ tools: {} }", "interactions[0].delegation.tools"),
        (
            "{ agents: { forbidden: [] } }",
            "interactions[0].delegation.agents",
        ),
        ("{ budget: {} }", "interactions[0].delegation.budget"),
        (
            "{ tools: { forbidden: [\"\"] } }",
            "interactions[0].delegation.tools.forbidden[0]",
        ),
        ("{ mode: \" \" }", "interactions[0].delegation.mode"),
    ] {
        refused_with(
            &format!(
                "{HEAD}  - a2a: x\n    as: alice\n    send: {{ text: hi }}\n    delegation: {block}\n"
            ),
            &[path],
        );
    }
}

#[test]
fn a_hand_written_record_beside_delegation_is_refused_naming_both() {
    refused_with(
        &format!(
            "{HEAD}  - a2a: x\n    as: alice\n    send: {{ text: hi, metadata: {{ delegation: {{ mode: X }} }} }}\n    delegation: {{ mode: DRAFT_ONLY }}\n"
        ),
        &[
            "interactions[0].send.metadata.delegation",
            "`interactions[0].delegation`",
            "line 9",
        ],
    );
}

#[test]
fn constraints_no_verifier_could_check_are_refused_at_their_key() {
    for (as_, block, path, code) in [
        (
            "",
            "{ credential: not_forwarded }",
            "interactions[0].delegation.credential",
            "DELEGATION_CREDENTIAL_UNPRESENTED",
        ),
        (
            "    as: alice\n    credential: none\n    negative: true\n",
            "{ credential: not_forwarded }",
            "interactions[0].delegation.credential",
            "DELEGATION_CREDENTIAL_UNPRESENTED",
        ),
        (
            "    as: alice\n",
            "{ tools: { allowed: [a, b], forbidden: [b] } }",
            "interactions[0].delegation.tools.forbidden[0]",
            "DELEGATION_TOOL_CONFLICT",
        ),
        (
            "    as: alice\n",
            "{ budget: { cost_units: 3 } }",
            "interactions[0].delegation.budget.cost_units",
            "DELEGATION_COST_WITHOUT_COSTS",
        ),
    ] {
        let text = format!(
            "{HEAD}  - a2a: x\n{as_}    send: {{ text: hi }}\n    expect: [{{ state: COMPLETED }}]\n    delegation: {block}\n"
        );
        let e = refuse(&text);
        let msg = e.to_string();
        assert!(msg.contains(path) && msg.contains(code), "{msg}");
        assert!(e.location().is_some(), "{msg}");
    }
}

#[test]
fn a_delegation_on_a_send_expected_to_fail_is_allowed() {
    let c = compile(
        "  - a2a: refused\n    as: alice\n    negative: true\n    send: { text: hi }\n    error: { http_status: 403 }\n    delegation: { tools: { forbidden: [ticket.create] } }\n",
    );
    assert_eq!(record(&c).forbidden_tools, ["ticket.create"]);
}
