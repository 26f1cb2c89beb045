//! A provider that cannot be reached is not a broken provider: unreachable
//! before the first interaction is an operational error naming the URL and
//! its option; one that goes away later fails what it fails, and no
//! counter is judged for a request that never reached it.

use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use accord_fixtures::a2a::A2aAgent;
use accord_fixtures::http::HttpProvider;
use accord_fixtures::mcp::McpProvider;
use accord_verifier::report::InteractionResult;
use accord_verifier::run::{Progress, verify_on_threads};
use accord_verifier::{
    ContractSource, SourcedContract, VerifyConfig, VerifyError, default_drivers, verify_blocking,
};
use serde_json::json;

use crate::support::{codes, config, contract, http, provider};

/// Stops the provider it holds once the first interaction has finished,
/// waiting until its workers have stopped and its port refuses connections.
struct StopAfterFirst(Mutex<Option<HttpProvider>>, String);

impl Progress for StopAfterFirst {
    fn finished(&self, _consumer: &str, _result: &InteractionResult) {
        let stopped = self.0.lock().map(|mut p| p.take()).ok().flatten();
        let Some(provider) = stopped else {
            return;
        };
        provider.stop();
        while TcpStream::connect(&self.1).is_ok() {
            std::thread::yield_now();
        }
    }
}

fn host_port(url: &str) -> String {
    url.trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_owned()
}

fn unreachable(err: VerifyError) -> (String, &'static str) {
    match err {
        VerifyError::Unreachable { url, flag, .. } => (url, flag),
        other => panic!("not an unreachable provider: {other}"),
    }
}

fn create() -> serde_json::Value {
    let mut i = http(
        "create an item",
        json!({"method": "POST", "path": "/items", "body": {"content": {"name": "lamp"}}}),
        json!({"status": 201}),
    );
    i["sideEffects"] = json!({"records": 1});
    i
}

#[test]
fn a_provider_down_before_the_first_interaction_is_an_operational_error() {
    let p = provider();
    let mut cfg = config(&p, vec![contract(vec![create()])]);
    cfg.provider_base_url = "http://127.0.0.1:9".into();
    let err = verify_blocking(&cfg).expect_err("nothing can be verified");
    assert_eq!(
        unreachable(err),
        ("http://127.0.0.1:9".to_owned(), "--provider-base-url")
    );
}

#[test]
fn an_agent_card_or_mcp_endpoint_that_does_not_answer_is_named_by_its_option() {
    let agent = A2aAgent::start().expect("agent");
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [], "agentCard": {"skills": [{"id": "work-planning"}]},
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let card_only = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "card").expect("a contract"),
        "card",
    );
    let mut cfg = VerifyConfig::new(
        "planning-agent",
        agent.base_url(),
        ContractSource::Loaded(vec![card_only]),
    );
    cfg.agent_card_url = Some("http://127.0.0.1:9/.well-known/agent-card.json".into());
    let err = verify_blocking(&cfg).expect_err("nothing can be verified");
    assert_eq!(unreachable(err).1, "--agent-card-url");
    // the card under the base URL: the base URL's option is named
    cfg.agent_card_url = None;
    cfg.provider_base_url = "http://127.0.0.1:9".into();
    let err = verify_blocking(&cfg).expect_err("nothing can be verified");
    assert_eq!(
        unreachable(err),
        (
            "http://127.0.0.1:9/.well-known/agent-card.json".to_owned(),
            "--provider-base-url"
        )
    );
    // an MCP endpoint elsewhere than the (live) base URL
    let server = McpProvider::start().expect("server");
    let mut tools = crate::mcp_contract::with_tools("2026-07-28");
    tools.contract.interactions.clear();
    let mut cfg = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![tools]),
    );
    cfg.mcp_url = Some("http://127.0.0.1:9/mcp".into());
    let err = verify_blocking(&cfg).expect_err("nothing can be verified");
    assert_eq!(
        unreachable(err),
        ("http://127.0.0.1:9/mcp".to_owned(), "--mcp-url")
    );
}

