//! The task shapes, the polling bound and the finding of each way a task
//! can fail to end.

use std::time::Duration;

use serde_json::{Value, json};

use super::*;

fn created() -> Value {
    json!({"resultType": "task", "taskId": "t-1", "status": "working",
        "createdAt": "2026-08-01T10:00:00Z", "lastUpdatedAt": "2026-08-01T10:00:00Z",
        "ttlMs": 60000, "pollIntervalMs": 25})
}

fn polled(status: &str) -> Value {
    let mut t = created();
    t["resultType"] = json!("complete");
    t["status"] = json!(status);
    t
}

fn followed(end: End, limit_ms: Option<u64>) -> Followed {
    Followed {
        id: "t-1".into(),
        polls: 3,
        took: Duration::from_millis(640),
        bound: Bound::of(limit_ms, Duration::from_secs(1)),
        end,
    }
}

#[test]
fn only_tools_call_and_the_task_methods_declare_the_extension() {
    let declared = |m: &str| client_capabilities(m)["extensions"][EXTENSION].is_object();
    assert!(declared("tools/call"));
    assert!(declared("tasks/get"));
    assert!(declared("tasks/cancel"));
    assert!(!declared("tools/list"));
    assert_eq!(client_capabilities("tools/list"), json!({}));
}

#[test]
fn a_create_task_result_is_read_with_its_id_status_and_interval() {
    assert!(is_task(&created()));
    assert!(!is_task(&polled("working")));
    let r = read_created(&created()).expect("a task");
    assert_eq!((r.id.as_str(), r.status), ("t-1", Status::Working));
    assert_eq!(r.poll_interval_ms, Some(25));
    let mut unlimited = created();
    unlimited["ttlMs"] = Value::Null;
    unlimited
        .as_object_mut()
        .map(|o| o.remove("pollIntervalMs"));
    let r = read_created(&unlimited).expect("ttlMs null is unlimited");
    assert_eq!(r.poll_interval_ms, None);
}

#[test]
fn a_task_without_its_required_fields_is_malformed_at_the_field() {
    let cases: [(&str, Value, &str); 6] = [
        ("taskId", json!(""), "task.taskId"),
        ("status", json!("done"), "task.status"),
        ("createdAt", Value::Null, "task.createdAt"),
        ("ttlMs", json!("60s"), "task.ttlMs"),
        ("pollIntervalMs", json!(-5), "task.pollIntervalMs"),
        ("lastUpdatedAt", json!(7), "task.lastUpdatedAt"),
    ];
    for (field, value, path) in cases {
        let mut t = created();
        t[field] = value;
        let m = read_created(&t).expect_err(field);
        assert_eq!(m.path, path, "{field}");
    }
    let mut no_ttl = created();
    no_ttl.as_object_mut().map(|o| o.remove("ttlMs"));
    assert_eq!(
        read_created(&no_ttl).expect_err("ttlMs is required").path,
        "task.ttlMs"
    );
}

#[test]
fn a_polled_task_carries_what_its_status_needs() {
    let m = read_polled(&polled("completed"), "t-1").expect_err("no result");
    assert_eq!(m.path, "task.result");
    let mut failed = polled("failed");
    failed["error"] = json!({"message": "no code"});
    assert_eq!(
        read_polled(&failed, "t-1").expect_err("no code").path,
        "task.error"
    );
    let m = read_polled(&polled("working"), "t-2").expect_err("another task");
    assert_eq!(m.path, "task.taskId");
    let mut done = polled("completed");
    done["result"] = json!({"content": [], "structuredContent": {"n": 1}});
    let r = read_polled(&done, "t-1").expect("a completed task");
    assert_eq!(
        r.end,
        Some(Ok(json!({"content": [], "structuredContent": {"n": 1}})))
    );
}

#[test]
fn the_bound_is_the_completion_limit_else_ten_request_timeouts() {
    let b = Bound::of(Some(750), Duration::from_secs(30));
    assert_eq!(
        (b.within, b.limit_ms),
        (Duration::from_millis(750), Some(750))
    );
    let b = Bound::of(None, Duration::from_secs(30));
    assert_eq!((b.within, b.limit_ms), (Duration::from_secs(300), None));
}

