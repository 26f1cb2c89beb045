//! The pairs of the A2A attribute walk (`a2a_attributes.rs`): for each
//! documented `A2A/Task` attribute, two interactions that differ only in
//! it, and the reference agent's fault it guards against.

use accord_fixtures::a2a::A2aFault;
use serde_json::{Value, json};

/// Two interactions that differ only in `attribute`.
pub struct Pair {
    pub attribute: &'static str,
    pub without: Value,
    pub with: Value,
    pub fault: Option<A2aFault>,
}

fn users() -> Value {
    json!([{"name": "a user named alice", "params": {"tenant": "tenant-a"}},
           {"name": "a user named bob", "params": {"tenant": "tenant-b"}}])
}

fn request(extra: Value) -> Value {
    let mut data = json!({"request_id": "r-walk", "items": [{"title": "rotate keys"}]});
    for (k, v) in extra.as_object().into_iter().flatten() {
        data[k] = v.clone();
    }
    json!({"message": {"role": "ROLE_USER", "parts": [{"data": data}]}})
}

fn part() -> Value {
    json!({"data": {"status": "draft"}, "mediaType": "application/json"})
}

/// A streamed plan as alice: WORKING, the plan, COMPLETED.
fn plan() -> Value {
    json!({"type": "A2A/Task", "description": "draft a plan", "providerStates": users(),
        "auth": {"principal": "alice", "tenant": "tenant-a"}, "streaming": true,
        "request": request(json!({})),
        "steps": [{"status": {"state": "TASK_STATE_WORKING"}},
                  {"artifact": {"name": "work-plan", "parts": [part()]}},
                  {"status": {"state": "TASK_STATE_COMPLETED"}}],
        "terminalState": "TASK_STATE_COMPLETED"})
}

/// `plan()` with `f` applied.
fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut i = plan();
    f(&mut i);
    i
}

