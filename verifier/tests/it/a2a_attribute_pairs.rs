//! The pairs of the A2A attribute walk (`a2a_attributes.rs`): for each
//! documented `A2A/Task` attribute, two interactions that differ only in
//! it, and the reference agent's fault it guards against.

use accord_fixtures::a2a::A2aFault;
use serde_json::{Value, json};

/// Two interactions that differ only in `attribute`.
pub(crate) type Pair = crate::walk::Pair<A2aFault>;

pub(crate) fn users() -> Value {
    json!([{"name": "a user named alice", "params": {"tenant": "tenant-a"}},
           {"name": "a user named bob", "params": {"tenant": "tenant-b"}}])
}

pub(crate) fn request(extra: Value) -> Value {
    let mut data = json!({"request_id": "r-walk", "items": [{"title": "rotate keys"}]});
    for (k, v) in extra.as_object().into_iter().flatten() {
        data[k] = v.clone();
    }
    json!({"message": {"role": "ROLE_USER", "parts": [{"data": data}]}})
}

pub(crate) fn part() -> Value {
    json!({"data": {"status": "draft"}, "mediaType": "application/json"})
}

/// A streamed plan as alice: WORKING, the plan, COMPLETED.
pub(crate) fn plan() -> Value {
    json!({"type": "A2A/Task", "description": "draft a plan", "providerStates": users(),
        "auth": {"principal": "alice", "tenant": "tenant-a"}, "streaming": true,
        "request": request(json!({})),
        "steps": [{"status": {"state": "TASK_STATE_WORKING"}},
                  {"artifact": {"name": "work-plan", "parts": [part()]}},
                  {"status": {"state": "TASK_STATE_COMPLETED"}}],
        "terminalState": "TASK_STATE_COMPLETED"})
}

/// `plan()` with `f` applied.
pub(crate) fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut i = plan();
    f(&mut i);
    i
}

pub(crate) fn set(path: &[&str], value: Value) -> impl FnOnce(&mut Value) {
    let path: Vec<String> = path.iter().map(|s| (*s).to_owned()).collect();
    move |i: &mut Value| {
        let mut at = i;
        for (n, key) in path.iter().enumerate() {
            if n + 1 == path.len() {
                match key.parse::<usize>() {
                    Ok(k) => at[k] = value,
                    Err(_) => at[key.as_str()] = value,
                }
                return;
            }
            at = match key.parse::<usize>() {
                Ok(k) => &mut at[k],
                Err(_) => &mut at[key.as_str()],
            };
        }
    }
}

pub(crate) fn pair(
    attribute: &'static str,
    without: Value,
    with: Value,
    fault: Option<A2aFault>,
) -> Pair {
    Pair {
        attribute,
        without,
        with,
        fault,
    }
}

/// A refusal case: sent without `A2A-Version`, a greeting (no work).
fn refused(error: Value) -> Value {
    json!({"type": "A2A/Task", "description": "refused", "providerStates": users(),
        "auth": {"principal": "alice"}, "a2aVersion": "",
        "request": {"message": {"role": "ROLE_USER", "parts": [{"data": {"reply": "message"}}]}},
        "error": error})
}

pub(crate) fn follow(follow_up: Value) -> Value {
    with(set(&["followUps"], json!([follow_up])))
}

pub(crate) fn cancelled(cancel: Value) -> Value {
    json!({"type": "A2A/Task", "description": "cancel", "providerStates": users(),
        "auth": {"principal": "alice"}, "streaming": true, "sideEffects": {"records": 0},
        "request": request(json!({"work_ms": 800})), "cancel": cancel})
}

fn steps_pairs() -> Vec<Pair> {
    let step = |k: usize, v: Value| with(set(&["steps", &k.to_string()], v));
    let artifact = |p: Value| json!({"artifact": {"name": "work-plan", "parts": [p]}});
    vec![
        pair(
            "steps.status.state",
            plan(),
            step(0, json!({"status": {"state": "TASK_STATE_INPUT_REQUIRED"}})),
            None,
        ),
        pair(
            "steps.status.messageParts",
            plan(),
            step(
                2,
                json!({"status": {"state": "TASK_STATE_COMPLETED", "messageParts": [{"text": "done"}]}}),
            ),
            None,
        ),
        pair(
            "steps.status.optional",
            step(0, json!({"status": {"state": "TASK_STATE_AUTH_REQUIRED"}})),
            step(
                0,
                json!({"status": {"state": "TASK_STATE_AUTH_REQUIRED", "optional": true}}),
            ),
            None,
        ),
        pair(
            "steps.artifact.name",
            plan(),
            with(set(&["steps", "1", "artifact", "name"], json!("other"))),
            None,
        ),
        pair(
            "steps.artifact.parts",
            plan(),
            step(1, artifact(json!({"data": {"status": "final"}}))),
            None,
        ),
        pair(
            "steps.message",
            plan(),
            with(|i| {
                i["steps"]
                    .as_array_mut()
                    .into_iter()
                    .for_each(|s| s.push(json!({"message": {"parts": [{"text": "hi"}]}})))
            }),
            None,
        ),
        pair(
            "part.text",
            plan(),
            step(1, artifact(json!({"text": "draft"}))),
            None,
        ),
        pair(
            "part.url",
            plan(),
            step(1, artifact(json!({"url": "https://x"}))),
            None,
        ),
        pair(
            "part.raw",
            plan(),
            step(1, artifact(json!({"raw": "AA=="}))),
            None,
        ),
        pair(
            "part.data",
            step(1, artifact(json!({"text": "draft"}))),
            plan(),
            None,
        ),
        pair(
            "part.mediaType",
            plan(),
            step(
                1,
                artifact(json!({"data": {"status": "draft"}, "mediaType": "text/csv"})),
            ),
            None,
        ),
        pair(
            "part.filename",
            plan(),
            step(
                1,
                artifact(json!({"data": {"status": "draft"}, "filename": "plan.json"})),
            ),
            None,
        ),
        pair(
            "part.schema",
            plan(),
            step(
                1,
                artifact(
                    json!({"data": {"status": "draft"}, "schema": {"type": "object", "required": ["owner"]}}),
                ),
            ),
            None,
        ),
        pair(
            "part.matchingRules",
            step(1, artifact(json!({"data": {"plan_id": "plan-999"}}))),
            step(
                1,
                artifact(
                    json!({"data": {"plan_id": "plan-999"}, "matchingRules": {"body": {"$.data.plan_id": {"combine": "AND", "matchers": [{"match": "regex", "regex": "^plan-\\d+$"}]}}}}),
                ),
            ),
            None,
        ),
    ]
}