#[test]
fn the_servers_interval_is_honoured_and_never_undercut() {
    let b = Bound::of(None, Duration::from_secs(30));
    let ms = Duration::from_millis;
    assert_eq!(b.next_wait(Some(25), ms(40), 1), Some(ms(25)));
    assert_eq!(b.next_wait(Some(2000), ms(40), 1), Some(ms(2000)));
    assert_eq!(b.next_wait(Some(0), ms(0), 0), Some(MIN_POLL));
    assert_eq!(b.next_wait(None, ms(0), 0), Some(DEFAULT_POLL));
    // a long task is polled less often than it asks: a tenth of the time spent
    assert_eq!(
        b.next_wait(Some(25), Duration::from_secs(20), 50),
        Some(ms(2000))
    );
}

#[test]
fn the_last_poll_falls_on_the_bound_and_none_comes_after_it() {
    let b = Bound::of(Some(500), Duration::from_secs(30));
    let ms = Duration::from_millis;
    assert_eq!(b.next_wait(Some(100), ms(480), 4), Some(ms(20)));
    assert_eq!(b.next_wait(Some(100), ms(500), 5), None);
    assert_eq!(b.next_wait(Some(100), ms(10), MAX_POLLS), None);
}

#[test]
fn the_poll_cap_covers_ten_default_timeouts_even_at_the_fastest_interval() {
    let b = Bound::of(None, Duration::from_secs(30));
    let (mut elapsed, mut polls) = (Duration::ZERO, 0);
    while let Some(wait) = b.next_wait(Some(0), elapsed, polls) {
        elapsed += wait;
        polls += 1;
    }
    assert_eq!(elapsed, b.within, "after {polls} polls");
    assert!(polls <= MAX_POLLS);
}

#[test]
fn a_task_still_working_is_late_against_a_limit_else_not_completed() {
    let late = followed(End::Unfinished(Status::Working), Some(500))
        .finding()
        .expect("a finding");
    assert_eq!(
        (late.layer, late.reason_code),
        (Layer::Temporal, "COMPLETION_LATE")
    );
    assert_eq!(late.path, "completionWithinMs");
    assert_eq!(
        (late.expected.as_deref(), late.actual.as_deref()),
        (Some(&json!(500)), Some(&json!(640)))
    );
    let open = followed(End::Unfinished(Status::Working), None)
        .finding()
        .expect("a finding");
    assert_eq!(
        (open.layer, open.reason_code),
        (Layer::Protocol, "TASK_NOT_COMPLETED")
    );
    assert!(
        open.detail
            .contains("still `working` after 3 tasks/get polls"),
        "{}",
        open.detail
    );
}

#[test]
fn each_other_way_of_not_ending_has_its_one_protocol_finding() {
    let lost = RpcError {
        code: -32602,
        message: "Task not found".into(),
        data: None,
    };
    let malformed = Malformed {
        path: "task.result".into(),
        why: "no result".into(),
    };
    let cases = [
        (End::InputRequired, "RESULT_TYPE_UNSUPPORTED", "task.status"),
        (End::Cancelled, "TASK_NOT_COMPLETED", "task.status"),
        (End::Lost(lost), "TASK_NOT_COMPLETED", "task"),
        (
            End::Malformed(malformed),
            "MALFORMED_RESPONSE",
            "task.result",
        ),
    ];
    for (end, code, path) in cases {
        let f = followed(end.clone(), Some(500))
            .finding()
            .expect("a finding");
        assert_eq!(
            (f.layer, f.reason_code, f.path.as_str()),
            (Layer::Protocol, code, path),
            "{end:?}"
        );
    }
    assert_eq!(
        followed(End::Ended(Status::Completed), None).finding(),
        None
    );
    assert_eq!(
        followed(End::Ended(Status::Failed), Some(1)).finding(),
        None
    );
}