fn set(path: &[&str], value: Value) -> impl FnOnce(&mut Value) {
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

fn pair(attribute: &'static str, without: Value, with: Value, fault: Option<A2aFault>) -> Pair {
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

fn follow(follow_up: Value) -> Value {
    with(set(&["followUps"], json!([follow_up])))
}

fn cancelled(cancel: Value) -> Value {
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
    let twice = |generated: bool| {
        let mut i = with(set(&["repeat"], json!({"times": 2})));
        i["sideEffects"] = json!({"records": 1});
        if generated {
            i["request"]["generators"] =
                json!({"body": {"$.message.parts[0].data.request_id": {"type": "Uuid"}}});
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
        pair("request.generators", twice(false), twice(true), None),
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

fn flow_pairs() -> Vec<Pair> {
    let push = |p: Value| with(set(&["push"], p));
    let states = json!(["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]);
    let get = |extra: Value| {
        let mut f = json!({"operation": "GetTask", "expect": {"state": "TASK_STATE_COMPLETED"}});
        for (k, v) in extra.as_object().into_iter().flatten() {
            f[k] = v.clone();
        }
        follow(f)
    };
    let list = |params: Value, contains: bool| {
        follow(
            json!({"operation": "ListTasks", "params": params, "expect": {"containsTask": contains}}),
        )
    };
    let send = |new_task: bool| {
        follow(
            json!({"operation": "SendMessage", "request": request(json!({})), "expect": {"newTask": new_task}}),
        )
    };
    vec![
        pair(
            "cancel.at",
            cancelled(json!({"at": "TASK_STATE_WORKING"})),
            cancelled(json!({"at": "TASK_STATE_INPUT_REQUIRED"})),
            None,
        ),
        pair(
            "cancel.expectState",
            cancelled(json!({"at": "TASK_STATE_WORKING"})),
            cancelled(json!({"at": "TASK_STATE_WORKING", "expectState": "TASK_STATE_COMPLETED"})),
            None,
        ),
        pair(
            "cancel.error",
            cancelled(json!({"at": "TASK_STATE_WORKING"})),
            cancelled(
                json!({"at": "TASK_STATE_WORKING", "error": {"reason": "TASK_NOT_CANCELABLE"}}),
            ),
            None,
        ),
        pair(
            "cancel.observeMs",
            cancelled(json!({"at": "TASK_STATE_WORKING"})),
            cancelled(json!({"at": "TASK_STATE_WORKING", "observeMs": 500})),
            Some(A2aFault::CancelKeepsWriting),
        ),
        pair(
            "push.expectStates",
            push(json!({"expectStates": states})),
            push(json!({"expectStates": ["TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED"]})),
            None,
        ),
        pair(
            "push.error",
            push(json!({"expectStates": states})),
            push(json!({"error": {"reason": "PUSH_NOTIFICATION_NOT_SUPPORTED"}})),
            None,
        ),
        pair(
            "followUps.operation",
            get(json!({})),
            get(json!({"operation": "CancelTask"})),
            None,
        ),
        pair(
            "followUps.after",
            get(json!({})),
            get(json!({"after": "TASK_STATE_INPUT_REQUIRED"})),
            None,
        ),
        pair(
            "followUps.auth",
            get(json!({})),
            get(json!({"auth": {"principal": "bob"}})),
            None,
        ),
        pair(
            "followUps.request",
            follow(
                json!({"operation": "SendMessage", "request": request(json!({})), "expect": {"newTask": true, "state": "TASK_STATE_COMPLETED"}}),
            ),
            follow(
                json!({"operation": "SendMessage", "request": request(json!({"fail": true})), "expect": {"newTask": true, "state": "TASK_STATE_COMPLETED"}}),
            ),
            None,
        ),
        pair(
            "followUps.params",
            list(json!({}), true),
            list(json!({"status": "TASK_STATE_WORKING"}), true),
            None,
        ),
        pair(
            "followUps.expect.state",
            get(json!({})),
            get(json!({"expect": {"state": "TASK_STATE_FAILED"}})),
            None,
        ),
        pair(
            "followUps.expect.steps",
            get(json!({})),
            get(json!({"expect": {"steps": [{"artifact": {"name": "other", "parts": [part()]}}]}})),
            None,
        ),
        pair(
            "followUps.expect.containsTask",
            list(json!({}), true),
            list(json!({}), false),
            None,
        ),
        pair("followUps.expect.newTask", send(true), send(false), None),
        pair(
            "followUps.error",
            get(json!({})),
            follow(json!({"operation": "GetTask", "error": {"reason": "TASK_NOT_FOUND"}})),
            None,
        ),
    ]
}

fn expectation_pairs() -> Vec<Pair> {
    let temporal = |t: Value| with(set(&["temporal"], t));
    let probes = |ops: Value| {
        with(set(
            &["auth", "probes"],
            json!([{"principal": "bob", "operations": ops}]),
        ))
    };
    let anonymous = |negative: bool| {
        with(|i| {
            i["auth"] = json!({"credential": "none"});
            i["negative"] = json!(negative);
            i.as_object_mut().map(|o| {
                o.remove("steps");
                o.remove("terminalState")
            });
        })
    };
    let own_get = |who: &str| {
        with(|i| {
            i["auth"] = json!({"principal": who});
            i["followUps"] = json!([{"operation": "GetTask", "auth": {"principal": "alice"}, "expect": {"state": "TASK_STATE_COMPLETED"}}]);
        })
    };
    let mut cancel_flag = cancelled(json!({"at": "TASK_STATE_WORKING", "observeMs": 500}));
    cancel_flag["temporal"] = json!({"noNewSideEffectAfterCancelAck": true});
    let mut no_states = anonymous(true);
    no_states
        .as_object_mut()
        .map(|o| o.remove("providerStates"));
    vec![
        pair(
            "temporal.acknowledgeWithinMs",
            plan(),
            temporal(json!({"acknowledgeWithinMs": 100})),
            Some(A2aFault::SlowStart(400)),
        ),
        pair(
            "temporal.firstProgressWithinMs",
            plan(),
            temporal(json!({"firstProgressWithinMs": 100})),
            Some(A2aFault::LateProgress(400)),
        ),
        pair(
            "temporal.completionWithinMs",
            with(set(&["request"], request(json!({"work_ms": 400})))),
            with(|i| {
                i["request"] = request(json!({"work_ms": 400}));
                i["temporal"] = json!({"completionWithinMs": 100});
            }),
            None,
        ),
        pair(
            "temporal.cancellationEffectWithinMs",
            cancelled(json!({"at": "TASK_STATE_WORKING"})),
            with(|i| {
                *i = cancelled(json!({"at": "TASK_STATE_WORKING"}));
                i["temporal"] = json!({"cancellationEffectWithinMs": 100});
            }),
            Some(A2aFault::SlowCancel(400)),
        ),
        pair(
            "temporal.noNewSideEffectAfterCancelAck",
            cancelled(json!({"at": "TASK_STATE_WORKING", "observeMs": 500})),
            cancel_flag,
            Some(A2aFault::CancelKeepsWriting),
        ),
        pair("auth.principal", own_get("alice"), own_get("bob"), None),
        pair(
            "auth.credential",
            anonymous(false),
            with(|i| {
                *i = anonymous(false);
                i["auth"] = json!({"principal": "alice"});
            }),
            None,
        ),
        pair(
            "auth.probes",
            plan(),
            probes(json!([])),
            Some(A2aFault::CrossTenant),
        ),
        pair(
            "auth.probes.operations",
            probes(json!(["ListTasks"])),
            probes(json!(["GetTask"])),
            Some(A2aFault::ExistenceLeak),
        ),
        pair(
            "negative",
            with(|i| {
                i.as_object_mut().map(|o| {
                    o.remove("steps");
                    o.remove("terminalState")
                });
            }),
            with(|i| {
                i["negative"] = json!(true);
                i.as_object_mut().map(|o| {
                    o.remove("steps");
                    o.remove("terminalState")
                });
            }),
            None,
        ),
        pair(
            "repeat",
            with(set(&["sideEffects"], json!({"records": 1}))),
            with(|i| {
                i["sideEffects"] = json!({"records": 1});
                i["repeat"] = json!({"times": 2});
                i["request"]["generators"] =
                    json!({"body": {"$.message.parts[0].data.request_id": {"type": "Uuid"}}});
            }),
            None,
        ),
        pair(
            "sideEffects",
            plan(),
            with(set(&["sideEffects"], json!({"records": 0}))),
            None,
        ),
        pair(
            "approval",
            plan(),
            with(set(
                &["approval"],
                json!({"granted": false, "counter": "records"}),
            )),
            None,
        ),
        pair("providerStates", anonymous(true), no_states, None),
        pair(
            "pending",
            with(set(&["terminalState"], json!("TASK_STATE_FAILED"))),
            with(|i| {
                i["terminalState"] = json!("TASK_STATE_FAILED");
                i["pending"] = json!(true);
            }),
            None,
        ),
    ]
}

/// Every pair of the walk.
pub fn pairs() -> Vec<Pair> {
    let mut all = steps_pairs();
    all.extend(send_pairs());
    all.extend(flow_pairs());
    all.extend(expectation_pairs());
    all
}
