//! Edge cases where verifiers are known to drift: number forms, empty
//! arrays, root arrays, regexes on numbers, null against a type rule, a
//! JSON body without a content type, and messages with wrong metadata.

use accord_fixtures::stub::{MESSAGE_PATH, StubConfig, StubProvider};
use base64::Engine;
use serde_json::{Value, json};

use super::harness::{Expect::Pass, Spec, Table, Target, get, judge, mismatch, served};

#[test]
fn json_edge_cases_agree_with_pact() {
    let mut t = Table::new(Spec::V3);
    let none = json!({});
    t.json(
        "integer served as a float",
        json!({"v": 1}),
        none.clone(),
        json!({"v": 1.0}),
        mismatch("$.v"),
    );
    t.json(
        "empty array expected, items served",
        json!({"v": []}),
        none.clone(),
        json!({"v": [1]}),
        mismatch("$.v"),
    );
    t.json(
        "empty object expected, keys served",
        json!({"v": {}}),
        none.clone(),
        json!({"v": {"a": 1}}),
        Pass,
    );
    t.json(
        "null expected, key missing",
        json!({"v": null}),
        none.clone(),
        json!({}),
        mismatch("$"),
    );
    t.json(
        "string under a type rule, null served",
        json!({"v": "a"}),
        json!({"$.v": [{"match": "type"}]}),
        json!({"v": null}),
        mismatch("$.v"),
    );
    t.json(
        "regex on a number",
        json!({"v": 12}),
        json!({"$.v": [{"match": "regex", "regex": "^\\d+$"}]}),
        json!({"v": 345}),
        Pass,
    );
    t.json(
        "regex on a number, wrong",
        json!({"v": 12}),
        json!({"$.v": [{"match": "regex", "regex": "^\\d{2}$"}]}),
        json!({"v": 345}),
        mismatch("$.v"),
    );
    let root = json!({"status": 200, "headers": {"Content-Type": "application/json"}, "body": [{"id": 1}],
                      "matchingRules": {"body": {"$": {"matchers": [{"match": "type", "min": 1}]},
                                                  "$[*].id": {"matchers": [{"match": "integer"}]}}}});
    let json_ct = [("Content-Type", "application/json")];
    t.push(
        get("root array ok", "/root/1", root.clone()),
        served(200, &json_ct, br#"[{"id":2},{"id":3}]"#),
        Pass,
    );
    t.push(
        get("root array item wrong", "/root/2", root),
        served(200, &json_ct, br#"[{"id":2},{"id":"3"}]"#),
        mismatch("$[1].id"),
    );
    let plain = json!({"status": 200, "body": {"v": 1}});
    t.push(
        get("json body without a content type", "/ct/1", plain.clone()),
        served(200, &[], br#"{"v":1}"#),
        Pass,
    );
    t.push(
        get("json body without a content type, wrong", "/ct/2", plain),
        served(200, &[], br#"{"v":2}"#),
        mismatch("$.v"),
    );
    t.run("v3-edges");
}

fn message(description: &str, content: Value, metadata: Value) -> Value {
    json!({
        "type": "Asynchronous/Messages",
        "description": description,
        "contents": {"content": content, "contentType": "application/json", "encoded": false},
        "matchingRules": {"body": {"$.id": {"matchers": [{"match": "integer"}]}}},
        "metadata": metadata
    })
}

fn sent(content: Value, metadata: Value) -> accord_fixtures::stub::Canned {
    let meta = base64::engine::general_purpose::STANDARD.encode(metadata.to_string());
    served(
        200,
        &[
            ("Content-Type", "application/json"),
            ("Pact-Message-Metadata", &meta),
        ],
        content.to_string().as_bytes(),
    )
}

#[test]
fn v4_messages_from_a_stub_agree_with_pact() {
    let mut t = Table::new(Spec::V4);
    let topic = json!({"topic": "orders"});
    let cases = [
        (
            "message ok",
            json!({"id": 9, "kind": "a"}),
            topic.clone(),
            Pass,
        ),
        (
            "message field wrong",
            json!({"id": "9", "kind": "a"}),
            topic.clone(),
            mismatch("$.id"),
        ),
        (
            "message extra field",
            json!({"id": 9, "kind": "a", "more": 1}),
            topic.clone(),
            Pass,
        ),
        (
            "message metadata wrong",
            json!({"id": 9, "kind": "a"}),
            json!({"topic": "payments"}),
            mismatch("topic"),
        ),
    ];
    let mut config = StubConfig::default();
    for (description, served_content, served_meta, expect) in cases {
        let interaction = message(description, json!({"id": 1, "kind": "a"}), topic.clone());
        config
            .messages
            .insert(description.into(), sent(served_content, served_meta));
        t.push(interaction, served(200, &[], b""), expect);
    }
    let stub = StubProvider::start(config).expect("stub starts");
    let target = Target {
        base_url: stub.base_url(),
        state_url: stub.state_change_url(),
        message_path: Some(MESSAGE_PATH.into()),
    };
    judge("v4-stub-messages", &t.pact(), &t.cases, &target);
}
