use std::time::Duration;

use accord_dsl::model::accord::{
    ArtifactExpectation, PartContent, PartExpectation, ResponseKind, StatusStep, TaskState,
    TaskStep,
};
use serde_json::{Value, json};

use super::*;
use crate::a2a::events::Record;

fn record(frames: &[Value]) -> Record {
    let mut r = Record::default();
    for (i, f) in frames.iter().enumerate() {
        r.take_response(f, Duration::from_millis(i as u64), "stream");
    }
    r
}

fn task(state: &str) -> Value {
    json!({"task": {"id": "t", "contextId": "c", "status": {"state": state}}})
}

fn status(state: &str) -> Value {
    json!({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": state}}})
}

fn artifact(part: Value) -> Value {
    json!({"artifactUpdate": {"taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "name": "work-plan", "parts": [part]}, "lastChunk": true}})
}

fn state(s: TaskState, optional: bool) -> TaskStep {
    TaskStep::Status(StatusStep {
        state: s,
        message_parts: Vec::new(),
        optional,
    })
}

fn plan_step() -> TaskStep {
    TaskStep::Artifact(ArtifactExpectation {
        name: Some("work-plan".into()),
        parts: vec![PartExpectation {
            content: PartContent::Data(json!({"status": "draft"})),
            media_type: Some("application/json".into()),
            filename: None,
            schema: Some(json!({"type": "object", "required": ["plan_id"]})),
            rules: Default::default(),
        }],
    })
}

fn steps() -> Vec<TaskStep> {
    vec![
        state(TaskState::Submitted, true),
        state(TaskState::Working, false),
        plan_step(),
        state(TaskState::Completed, false),
    ]
}

fn judged(frames: &[Value], observable: bool) -> Judged {
    let steps = steps();
    let expected = Expected {
        steps: &steps,
        at: "steps",
        terminal: Some(TaskState::Completed),
        response: ResponseKind::Task,
        observable,
    };
    judge(&expected, &record(frames))
}

fn codes_of(found: &[Finding]) -> Vec<&'static str> {
    found.iter().map(|f| f.reason_code).collect()
}

fn plan() -> Value {
    json!({"data": {"plan_id": "plan-1", "status": "draft"}, "mediaType": "application/json"})
}

#[test]
fn a_clean_stream_passes() {
    let frames = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        artifact(plan()),
        status("TASK_STATE_COMPLETED"),
    ];
    let judged = judged(&frames, true);
    assert_eq!((judged.findings, judged.warnings), (vec![], vec![]));
    // the artifact event the step answered, by the step's path
    assert_eq!(judged.answered, [(2, "steps[2].artifact".to_owned())]);
}

#[test]
fn completed_task_that_goes_back_to_working_is_reopened() {
    let frames = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        artifact(plan()),
        status("TASK_STATE_COMPLETED"),
        status("TASK_STATE_WORKING"),
    ];
    let j = judged(&frames, true);
    assert_eq!(codes_of(&j.findings), ["TERMINAL_STATE_REOPENED"]);
}

#[test]
fn a_task_back_in_submitted_is_an_illegal_transition() {
    let frames = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        status("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        artifact(plan()),
        status("TASK_STATE_COMPLETED"),
    ];
    assert_eq!(
        codes_of(&judged(&frames, true).findings),
        ["ILLEGAL_TRANSITION"]
    );
}

#[test]
fn no_artifact_is_a_missing_required_artifact_and_prose_a_content_mode_mismatch() {
    let frames = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        status("TASK_STATE_COMPLETED"),
    ];
    assert_eq!(
        codes_of(&judged(&frames, true).findings),
        ["MISSING_REQUIRED_ARTIFACT"]
    );
    let prose = json!({"text": "Here is your plan", "mediaType": "text/plain"});
    let frames = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        artifact(prose),
        status("TASK_STATE_COMPLETED"),
    ];
    assert_eq!(
        codes_of(&judged(&frames, true).findings),
        ["CONTENT_MODE_MISMATCH"]
    );
}

