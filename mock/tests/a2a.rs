//! The mock's A2A agent against a real HTTP client on loopback: the card,
//! both bindings, the task sequence, follow-ups and cancel, errors, and
//! the report.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use accord_mock::{MockOptions, MockServer};
use reqwest::blocking::Client;
use serde_json::{Value, json};

fn client() -> Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("a client")
}

const SPEC: &str = r#"
consumer: orchestrator
provider: planning-agent
protocols: { a2a: "1.0" }
principals:
  alice: { tenant: tenant-a }
  bob: { tenant: tenant-b }
agent_card:
  skills: [work-planning]
  capabilities: { streaming: true }
interactions:
  - a2a: draft a plan
    as: alice
    skill: work-planning
    send:
      stream: true
      data:
        request_id: { $uuid: ~ }
        items: [{ title: rotate keys }]
    expect:
      - { state: SUBMITTED, optional: true }
      - state: WORKING
      - artifact:
          name: work-plan
          media_type: application/json
          data:
            plan_id: { $regex: "^plan-\\d+$", example: plan-1 }
            steps: { $eachLike: { title: { $like: rotate keys } }, min: 1 }
      - state: COMPLETED
    follow_ups:
      - op: GetTask
        params: { historyLength: 0 }
        expect: { state: COMPLETED }
      - op: CancelTask
        error: { reason: TASK_NOT_CANCELABLE }
      - op: GetTask
        as: bob
        error: { reason: TASK_NOT_FOUND }
  - a2a: cancel a slow plan
    as: alice
    send: { text: a slow plan, return_immediately: true }
    expect: [{ state: WORKING }]
    cancel: { at: WORKING, expect: CANCELED }
"#;

fn contract() -> accord_dsl::Contract {
    accord_dsl::spec::compile_spec(SPEC, "a2a.yaml", &accord_dsl::spec::NoSchemaFiles)
        .expect("the spec compiles")
}

fn start() -> MockServer {
    let options = MockOptions {
        principals: vec![
            ("alice".into(), "token-a".into()),
            ("bob".into(), "token-b".into()),
        ],
        ..MockOptions::default()
    };
    MockServer::start_with(&contract(), options).expect("starts")
}

/// A JSON-RPC call as `token`.
fn rpc(c: &Client, url: &str, token: &str, method: &str, params: Value) -> Value {
    c.post(url)
        .bearer_auth(token)
        .header("A2A-Version", "1.0")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .send()
        .expect("answered")
        .json()
        .expect("JSON")
}

/// The `data:` payloads of an SSE answer, read to its end.
fn frames(r: reqwest::blocking::Response) -> Vec<Value> {
    BufReader::new(r)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| l.strip_prefix("data: ").map(str::to_owned))
        .map(|d| serde_json::from_str(&d).expect("a JSON frame"))
        .collect()
}

fn plan_message() -> Value {
    json!({"messageId": "m-1", "role": "ROLE_USER",
        "parts": [{"data": {"request_id": "0b1c2d3e-0000-4000-8000-000000000000", "items": [{"title": "rotate keys"}]}}]})
}

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

const TURNS: &str = r#"
consumer: orchestrator
provider: planning-agent
protocols: { a2a: "1.0" }
agent_card:
  capabilities: { streaming: true, push_notifications: true, extended_agent_card: false }
interactions:
  - a2a: a plan that needs input
    send: { text: plan my week, return_immediately: true }
    expect:
      - state: WORKING
      - state: INPUT_REQUIRED
        message: { text: which week? }
    push: { token: push-1, scheme: Bearer, expect: [WORKING, INPUT_REQUIRED, COMPLETED] }
    follow_ups:
      - op: SendMessage
        send: { text: next week }
        expect:
          events:
            - artifact: { name: week, data: { days: 5 } }
            - state: COMPLETED
  - a2a: a long plan watched by subscription
    send: { text: a long plan, return_immediately: true }
    expect: [{ state: WORKING }, { state: COMPLETED }]
    follow_ups:
      - op: SubscribeToTask
        after: WORKING
        expect: { events: [{ state: COMPLETED }] }
"#;

/// A loopback webhook that keeps what it receives.
fn webhook() -> (String, std::sync::mpsc::Receiver<(String, Value)>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}/hook", listener.local_addr().expect("bound"));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { return };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // headers, then the body by Content-Length
            loop {
                let n = s.read(&mut chunk).unwrap_or(0);
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf).to_string();
                if let Some((head, body)) = text.split_once("\r\n\r\n") {
                    let len = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                        })
                        .unwrap_or(0);
                    if body.len() >= len {
                        let auth = head
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .starts_with("authorization:")
                                    .then(|| l[14..].trim().to_owned())
                            })
                            .unwrap_or_default();
                        let event = serde_json::from_str(&body[..len]).unwrap_or(Value::Null);
                        drop(tx.send((auth, event)));
                        // one request per connection: say so, or a pooled connection
                        // reused for the next push would be cut mid-request
                        drop(s.write_all(
                            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                        ));
                        break;
                    }
                }
            }
        }
    });
    (url, rx)
}

