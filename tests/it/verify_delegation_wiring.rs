//! How a provider is wired to its stand-ins, and what a run says when it
//! is not: a dependency no interaction called is a warning, none of the
//! named ones called is exit 2 (a misnamed dependency would otherwise pass
//! on everything downstream), and a delegation verified without stand-ins
//! is said to be unchecked.

use accord_fixtures::a2a::A2aFault;

use crate::support::temp_dir;
use crate::verify_delegation::{
    agent, agent_contract, helper_contract, run, the_record, tools_contract,
};

#[test]
fn a_dependency_no_interaction_calls_is_a_warning() {
    let dir = temp_dir("delegation-uncalled");
    let contract = agent_contract(&dir, the_record());
    let tools = tools_contract(&dir, "2026-07-28");
    let helper = helper_contract(&dir);
    let (code, _, err) = run(
        &agent(None),
        &contract,
        &[("tools", &tools), ("helper-agent", &helper)],
        "jsonrpc",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("warning: the dependency helper-agent was served"),
        "{err}"
    );
    assert!(!err.contains("dependency tools was"), "{err}");
}

#[test]
fn a_delegation_verified_without_stand_ins_is_said_to_be_unchecked() {
    let dir = temp_dir("delegation-unobserved");
    let contract = agent_contract(&dir, the_record());
    let (code, report, err) = run(&agent(None), &contract, &[], "jsonrpc");
    assert_eq!(code, Some(0), "{err}");
    let warnings = &report["contracts"][0]["interactions"][0]["warnings"];
    assert_eq!(
        warnings[0]["reasonCode"], "EXPECTATION_UNCHECKED",
        "{report:#}"
    );
    assert_eq!(warnings[0]["path"], "delegation", "{report:#}");
}

#[test]
fn a_dependency_name_the_provider_never_calls_is_an_error_not_a_silent_pass() {
    let dir = temp_dir("delegation-misnamed");
    let contract = agent_contract(&dir, the_record());
    let tools = tools_contract(&dir, "2026-07-28");
    // the agent's wiring reads `tools`; served as `tool`, it is never
    // called — even the faulty build would pass on what it does downstream
    let (code, _, err) = run(
        &agent(Some(A2aFault::DownstreamSynthetic)),
        &contract,
        &[("tool", &tools)],
        "jsonrpc",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the provider called none of its stand-ins (`tool`)")
            && err.contains("check that NAME is the name its wiring reads"),
        "{err}"
    );
}
