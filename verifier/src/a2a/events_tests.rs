use serde_json::json;

use super::*;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn a_stream_becomes_statuses_and_joined_artifacts_in_order() {
    let mut r = Record::default();
    r.take_response(
        &json!({"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}}),
        ms(1),
        "stream",
    );
    r.take_response(&json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:00Z"}}}), ms(2), "stream");
    r.take_response(&json!({"artifactUpdate": {"taskId": "t", "artifact": {"artifactId": "a", "name": "plan", "parts": [{"text": "one"}]}}}), ms(3), "stream");
    r.take_response(&json!({"artifactUpdate": {"taskId": "t", "append": true, "artifact": {"artifactId": "a", "parts": [{"data": {"n": 3.0}}]}}}), ms(4), "stream");
    r.take_response(
        &json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_COMPLETED"}}}),
        ms(5),
        "stream",
    );
    assert_eq!(r.task_id.as_deref(), Some("t"));
    assert_eq!(r.events.len(), 4);
    assert_eq!(
        r.events[2].event,
        Event::Artifact {
            id: "a".into(),
            name: Some("plan".into()),
            parts: vec![json!({"text": "one"}), json!({"data": {"n": 3.0}})]
        }
    );
    assert_eq!(r.last_state(), Some(TaskState::Completed));
    assert_eq!(r.first_seen(TaskState::Working), Some(ms(2)));
    assert_eq!(r.terminal_at(), Some(ms(5)));
}

#[test]
fn an_identical_artifact_or_end_twice_is_a_duplicate_but_progress_is_not() {
    let mut r = Record::default();
    let art = json!({"artifactUpdate": {"taskId": "t", "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}});
    let bare = json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:00Z"}}});
    let done =
        json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_COMPLETED"}}});
    for v in [&art, &bare, &bare, &art, &done, &done] {
        r.take_response(v, ms(1), "stream");
    }
    assert_eq!(
        r.duplicates,
        [
            ("stream".to_owned(), "artifactUpdate".to_owned()),
            ("stream".to_owned(), "statusUpdate".to_owned())
        ]
    );
}

#[test]
fn a_snapshot_adds_a_status_only_when_it_changed() {
    let mut r = Record::default();
    let working = json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}});
    r.take_task(&working, ms(1), "SendMessage");
    r.take_task(&working, ms(2), "GetTask");
    r.take_task(
        &json!({"id": "t", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [{"artifactId": "a", "parts": [{"data": {}, "mediaType": ""}]}]}),
        ms(3),
        "GetTask",
    );
    let kinds: Vec<_> = r.events.iter().map(|o| o.source.as_str()).collect();
    assert_eq!(kinds, ["SendMessage", "GetTask", "GetTask"]);
    assert!(
        matches!(&r.events[1].event, Event::Artifact { parts, .. } if parts[0] == json!({"data": {}}))
    );
}

#[test]
fn an_event_of_another_task_or_an_unknown_kind_is_malformed() {
    let mut r = Record::default();
    r.take_task(
        &json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}}),
        ms(1),
        "s",
    );
    r.take_response(
        &json!({"statusUpdate": {"taskId": "u", "status": {"state": "TASK_STATE_WORKING"}}}),
        ms(2),
        "s",
    );
    r.take_response(&json!({"kind": "status-update"}), ms(3), "s");
    assert_eq!(r.malformed.len(), 2);
}

#[test]
fn a_terminal_status_twice_is_a_duplicate_whatever_its_timestamp() {
    let mut r = Record::default();
    let done = |t: &str| json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": t}}});
    r.take_response(&done("2026-01-01T00:00:01Z"), ms(1), "stream");
    assert!(r.duplicates.is_empty());
    r.take_response(&done("2026-01-01T00:00:02Z"), ms(2), "stream");
    assert_eq!(
        r.duplicates,
        [("stream".to_owned(), "statusUpdate".to_owned())]
    );
    // another stream's end (a subscription) is its own
    r.take_response(&done("2026-01-01T00:00:03Z"), ms(3), "followUps[0]");
    assert_eq!(r.duplicates.len(), 1);
}