#[test]
fn an_unobservable_intermediate_state_is_a_warning_on_a_blocking_send() {
    let done = json!({"task": {"id": "t", "status": {"state": "TASK_STATE_COMPLETED"},
        "artifacts": [{"artifactId": "a", "name": "work-plan", "parts": [plan()]}]}});
    let j = judged(std::slice::from_ref(&done), false);
    assert!(j.findings.is_empty(), "{:?}", j.findings);
    assert_eq!(codes_of(&j.warnings), ["EXPECTATION_UNCHECKED"]);
    let j = judged(&[done], true);
    assert_eq!(codes_of(&j.findings), ["EXPECTED_EVENT_MISSING"]);
}

#[test]
fn a_failed_task_misses_its_terminal_state_and_its_steps() {
    let frames = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        status("TASK_STATE_FAILED"),
    ];
    let j = judged(&frames, true);
    assert_eq!(
        codes_of(&j.findings),
        [
            "MISSING_REQUIRED_ARTIFACT",
            "EXPECTED_EVENT_MISSING",
            "TERMINAL_STATE_MISMATCH"
        ]
    );
}

#[test]
fn a_lower_case_state_is_malformed_and_timestamps_must_not_regress() {
    let frames = [
        task("TASK_STATE_SUBMITTED"),
        json!({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:02Z"}}}),
        artifact(plan()),
        json!({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T00:00:01.5Z"}}}),
    ];
    assert_eq!(
        codes_of(&judged(&frames, true).findings),
        ["TIMESTAMP_REGRESSED"]
    );
    let frames = [task("TASK_STATE_SUBMITTED"), status("working")];
    assert!(codes_of(&transitions(&record(&frames).events)).contains(&"MALFORMED_RESPONSE"));
}

#[test]
fn artifact_modes_outside_the_skill_or_the_accepted_modes_are_named() {
    let r = record(&[artifact(json!({"text": "prose"}))]);
    let allowed = [(
        "the skill's outputModes",
        vec!["application/json".to_owned()],
    )];
    let found = output_modes(&r, &allowed, &[]);
    assert_eq!(codes_of(&found), ["CONTENT_MODE_MISMATCH"]);
    assert!(found[0].detail.contains("text/plain"));
    assert!(output_modes(&record(&[artifact(plan())]), &allowed, &[]).is_empty());
    // an artifact a step answered is named by the step's path, as the
    // step's own findings name it: one path for one artifact
    let named = |answered: &[(usize, String)]| output_modes(&r, &allowed, answered)[0].path.clone();
    assert!(named(&[]).starts_with("artifacts["), "{}", named(&[]));
    let k = r
        .events
        .iter()
        .position(|o| matches!(o.event, crate::a2a::events::Event::Artifact { .. }))
        .expect("an artifact event");
    assert_eq!(
        named(&[(k, "steps[1].artifact".to_owned())]),
        "steps[1].artifact.parts[0]"
    );
}

#[test]
fn an_artifact_after_the_end_or_the_end_twice_is_one_protocol_finding() {
    let late = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        status("TASK_STATE_COMPLETED"),
        artifact(plan()),
    ];
    let j = judged(&late, true);
    assert_eq!(codes_of(&j.findings), ["TERMINAL_STATE_REOPENED"], "{j:?}");
    let twice = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        artifact(plan()),
        status("TASK_STATE_COMPLETED"),
        json!({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2030-01-01T00:00:00Z"}}}),
    ];
    let j = judged(&twice, true);
    assert_eq!(codes_of(&j.findings), ["DUPLICATE_EVENT"], "{j:?}");
    let honest = [
        task("TASK_STATE_SUBMITTED"),
        status("TASK_STATE_WORKING"),
        status("TASK_STATE_WORKING"),
        artifact(plan()),
        status("TASK_STATE_COMPLETED"),
    ];
    assert!(judged(&honest, true).findings.is_empty());
}
