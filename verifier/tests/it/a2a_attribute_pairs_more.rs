//! The pairs of the A2A attribute walk for what follows a send — cancel,
//! push, follow-ups — and the expectations every interaction takes
//! (temporal limits, auth, probes, negative, repeat, side effects).

use accord_fixtures::a2a::A2aFault;
use serde_json::{Value, json};

use crate::a2a_attribute_pairs::{Pair, cancelled, follow, pair, part, plan, request, set, with};

pub(crate) fn flow_pairs() -> Vec<Pair> {
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
        // a new plan (another request_id) moves `records` by one
        pair(
            "followUps.sideEffects",
            follow(another(json!({}))),
            follow(another(json!({"sideEffects": {"records": 0}}))),
            None,
        ),
        // a blocking send answers once its 400 ms of work are done
        pair(
            "followUps.temporal",
            follow(another(json!({}))),
            follow(another(json!({"temporal": {"completionWithinMs": 100}}))),
            None,
        ),
    ]
}

/// A follow-up SendMessage that starts another plan (400 ms of work).
fn another(extra: Value) -> Value {
    let mut f = json!({"operation": "SendMessage", "expect": {"newTask": true},
        "request": request(json!({"request_id": "r-another", "work_ms": 400}))});
    for (k, v) in extra.as_object().into_iter().flatten() {
        f[k] = v.clone();
    }
    f
}

pub(crate) fn expectation_pairs() -> Vec<Pair> {
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
            "auth.probes.after",
            with(set(
                &["auth", "probes"],
                json!([{"principal": "bob", "operations": ["GetTask"]}]),
            )),
            with(set(
                &["auth", "probes"],
                json!([{"principal": "bob", "operations": ["GetTask"], "after": "TASK_STATE_INPUT_REQUIRED"}]),
            )),
            None,
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
            // no idempotency key: each send makes a plan
            with(|i| {
                i["sideEffects"] = json!({"records": 1});
                i["request"] = json!({"message": {"role": "ROLE_USER", "parts": [{"data": {"items": [{"title": "x"}]}}]}});
            }),
            with(|i| {
                i["sideEffects"] = json!({"records": 1});
                i["request"] = json!({"message": {"role": "ROLE_USER", "parts": [{"data": {"items": [{"title": "x"}]}}]}});
                i["repeat"] = json!({"times": 2});
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