#[test]
fn an_event_of_another_context_or_none_is_malformed_once_per_source() {
    let start =
        json!({"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}});
    let working = |context: Value| {
        let mut update = json!({"taskId": "t", "status": {"state": "TASK_STATE_WORKING"}});
        if !context.is_null() {
            update["contextId"] = context;
        }
        json!({ "statusUpdate": update })
    };
    let mut honest = Record::default();
    honest.take_response(&start, ms(1), "stream");
    honest.take_response(&working(json!("c")), ms(2), "stream");
    honest.take_task(
        &json!({"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}),
        ms(3),
        "GetTask",
    );
    assert!(honest.malformed.is_empty(), "{:?}", honest.malformed);

    for (context, why) in [
        (
            json!("d"),
            "an event of task t names context d, the task's is c",
        ),
        (Value::Null, "an event of task t without its contextId (c)"),
    ] {
        let mut r = Record::default();
        r.take_response(&start, ms(1), "stream");
        r.take_response(&working(context.clone()), ms(2), "stream");
        r.take_response(&working(context), ms(3), "stream");
        assert_eq!(r.malformed, [("stream".to_owned(), why.to_owned())]);
    }
    let mut r = Record::default();
    r.take_response(&start, ms(1), "stream");
    r.take_task(
        &json!({"id": "t", "contextId": "e", "status": {"state": "TASK_STATE_COMPLETED"}}),
        ms(2),
        "GetTask",
    );
    assert_eq!(r.malformed.len(), 1, "{:?}", r.malformed);
}

#[test]
fn an_artifact_after_the_end_is_noted_and_kept_before_it() {
    let mut r = Record::default();
    let update = |u: Value| json!({ "statusUpdate": u });
    r.take_response(
        &json!({"task": {"id": "t", "status": {"state": "TASK_STATE_SUBMITTED"}}}),
        ms(1),
        "stream",
    );
    r.take_response(
        &update(json!({"taskId": "t", "status": {"state": "TASK_STATE_COMPLETED"}})),
        ms(2),
        "stream",
    );
    r.take_response(&json!({"artifactUpdate": {"taskId": "t", "artifact": {"artifactId": "a", "parts": [{"text": "late"}]}}}), ms(3), "stream");
    assert_eq!(
        r.after_end,
        [(
            "stream".to_owned(),
            "an artifact update after the terminal state TASK_STATE_COMPLETED".to_owned()
        )]
    );
    let kinds: Vec<bool> = r.events.iter().map(is_status).collect();
    assert_eq!(kinds, [true, false, true], "{:?}", r.events);
    assert_eq!(r.final_state(), Some(TaskState::Completed));
}

#[test]
fn a_message_of_the_agent_with_the_users_role_is_malformed() {
    let asks = |role: &str| {
        json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_INPUT_REQUIRED",
        "message": {"messageId": "m", "role": role, "parts": [{"text": "Which deadline?"}]}}}})
    };
    let mut r = Record::default();
    r.take_response(&asks("ROLE_AGENT"), ms(1), "stream");
    r.take_response(
        &json!({"message": {"messageId": "n", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}}),
        ms(2),
        "SendMessage",
    );
    assert!(r.malformed.is_empty(), "{:?}", r.malformed);
    r.take_response(&asks("ROLE_USER"), ms(3), "stream");
    r.take_response(&asks("ROLE_USER"), ms(4), "stream");
    r.take_response(
        &json!({"message": {"messageId": "o", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}),
        ms(5),
        "followUps[0]",
    );
    assert_eq!(r.malformed.len(), 2, "{:?}", r.malformed);
    // a submitted task's status may carry the user's own message
    let mut r = Record::default();
    r.take_response(
        &json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_SUBMITTED",
        "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "plan"}]}}}}),
        ms(1),
        "stream",
    );
    assert!(r.malformed.is_empty());
}

#[test]
fn a_stream_starts_with_the_task_or_the_message_and_an_update_names_the_task() {
    let working = json!({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}});
    let mut r = Record::default();
    r.take_stream_event(&working, ms(1), "stream");
    assert_eq!(r.malformed.len(), 1, "{:?}", r.malformed);
    assert_eq!(r.task_id.as_deref(), Some("t"));
    assert_eq!(r.context_id.as_deref(), Some("c"));
    // once per stream; another stream (a subscription) is judged on its own
    r.take_stream_event(&working, ms(2), "stream");
    r.take_stream_event(
        &json!({"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}),
        ms(3),
        "followUps[0]",
    );
    assert_eq!(r.malformed.len(), 1, "{:?}", r.malformed);
    let mut m = Record::default();
    m.take_stream_event(
        &json!({"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": []}}),
        ms(1),
        "stream",
    );
    assert!(m.malformed.is_empty());
}

#[test]
fn an_ended_tasks_snapshot_without_an_artifact_it_made_is_noted() {
    let mut r = Record::default();
    r.take_response(&json!({"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}}), ms(1), "stream");
    r.take_response(&json!({"artifactUpdate": {"taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}}), ms(2), "stream");
    // a running task's snapshot may not have it yet
    r.take_task(
        &json!({"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}),
        ms(3),
        "GetTask",
    );
    assert!(r.lost.is_empty());
    r.take_task(
        &json!({"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"},
        "artifacts": [{"artifactId": "a", "parts": [{"text": "x"}]}]}),
        ms(4),
        "GetTask",
    );
    assert!(r.lost.is_empty());
    r.take_task(
        &json!({"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}),
        ms(5),
        "GetTask after the end",
    );
    assert_eq!(
        r.lost,
        [("GetTask after the end".to_owned(), vec!["a".to_owned()])]
    );
}
