//! A multi-turn task (input required, then a follow-up message) with push
//! delivery to a webhook, and subscriptions to a held task.

use super::*;

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
