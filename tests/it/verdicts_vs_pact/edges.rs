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
    let combined = |combine: &str| {
        json!({"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"v": 5},
               "matchingRules": {"body": {"$.v": {"combine": combine,
                   "matchers": [{"match": "integer"}, {"match": "null"}]}}}})
    };
    t.push(
        get("combine OR, second rule holds", "/or/1", combined("OR")),
        served(200, &json_ct, br#"{"v":null}"#),
        Pass,
    );
    t.push(
        get("combine OR, no rule holds", "/or/2", combined("OR")),
        served(200, &json_ct, br#"{"v":"x"}"#),
        mismatch("$.v"),
    );
    t.push(
        get("combine AND, one rule fails", "/and/1", combined("AND")),
        served(200, &json_ct, br#"{"v":7}"#),
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
    let mut with_rule = |description: &str, served_topic: &str, expect| {
        let mut i = message(description, json!({"id": 1}), json!({"topic": "orders-1"}));
        i["matchingRules"]["metadata"] =
            json!({"topic": {"matchers": [{"match": "regex", "regex": "^orders-\\d+$"}]}});
        let canned = sent(json!({"id": 2}), json!({"topic": served_topic}));
        config.messages.insert(description.into(), canned);
        t.push(i, served(200, &[], b""), expect);
    };
    with_rule("message metadata under a regex", "orders-42", Pass);
    with_rule(
        "message metadata under a regex, wrong",
        "payments",
        mismatch("topic"),
    );
    let no_meta = served(
        200,
        &[("Content-Type", "application/json")],
        br#"{"id":1,"kind":"a"}"#,
    );
    config
        .messages
        .insert("message metadata missing".into(), no_meta);
    let missing = message(
        "message metadata missing",
        json!({"id": 1, "kind": "a"}),
        topic.clone(),
    );
    t.push(missing, served(200, &[], b""), mismatch("topic"));
    for (description, served_text, expect) in [
        ("text message ok", "hello", Pass),
        ("text message wrong", "bye", mismatch("$")),
    ] {
        let i = json!({"type": "Asynchronous/Messages", "description": description,
            "contents": {"content": "hello", "contentType": "text/plain", "encoded": false}});
        let canned = served(
            200,
            &[("Content-Type", "text/plain")],
            served_text.as_bytes(),
        );
        config.messages.insert(description.into(), canned);
        t.push(i, served(200, &[], b""), expect);
    }
    let stub = StubProvider::start(config).expect("stub starts");
    let target = Target {
        base_url: stub.base_url(),
        state_url: stub.state_change_url(),
        message_path: Some(MESSAGE_PATH.into()),
    };
    judge("v4-stub-messages", &t.pact(), &t.cases, &target);
}

#[test]
fn number_format_and_status_edges_agree_with_pact() {
    let mut t = Table::new(Spec::V4);
    let v = |m: Value| json!({ "$.v": [m] });
    let cases = [
        (
            "decimal served 2.0",
            v(json!({"match": "decimal"})),
            json!(1.5),
            json!(2.0),
            Pass,
        ),
        (
            "integer served 3.0",
            v(json!({"match": "integer"})),
            json!(1),
            json!(3.0),
            mismatch("$.v"),
        ),
        (
            "type integer served a float",
            v(json!({"match": "type"})),
            json!(1),
            json!(1.5),
            Pass,
        ),
        (
            "equal floats written differently",
            json!({}),
            json!(1.5),
            json!(1.50),
            Pass,
        ),
        // Pact applies a regex to a non-string value's JSON text, so null
        // is "null" and passes ^[a-z]+$ (both verifiers; a consumer that
        // refuses null adds a type rule). Kept to pin the shared semantics.
        (
            "regex of letters served null",
            v(json!({"match": "regex", "regex": "^[a-z]+$"})),
            json!("abc"),
            json!(null),
            Pass,
        ),
        (
            "regex served null",
            v(json!({"match": "regex", "regex": "^\\d+$"})),
            json!("1"),
            json!(null),
            mismatch("$.v"),
        ),
        (
            "date without a format",
            v(json!({"match": "date"})),
            json!("2024-01-02"),
            json!("2025-12-31"),
            Pass,
        ),
        (
            "date without a format, wrong",
            v(json!({"match": "date"})),
            json!("2024-01-02"),
            json!("31/12/2025"),
            mismatch("$.v"),
        ),
        (
            "datetime with millis",
            v(json!({"match": "datetime", "format": "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"})),
            json!("2024-01-02T10:00:00.000Z"),
            json!("2025-12-31T23:59:59.123+02:00"),
            Pass,
        ),
        (
            "datetime with millis, none served",
            v(json!({"match": "datetime", "format": "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"})),
            json!("2024-01-02T10:00:00.000Z"),
            json!("2025-12-31T23:59:59+02:00"),
            mismatch("$.v"),
        ),
        (
            "include on a number",
            v(json!({"match": "include", "value": "23"})),
            json!(1234),
            json!(99239),
            Pass,
        ),
        (
            "min zero accepts empty",
            v(json!({"match": "type", "min": 0})),
            json!([1]),
            json!([]),
            Pass,
        ),
        (
            "minmax type too many",
            v(json!({"match": "type", "min": 1, "max": 1})),
            json!([1]),
            json!([1, 2]),
            mismatch("$.v"),
        ),
    ];
    for (description, rules, expected, actual, expect) in cases {
        t.json(
            description,
            json!({"v": expected}),
            rules,
            json!({"v": actual}),
            expect,
        );
    }
    let status = |s: Value, example: u16| json!({"status": example, "matchingRules": {"status": {"matchers": [{"match": "statusCode", "status": s}]}}});
    let statuses = [
        ("status list ok", json!([200, 201]), 200, 201, Pass),
        (
            "status list wrong",
            json!([200, 201]),
            200,
            202,
            mismatch("status"),
        ),
        ("status redirect ok", json!("redirect"), 301, 302, Pass),
        (
            "status serverError wrong",
            json!("serverError"),
            500,
            404,
            mismatch("status"),
        ),
        ("status nonError ok", json!("nonError"), 200, 302, Pass),
        ("status error ok", json!("error"), 400, 503, Pass),
        (
            "status information wrong",
            json!("info"),
            100,
            200,
            mismatch("status"),
        ),
    ];
    for (description, class, example, actual, expect) in statuses {
        let path = format!("/status/{}", t.cases.len());
        t.push(
            get(description, &path, status(class, example)),
            served(actual, &[], b""),
            expect,
        );
    }
    let json_ct = [("Content-Type", "application/json")];
    let body = json!({"status": 200, "headers": {"Content-Type": "application/json"},
                      "body": {"content": {"v": 1}, "contentType": "application/json", "encoded": false}});
    t.push(
        get("json expected, empty body served", "/b/1", body.clone()),
        served(200, &json_ct, b""),
        mismatch("$"),
    )
    // Pact names a missing body "/", Accord "$" like any body mismatch.
    .pact_path = Some("/");
    t.push(
        get("json expected, text served", "/b/2", body.clone()),
        served(200, &json_ct, b"not json"),
        mismatch("$"),
    );
    t.push(
        get("hal+json served for json", "/b/3", body),
        served(
            200,
            &[("Content-Type", "application/hal+json")],
            br#"{"v":1}"#,
        ),
        mismatch("Content-Type"),
    );
    t.run("v4-number-format-status");
}
