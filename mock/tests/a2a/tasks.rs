//! The card, a streamed task and its follow-ups, a held task on both
//! bindings, and bad requests.

use super::*;

#[test]
fn the_card_carries_the_contracts_skills_capabilities_and_the_mocks_urls() {
    let mock = start();
    let card: Value = client()
        .get(mock.a2a_card_url().expect("an A2A surface"))
        .send()
        .expect("answered")
        .json()
        .expect("JSON");
    assert_eq!(card["name"], "planning-agent");
    assert_eq!(card["skills"][0]["id"], "work-planning");
    assert_eq!(card["capabilities"]["streaming"], true);
    assert_eq!(card["capabilities"]["pushNotifications"], false);
    let jsonrpc = &card["supportedInterfaces"][0];
    assert_eq!(jsonrpc["protocolBinding"], "JSONRPC");
    assert_eq!(jsonrpc["url"], format!("{}/a2a", mock.url()));
    assert_eq!(
        card["supportedInterfaces"][1]["url"],
        format!("{}/a2a/rest", mock.url())
    );
    assert!(
        card["securitySchemes"].is_object(),
        "principals need a scheme: {card}"
    );
    assert!(
        card["defaultOutputModes"]
            .as_array()
            .expect("modes")
            .contains(&json!("application/json"))
    );
}

