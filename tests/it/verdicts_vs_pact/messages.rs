//! Message pacts, V3 `messages` and V4 `Asynchronous/Messages`, against the
//! fixture's message endpoint (clean, and with a wrong field).

use accord_fixtures::http::{Fault, HttpProvider};
use serde_json::{Value, json};

use super::harness::{Case, Expect, Expect::Pass, Target, judge, mismatch, served};

fn rules() -> Value {
    json!({"body": {"$.orderId": {"matchers": [{"match": "integer"}]}}})
}

fn v3_pact() -> Value {
    json!({
        "consumer": {"name": "web"}, "provider": {"name": "items"},
        "messages": [{
            "description": "an order event",
            "providerStates": [{"name": "an order was placed"}],
            "contents": {"orderId": 1, "status": "created"},
            "matchingRules": rules(),
            "metaData": {"topic": "orders"}
        }],
        "metadata": {"pactSpecification": {"version": "3.0.0"}}
    })
}

fn v4_pact() -> Value {
    json!({
        "consumer": {"name": "web"}, "provider": {"name": "items"},
        "interactions": [{
            "type": "Asynchronous/Messages",
            "description": "an order event",
            "providerStates": [{"name": "an order was placed"}],
            "contents": {"content": {"orderId": 1, "status": "created"},
                         "contentType": "application/json", "encoded": false},
            "matchingRules": rules(),
            "metadata": {"topic": "orders"}
        }],
        "metadata": {"pactSpecification": {"version": "4.0"}}
    })
}

fn case(pact: &Value, expect: Expect) -> Vec<Case> {
    let messages = pact.get("messages").unwrap_or(&pact["interactions"]);
    vec![Case {
        interaction: messages[0].clone(),
        served: served(200, &[], b""),
        check: None,
        expect,
        pact_wrong: None,
        pact_path: None,
    }]
}

fn target(p: &HttpProvider) -> Target {
    Target {
        base_url: p.base_url(),
        state_url: p.state_change_url(),
        message_path: Some("/_accord/messages".into()),
    }
}

#[test]
fn message_pacts_agree_with_pact() {
    let p = HttpProvider::start().expect("provider");
    for (name, pact) in [("v3", v3_pact()), ("v4", v4_pact())] {
        p.set_fault(None);
        judge(
            &format!("messages-{name}"),
            &pact,
            &case(&pact, Pass),
            &target(&p),
        );
        p.set_fault(Some(Fault::WrongBody));
        let wrong = case(&pact, mismatch("$.status"));
        judge(
            &format!("messages-{name}-wrong"),
            &pact,
            &wrong,
            &target(&p),
        );
    }
}
