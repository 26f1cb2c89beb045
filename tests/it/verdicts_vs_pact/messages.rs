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

fn quote(description: &str, item: &str, price: f64) -> Value {
    let json = |content: Value| json!({"content": content, "contentType": "application/json", "encoded": false});
    json!({
        "type": "Synchronous/Messages",
        "description": description,
        "request": {"contents": json(json!({"item": item}))},
        "response": [{"contents": json(json!({"item": item, "price": price}))}]
    })
}

#[test]
fn v4_synchronous_messages_agree_with_pact() {
    let p = HttpProvider::start().expect("provider");
    // The fixture answers "a price quote" with the item it was sent and a
    // price of 12.5: the request contents must reach it.
    let cases = vec![Case {
        interaction: quote("a price quote", "pen", 12.5),
        ..case(&v4_pact(), Pass)[0].clone()
    }];
    let pact = json!({
        "consumer": {"name": "web"}, "provider": {"name": "items"},
        "interactions": cases.iter().map(|c| c.interaction.clone()).collect::<Vec<_>>(),
        "metadata": {"pactSpecification": {"version": "4.0"}}
    });
    judge("sync-messages", &pact, &cases, &target(&p));
    let wrong = vec![Case {
        interaction: quote("a price quote", "pen", 13.0),
        ..case(&v4_pact(), mismatch("$.price"))[0].clone()
    }];
    let pact = json!({
        "consumer": {"name": "web"}, "provider": {"name": "items"},
        "interactions": [wrong[0].interaction.clone()],
        "metadata": {"pactSpecification": {"version": "4.0"}}
    });
    judge("sync-messages-wrong", &pact, &wrong, &target(&p));
}