#[test]
fn a_provider_that_goes_away_mid_run_fails_what_it_sent_and_no_counter_is_judged() {
    let p = provider();
    // the counters are another service's: they can still be read
    let store = provider();
    let read = http(
        "a secure read without a token is refused",
        json!({"method": "GET", "path": "/secure"}),
        json!({"status": 401}),
    );
    let mut cfg = config(&p, vec![contract(vec![read, create()])]);
    cfg.observe_url = Some(store.observe_url());
    cfg.state_change_url = None;
    let progress = Arc::new(StopAfterFirst(
        Mutex::new(Some(p)),
        host_port(&cfg.provider_base_url),
    ));
    let report = verify_on_threads(&cfg, default_drivers(), Some(progress)).expect("a verdict");
    assert_eq!(
        codes(&report),
        [("protocol", "REQUEST_FAILED", "response".to_owned())],
        "one finding: the request that failed, not the counter it did not move"
    );
}

#[test]
fn an_agent_card_that_cannot_be_read_is_said_once_and_judges_no_counter() {
    let agent = A2aAgent::start().expect("agent");
    let draft = json!({"type": "A2A/Task", "description": "draft a plan",
        "providerStates": crate::a2a_task::users(), "skill": "work-planning",
        "auth": crate::a2a_task::alice(), "sideEffects": {"records": 1},
        "request": crate::a2a_task::plan_request(json!({})),
        "terminalState": "TASK_STATE_COMPLETED"});
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [draft], "agentCard": {"skills": [{"id": "work-planning"}]},
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "card").expect("a contract"),
        "card",
    );
    let mut cfg = VerifyConfig::new(
        "planning-agent",
        agent.base_url(),
        ContractSource::Loaded(vec![c]),
    );
    // the agent answers, but not with a card
    cfg.agent_card_url = Some(format!("{}/no-card-here", agent.base_url()));
    cfg.state_change_url = Some(agent.state_change_url());
    cfg.observe_url = Some(agent.observe_url());
    let report = verify_blocking(&cfg).expect("a verdict");
    assert!(
        report.contracts[0].findings.is_empty(),
        "{:?}",
        report.contracts[0].findings
    );
    let found: Vec<_> = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .map(|f| (f.reason_code, f.path.as_str()))
        .collect();
    assert_eq!(found, [("EXPECTATION_UNCHECKED", "agentCard")]);
    assert!(!report.passed());
}

#[test]
fn an_a2a_interface_that_cannot_be_reached_fails_the_send_and_judges_no_counter() {
    // the card answers; the interface it names does not
    let mut card = json!({"name": "planning-agent", "description": "Plans.", "version": "1.0.0",
        "supportedInterfaces": [{"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": false}, "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["application/json"], "skills": []});
    card["skills"] =
        json!([{"id": "work-planning", "name": "Plan", "description": "Plans", "tags": []}]);
    let mut routes = std::collections::HashMap::new();
    routes.insert(
        ("GET".to_owned(), "/.well-known/agent-card.json".to_owned()),
        accord_fixtures::stub::Canned {
            status: 200,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: card.to_string().into_bytes(),
        },
    );
    let config = accord_fixtures::stub::StubConfig {
        routes,
        ..Default::default()
    };
    let stub = accord_fixtures::stub::StubProvider::start(config).expect("stub");
    let store = provider();
    let draft = json!({"type": "A2A/Task", "description": "draft a plan", "sideEffects": {"records": 1},
        "request": crate::a2a_task::plan_request(json!({})), "terminalState": "TASK_STATE_COMPLETED"});
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [draft],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "a2a").expect("a contract"),
        "a2a",
    );
    let mut cfg = VerifyConfig::new(
        "planning-agent",
        stub.base_url(),
        ContractSource::Loaded(vec![c]),
    );
    cfg.allowed_origins =
        vec![accord_verifier::Origin::parse("http://127.0.0.1:9").expect("an origin")];
    cfg.observe_url = Some(store.observe_url());
    cfg.limits.request_timeout = std::time::Duration::from_secs(2);
    let report = verify_blocking(&cfg).expect("a verdict");
    let found: Vec<_> = report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .map(|f| f.reason_code)
        .collect();
    assert_eq!(found, ["REQUEST_FAILED"]);
}
