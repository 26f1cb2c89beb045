//! What the agent keeps per task is bounded: follow-up messages and push
//! configs.

use super::*;

const LOOP: &str = r#"
consumer: orchestrator
provider: planning-agent
protocols: { a2a: "1.0" }
agent_card:
  capabilities: { streaming: false, push_notifications: true, extended_agent_card: false }
interactions:
  - a2a: a plan that keeps asking
    send: { text: plan my week, return_immediately: true }
    expect:
      - state: INPUT_REQUIRED
        message: { text: which week? }
    push: { token: push-1, scheme: Bearer, expect: [INPUT_REQUIRED] }
    follow_ups:
      - op: SendMessage
        send: { text: next week }
        expect:
          events:
            - state: INPUT_REQUIRED
              message: { text: which week? }
"#;

/// A mock of [`LOOP`].
fn start_loop() -> MockServer {
    let contract =
        accord_dsl::spec::compile_spec(LOOP, "loop.yaml", &accord_dsl::spec::NoSchemaFiles)
            .expect("the spec compiles");
    MockServer::start(&contract).expect("starts")
}

#[test]
fn a_task_takes_a_bounded_number_of_follow_ups_and_push_configs() {
    let mock = start_loop();
    let c = client();
    let url = format!("{}/a2a", mock.url());
    let message =
        json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "plan my week"}]});
    let sent = rpc(
        &c,
        &url,
        "t",
        "SendMessage",
        json!({"message": message,
        "configuration": {"returnImmediately": true}}),
    );
    let task = &sent["result"]["task"];
    let (id, context) = (task["id"].clone(), task["contextId"].clone());
    let follow_up = |n: usize| {
        rpc(
            &c,
            &url,
            "t",
            "SendMessage",
            json!({"message": {"messageId": format!("m{n}"),
            "role": "ROLE_USER", "taskId": id, "contextId": context,
            "parts": [{"text": "next week"}]}}),
        )
    };
    for n in 0..100 {
        let r = follow_up(n);
        assert_eq!(
            r["result"]["task"]["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
            "{r}"
        );
    }
    let refused = follow_up(100);
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("100 follow-up")),
        "{refused}"
    );
    for n in 0..101 {
        let r = rpc(
            &c,
            &url,
            "t",
            "CreateTaskPushNotificationConfig",
            json!({"taskId": id,
            "id": format!("c{n}"), "url": "http://127.0.0.1:9/hook", "token": "push-1"}),
        );
        assert!(r.get("result").is_some(), "{r}");
    }
    let listed = rpc(
        &c,
        &url,
        "t",
        "ListTaskPushNotificationConfigs",
        json!({"taskId": id}),
    );
    let configs = listed["result"]["configs"].as_array().expect("configs");
    assert_eq!(configs.len(), 100);
    assert_eq!(configs[0]["id"], "c1", "the oldest was forgotten");
}

/// A user message of about `kib` KiB (the filler rides in its metadata).
fn large(n: usize, kib: usize, task: Option<(&Value, &Value)>) -> Value {
    let mut message = json!({"messageId": format!("big{n}"), "role": "ROLE_USER",
        "parts": [{"text": if task.is_some() { "next week" } else { "plan my week" }}],
        "metadata": {"filler": "x".repeat(kib * 1024)}});
    if let Some((id, context)) = task {
        message["taskId"] = id.clone();
        message["contextId"] = context.clone();
    }
    message
}

/// The messages a task keeps are bounded (16 MiB through follow-ups), and
/// so are those of all tasks (64 MiB: the oldest are forgotten).
#[test]
fn the_bytes_of_messages_kept_are_bounded_per_task_and_over_all_tasks() {
    let mock = start_loop();
    let c = client();
    let url = format!("{}/a2a", mock.url());
    let send = |message: Value| {
        rpc(
            &c,
            &url,
            "t",
            "SendMessage",
            json!({"message": message, "configuration": {"returnImmediately": true}}),
        )
    };
    let first = send(large(0, 1, None));
    let task = &first["result"]["task"];
    let (id, context) = (task["id"].clone(), task["contextId"].clone());
    let mut accepted = 0;
    let refused = loop {
        let r = send(large(accepted + 1, 1024, Some((&id, &context))));
        if r.get("error").is_some() {
            break r;
        }
        accepted += 1;
        assert!(accepted < 100, "never refused: {r}");
    };
    assert!(
        (14..=16).contains(&accepted),
        "{accepted} follow-ups of 1 MiB"
    );
    let said = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(said.contains("bytes the mock keeps per task"), "{refused}");
    // new tasks of 4 MiB each: past 64 MiB the oldest are forgotten, the
    // newest kept
    let ids: Vec<Value> = (0..24)
        .map(|n| send(large(100 + n, 4 * 1024, None))["result"]["task"]["id"].clone())
        .collect();
    let get = |id: &Value| rpc(&c, &url, "t", "GetTask", json!({"id": id}));
    assert!(
        get(&id).get("error").is_some(),
        "the oldest task is forgotten"
    );
    assert!(
        get(&ids[0]).get("error").is_some(),
        "an old large task is forgotten"
    );
    let newest = get(&ids[23]);
    assert_eq!(newest["result"]["id"], ids[23], "{newest}");
}