#[test]
fn a_streamed_task_replays_the_sequence_and_its_follow_ups_are_counted() {
    let mock = start();
    let c = client();
    let url = format!("{}/a2a", mock.url());
    let r = c
        .post(&url)
        .bearer_auth("token-a")
        .header("A2A-Version", "1.0")
        .json(
            &json!({"jsonrpc": "2.0", "id": "s", "method": "SendStreamingMessage",
            "params": {"message": plan_message(), "configuration": {}}}),
        )
        .send()
        .expect("answered");
    assert!(
        r.headers()["content-type"]
            .to_str()
            .expect("text")
            .starts_with("text/event-stream")
    );
    let events = frames(r);
    let results: Vec<&Value> = events.iter().map(|e| &e["result"]).collect();
    assert_eq!(events[0]["id"], "s");
    let task = &results[0]["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_SUBMITTED");
    let kinds: Vec<String> = results[1..]
        .iter()
        .map(|r| match (&r["statusUpdate"], &r["artifactUpdate"]) {
            (Value::Object(s), _) => s["status"]["state"].as_str().unwrap_or("").to_owned(),
            (_, Value::Object(a)) => {
                format!("artifact {}", a["artifact"]["name"].as_str().unwrap_or(""))
            }
            _ => "?".into(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "TASK_STATE_WORKING",
            "artifact work-plan",
            "TASK_STATE_COMPLETED"
        ]
    );
    let artifact = &results[2]["artifactUpdate"]["artifact"];
    assert_eq!(artifact["parts"][0]["data"]["plan_id"], "plan-1");
    assert_eq!(artifact["parts"][0]["mediaType"], "application/json");

    let id = task["id"].as_str().expect("an id");
    let got = rpc(
        &c,
        &url,
        "token-a",
        "GetTask",
        json!({"id": id, "historyLength": 0}),
    );
    assert_eq!(got["result"]["status"]["state"], "TASK_STATE_COMPLETED");
    assert!(got["result"].get("history").is_none());
    let cancel = rpc(&c, &url, "token-a", "CancelTask", json!({"id": id}));
    assert_eq!(cancel["error"]["code"], -32002);
    assert_eq!(cancel["error"]["data"][0]["reason"], "TASK_NOT_CANCELABLE");
    let foreign = rpc(&c, &url, "token-b", "GetTask", json!({"id": id}));
    assert_eq!(
        foreign["error"]["code"], -32001,
        "another tenant's task is not found"
    );

    let report = mock.verify();
    let missing: Vec<String> = report.mismatches.iter().map(|m| m.line()).collect();
    assert_eq!(report.interactions[0].exercised, 1);
    assert_eq!(
        missing.len(),
        1,
        "only the cancel interaction is missing: {missing:?}"
    );
    assert!(missing[0].contains("cancel a slow plan"), "{missing:?}");
}

#[test]
fn a_task_holds_where_the_contract_cancels_it_and_rest_works_too() {
    let mock = start();
    let c = client();
    let rest = format!("{}/a2a/rest", mock.url());
    let r: Value = c
        .post(format!("{rest}/message:send"))
        .bearer_auth("token-a")
        .header("A2A-Version", "1.0")
        .json(&json!({"message": {"messageId": "m-2", "role": "ROLE_USER", "parts": [{"text": "a slow plan"}]},
            "configuration": {"returnImmediately": true}}))
        .send()
        .expect("answered")
        .json()
        .expect("JSON");
    let id = r["task"]["id"].as_str().expect("a task").to_owned();
    std::thread::sleep(Duration::from_millis(100));
    let get = c
        .get(format!("{rest}/tasks/{id}"))
        .bearer_auth("token-a")
        .header("A2A-Version", "1.0")
        .send()
        .expect("answered");
    assert_eq!(get.headers()["content-type"], "application/a2a+json");
    let got: Value = get.json().expect("JSON");
    assert_eq!(
        got["status"]["state"], "TASK_STATE_WORKING",
        "held for the cancel"
    );
    let canceled: Value = c
        .post(format!("{rest}/tasks/{id}:cancel"))
        .bearer_auth("token-a")
        .header("A2A-Version", "1.0")
        .send()
        .expect("answered")
        .json()
        .expect("JSON");
    assert_eq!(canceled["status"]["state"], "TASK_STATE_CANCELED");
    let again = c
        .post(format!("{rest}/tasks/{id}:cancel"))
        .bearer_auth("token-a")
        .header("A2A-Version", "1.0")
        .send()
        .expect("answered");
    assert_eq!(again.status(), 400);
    let body: Value = again.json().expect("JSON");
    assert_eq!(body["error"]["details"][0]["reason"], "TASK_NOT_CANCELABLE");
}

#[test]
fn bad_requests_get_clear_errors_are_recorded_and_the_mock_keeps_serving() {
    let mock = start();
    let c = client();
    let url = format!("{}/a2a", mock.url());
    let post = |body: &str, version: Option<&str>| {
        let mut r = c
            .post(&url)
            .bearer_auth("token-a")
            .header("content-type", "application/json")
            .body(body.to_owned());
        if let Some(v) = version {
            r = r.header("A2A-Version", v);
        }
        r.send().expect("answered").json::<Value>().expect("JSON")
    };
    assert_eq!(post("{oops", Some("1.0"))["error"]["code"], -32700);
    let unknown = r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{}}"#;
    assert_eq!(post(unknown, Some("1.0"))["error"]["code"], -32601);
    let send = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
        "params": {"message": plan_message()}})
    .to_string();
    let old = post(&send, None);
    assert_eq!(old["error"]["code"], -32009, "no A2A-Version is 0.3: {old}");
    let other = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
        "params": {"message": {"messageId": "x", "role": "ROLE_USER", "parts": [{"text": "something else"}]}}})
    .to_string();
    let refused = post(&other, Some("1.0"));
    assert_eq!(refused["error"]["code"], -32602);
    assert!(
        refused["error"]["message"]
            .as_str()
            .expect("text")
            .contains("no interaction")
    );
    let stream_as_unary = post(&send, Some("1.0"));
    assert!(
        stream_as_unary["error"]["message"]
            .as_str()
            .expect("text")
            .contains("SendStreamingMessage"),
        "{stream_as_unary}"
    );
    let anonymous = c
        .post(&url)
        .header("A2A-Version", "1.0")
        .json(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage",
            "params": {"message": plan_message()}}),
        )
        .send()
        .expect("answered");
    assert_eq!(
        anonymous.status(),
        401,
        "alice's interaction needs her token"
    );
    let wrong_type = c
        .post(&url)
        .header("content-type", "text/plain")
        .body(send.clone())
        .send()
        .expect("answered");
    assert_eq!(
        wrong_type.json::<Value>().expect("JSON")["error"]["code"],
        -32600
    );
    // still serving
    let card = c
        .get(mock.a2a_card_url().expect("card"))
        .send()
        .expect("answered");
    assert_eq!(card.status(), 200);
    let report = mock.verify();
    assert!(!report.ok);
    let lines: Vec<String> = report.mismatches.iter().map(|m| m.line()).collect();
    assert!(lines.iter().any(|l| l.contains("A2A-Version")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("unknown method message/send")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("no bearer token")),
        "{lines:?}"
    );
}