#[test]
fn an_interrupted_task_continues_with_its_follow_up_and_pushes_every_state() {
    let contract =
        accord_dsl::spec::compile_spec(TURNS, "turns.yaml", &accord_dsl::spec::NoSchemaFiles)
            .expect("the spec compiles");
    let mock = MockServer::start(&contract).expect("starts");
    let c = client();
    let url = format!("{}/a2a", mock.url());
    let (hook, received) = webhook();
    let sent = rpc(
        &c,
        &url,
        "t",
        "SendMessage",
        json!({
        "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "plan my week"}]},
        "configuration": {"returnImmediately": true, "taskPushNotificationConfig": {
            "url": hook, "token": "push-1", "authentication": {"scheme": "Bearer", "credentials": "secret"}}}}),
    );
    let id = sent["result"]["task"]["id"]
        .as_str()
        .expect("a task")
        .to_owned();
    let context = sent["result"]["task"]["contextId"]
        .as_str()
        .expect("a context")
        .to_owned();
    let got = rpc(&c, &url, "t", "GetTask", json!({"id": id}));
    assert_eq!(
        got["result"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    assert_eq!(
        got["result"]["status"]["message"]["parts"][0]["text"],
        "which week?"
    );
    let done = rpc(
        &c,
        &url,
        "t",
        "SendMessage",
        json!({
        "message": {"messageId": "m2", "role": "ROLE_USER", "taskId": id, "contextId": context,
            "parts": [{"text": "next week"}]}}),
    );
    assert_eq!(
        done["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{done}"
    );
    assert_eq!(
        done["result"]["task"]["artifacts"][0]["parts"][0]["data"]["days"],
        5
    );
    let mut states = Vec::new();
    while let Ok((auth, event)) = received.recv_timeout(Duration::from_secs(5)) {
        assert_eq!(auth, "Bearer secret");
        if let Some(s) = event["statusUpdate"]["status"]["state"].as_str() {
            states.push(s.to_owned());
        }
        if states.last().is_some_and(|s| s == "TASK_STATE_COMPLETED") {
            break;
        }
    }
    assert_eq!(
        states,
        [
            "TASK_STATE_WORKING",
            "TASK_STATE_INPUT_REQUIRED",
            "TASK_STATE_COMPLETED"
        ]
    );
    // the extended card is declared false: refused as A2A v1.0 §3.3.4 says
    let card = rpc(&c, &url, "t", "GetExtendedAgentCard", json!({}));
    assert_eq!(card["error"]["data"][0]["reason"], "UNSUPPORTED_OPERATION");
    let report = mock.verify();
    let lines: Vec<String> = report.mismatches.iter().map(|m| m.line()).collect();
    assert_eq!(report.interactions[0].exercised, 1);
    assert!(
        lines.iter().all(|l| !l.contains("plan my week")),
        "{lines:?}"
    );
}

#[test]
fn a_subscription_follows_a_held_task_and_a_client_leaving_early_is_recorded() {
    let contract =
        accord_dsl::spec::compile_spec(TURNS, "turns.yaml", &accord_dsl::spec::NoSchemaFiles)
            .expect("the spec compiles");
    let mock = MockServer::start(&contract).expect("starts");
    let c = client();
    let url = format!("{}/a2a", mock.url());
    let send = |c: &Client| {
        rpc(
            c,
            &url,
            "t",
            "SendMessage",
            json!({
            "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a long plan"}]},
            "configuration": {"returnImmediately": true}}),
        )["result"]["task"]["id"]
            .as_str()
            .expect("a task")
            .to_owned()
    };
    let id = send(&c);
    let subscribe = |id: &str| {
        c.post(&url)
            .bearer_auth("t")
            .header("A2A-Version", "1.0")
            .json(&json!({"jsonrpc": "2.0", "id": 9, "method": "SubscribeToTask", "params": {"id": id}}))
            .send()
            .expect("answered")
    };
    let events = frames(subscribe(&id));
    assert_eq!(
        events[0]["result"]["task"]["status"]["state"],
        "TASK_STATE_WORKING"
    );
    let last = events.last().expect("events");
    assert_eq!(
        last["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    // a task held for its cancel: the client reads the first frame and goes away
    let held = start();
    let url = format!("{}/a2a", held.url());
    let sent = rpc(
        &c,
        &url,
        "token-a",
        "SendMessage",
        json!({
        "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "a slow plan"}]},
        "configuration": {"returnImmediately": true}}),
    );
    let id = sent["result"]["task"]["id"]
        .as_str()
        .expect("a task")
        .to_owned();
    let r = c
        .post(&url)
        .bearer_auth("token-a")
        .header("A2A-Version", "1.0")
        .json(
            &json!({"jsonrpc": "2.0", "id": 9, "method": "SubscribeToTask", "params": {"id": id}}),
        )
        .send()
        .expect("answered");
    let mut r = BufReader::new(r);
    let mut first = String::new();
    r.read_line(&mut first).expect("a frame");
    assert!(first.starts_with("data: "), "{first}");
    drop(r);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let lines: Vec<String> = held.verify().mismatches.iter().map(|m| m.line()).collect();
        if lines.iter().any(|l| l.contains("closed the stream")) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not recorded: {lines:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // still serving
    let again = rpc(&c, &url, "token-a", "GetTask", json!({"id": id}));
    assert_eq!(again["result"]["id"], json!(id));
}
