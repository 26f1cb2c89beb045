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

#[test]
fn a_task_takes_a_bounded_number_of_follow_ups_and_push_configs() {
    let contract =
        accord_dsl::spec::compile_spec(LOOP, "loop.yaml", &accord_dsl::spec::NoSchemaFiles)
            .expect("the spec compiles");
    let mock = MockServer::start(&contract).expect("starts");
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
