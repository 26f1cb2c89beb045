//! BREAKING_ERROR_CODE_CHANGED: an interaction of a consumer's contract
//! that expected an error now expects another one.
//!
//! No provider declaration carries error codes — an Agent Card lists no
//! errors, an MCP tool neither — so two declarations cannot differ in one.
//! Two versions of a consumer's contract can: where an interaction (the
//! same description and provider states) expected a JSON-RPC code, an A2A
//! reason or an HTTP error status and now expects another, every provider
//! version that passed the older expectation answered with the older error,
//! and fails the newer. The broker's contract diff page shows it.
//!
//! Compared: the interaction's `error`, `cancel.error`, `push.error` and
//! each `followUps[n].error` (A2A and MCP), and an HTTP interaction's
//! `response.status` when both are error statuses (≥ 400). An error field
//! set on one side only (an expectation added or dropped) is not a change
//! of code: the diff page calls that a changed interaction.

use accord_dsl::model::accord::A2aErrorReason;
use serde_json::{Value, json};

use super::Change;
use crate::finding::codes;

/// The changed expected errors from one version of an interaction (its
/// Pact V4 JSON) to the next.
pub fn error_code_changes(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    for (path, before, after) in places(old, new) {
        if differ(before, after) {
            let detail = format!(
                "the interaction expected {} and now expects {}",
                shown(before),
                shown(after)
            );
            out.push(
                Change::new(codes::BREAKING_ERROR_CODE_CHANGED, path, detail)
                    .values(Some(before.clone()), Some(after.clone())),
            );
        }
    }
    let status = |i: &Value| i.pointer("/response/status").and_then(Value::as_u64);
    if let (Some(a), Some(b)) = (status(old), status(new))
        && a >= 400
        && b >= 400
        && a != b
    {
        let detail = format!("the interaction expected HTTP {a} and now expects HTTP {b}");
        out.push(
            Change::new(
                codes::BREAKING_ERROR_CODE_CHANGED,
                "$.response.status",
                detail,
            )
            .values(Some(json!(a)), Some(json!(b))),
        );
    }
    out
}

/// The expected errors found at the same place of both versions.
fn places<'a>(old: &'a Value, new: &'a Value) -> Vec<(String, &'a Value, &'a Value)> {
    let mut out = Vec::new();
    for pointer in ["/error", "/cancel/error", "/push/error"] {
        if let (Some(a), Some(b)) = (old.pointer(pointer), new.pointer(pointer)) {
            out.push((format!("${}", pointer.replace('/', ".")), a, b));
        }
    }
    let follow_ups = |i: &'a Value| i["followUps"].as_array().into_iter().flatten();
    for (n, (a, b)) in follow_ups(old).zip(follow_ups(new)).enumerate() {
        if let (Some(a), Some(b)) = (a.get("error"), b.get("error")) {
            out.push((format!("$.followUps[{n}].error"), a, b));
        }
    }
    out
}

/// The JSON-RPC code an error expectation names, by its code or its A2A
/// reason.
fn code(error: &Value) -> Option<i64> {
    error["code"].as_i64().or_else(|| {
        serde_json::from_value::<A2aErrorReason>(error.get("reason")?.clone())
            .ok()
            .map(A2aErrorReason::json_rpc_code)
    })
}

/// Two expectations name different errors: a code, a reason or an HTTP
/// status set on both sides and different.
fn differ(a: &Value, b: &Value) -> bool {
    let both =
        |x: Option<&Value>, y: Option<&Value>| matches!((x, y), (Some(x), Some(y)) if x != y);
    matches!((code(a), code(b)), (Some(x), Some(y)) if x != y)
        || both(a.get("reason"), b.get("reason"))
        || both(a.get("httpStatus"), b.get("httpStatus"))
}

fn shown(error: &Value) -> String {
    let parts: Vec<String> = ["code", "reason", "httpStatus"]
        .into_iter()
        .filter_map(|k| Some(format!("{k} {}", error.get(k)?)))
        .collect();
    if parts.is_empty() {
        "an error".to_owned()
    } else {
        parts.join(", ")
    }
}