fn send_pairs() -> Vec<Pair> {
    // the plan's step is titled from the state's `tenant` when generated
    let titled = |generated: bool| {
        let mut i = with(set(
            &["steps", "1"],
            json!({"artifact": {"name": "work-plan", "parts": [
            {"data": {"status": "draft", "steps": [{"title": "rotate keys"}]}}]}}),
        ));
        if generated {
            i["request"]["generators"] = json!({"body": {"$.message.parts[0].data.items[0].title":
                {"type": "ProviderState", "expression": "${tenant}", "dataType": "STRING"}}});
        }
        i
    };
    vec![
        pair("skill", plan(), with(set(&["skill"], json!("shred"))), None),
        pair(
            "request",
            plan(),
            with(set(&["request"], request(json!({"fail": true})))),
            None,
        ),
        pair("request.generators", titled(false), titled(true), None),
        pair(
            "request.configuration.acceptedOutputModes",
            plan(),
            with(set(
                &["request", "configuration"],
                json!({"acceptedOutputModes": ["text/plain"]}),
            )),
            None,
        ),
        pair(
            "streaming",
            with(set(&["streaming"], json!(false))),
            plan(),
            None,
        ),
        pair(
            "a2aVersion",
            with(|i| {
                i["error"] = json!({"reason": "VERSION_NOT_SUPPORTED"});
                i.as_object_mut().map(|o| o.remove("steps"));
            }),
            with(|i| {
                i["error"] = json!({"reason": "VERSION_NOT_SUPPORTED"});
                i["a2aVersion"] = json!("");
                i.as_object_mut().map(|o| o.remove("steps"));
            }),
            None,
        ),
        pair(
            "response",
            plan(),
            with(set(&["response"], json!("message"))),
            None,
        ),
        pair(
            "terminalState",
            plan(),
            with(set(&["terminalState"], json!("TASK_STATE_FAILED"))),
            None,
        ),
        pair(
            "error.code",
            refused(json!({"code": -32009})),
            refused(json!({"code": -32001})),
            None,
        ),
        pair(
            "error.reason",
            refused(json!({"reason": "VERSION_NOT_SUPPORTED"})),
            refused(json!({"reason": "TASK_NOT_FOUND"})),
            None,
        ),
        pair(
            "error.message",
            refused(json!({"reason": "VERSION_NOT_SUPPORTED"})),
            refused(json!({"reason": "VERSION_NOT_SUPPORTED", "message": "^nothing like it$"})),
            None,
        ),
        pair(
            "error.retryable",
            refused(json!({"reason": "VERSION_NOT_SUPPORTED"})),
            refused(json!({"reason": "VERSION_NOT_SUPPORTED", "retryable": true})),
            None,
        ),
        pair(
            "error.httpStatus",
            with(|i| {
                i["auth"] = json!({"credential": "none"});
                i["negative"] = json!(true);
                i["error"] = json!({"httpStatus": 401});
                i.as_object_mut().map(|o| o.remove("steps"));
            }),
            with(|i| {
                i["auth"] = json!({"credential": "none"});
                i["negative"] = json!(true);
                i["error"] = json!({"httpStatus": 403});
                i.as_object_mut().map(|o| o.remove("steps"));
            }),
            None,
        ),
    ]
}

/// Every pair of the walk.
pub fn pairs() -> Vec<Pair> {
    let mut all = steps_pairs();
    all.extend(send_pairs());
    all.extend(crate::a2a_attribute_pairs_more::flow_pairs());
    all.extend(crate::a2a_attribute_pairs_more::expectation_pairs());
    all.extend(crate::a2a_attribute_pairs_repeat::refusal_and_repeat_pairs());
    all
}
