//! The engine's own judgements of a send, around the driver's: negative
//! cases served, deadlines, limits no driver measures yet, and idempotency
//! over repeats.

use accord_dsl::model::InteractionMeta;
use accord_dsl::model::accord::{CounterChange, Credential, RefusalKind, SideEffects, Temporal};
use serde_json::{Value, json};

use crate::driver::Sent;
use crate::finding::{Finding, Layer, codes};

/// The temporal limits no driver measures yet (they need a task's
/// progress and cancellation, which the A2A driver will follow): never
/// passed unmeasured.
/// `stopped`: the replay found a fault before it got to measure them.
fn unmeasured(t: &Temporal, stopped: bool) -> Vec<Finding> {
    t.task_limits_set()
        .into_iter()
        .map(|name| {
            let detail = if stopped {
                format!("`{name}` was not measured: the replay stopped at the finding before it")
            } else {
                format!("`{name}` is not measured for this interaction type yet")
            };
            Finding::new(
                Layer::Temporal,
                codes::EXPECTATION_UNCHECKED,
                format!("temporal.{name}"),
                detail,
            )
        })
        .collect()
}

/// Over several sends judged as one (`repeat`, `sideEffects: total`), a
/// declared counter that moved beyond its bound is the repeats' doing: the
/// same request had more effect the second time (IDEMPOTENCY_VIOLATION).
/// With `repeat.key`, the detail names the key and the value every send
/// carried.
pub fn idempotency(
    f: &mut Finding,
    declared: Option<&SideEffects>,
    times: u32,
    key: Option<(&str, &Value)>,
) {
    let bound = declared
        .and_then(|d| d.get(&f.path))
        .and_then(|c| match *c {
            CounterChange::Exact(d) => Some(d),
            CounterChange::Range { max, .. } => max,
        });
    let delta = f.actual.as_deref().and_then(Value::as_i64);
    if let (codes::SIDE_EFFECT_DECLARATION_MISMATCH, Some(bound), Some(delta)) =
        (f.reason_code, bound, delta)
        && delta > bound
    {
        f.reason_code = codes::IDEMPOTENCY_VIOLATION;
        f.detail = match key {
            Some((path, value)) => format!(
                "sent {times} times with the same idempotency key ({path} = {value}): {}",
                f.detail
            )
            .into(),
            None => format!("the same request sent {times} times: {}", f.detail).into(),
        };
    }
}

/// The value of `repeat.key` in the first send's request view.
pub fn key_of(request: Option<&Value>, key: &str) -> Option<Value> {
    accord_dsl::generators::values_at(request?, key)?
        .into_iter()
        .next()
}

/// The key could not be read from what the driver sent: the repeats are
/// not tested on it.
pub fn key_missing(key: &str) -> Finding {
    Finding::new(
        Layer::Behavior,
        codes::EXPECTATION_UNCHECKED,
        "repeat.key",
        format!(
            "`{key}` selects nothing in the request as sent: the repeats could not keep the key"
        ),
    )
}

/// `repeat.sameFields`: each field's values in every answer must equal
/// the first answer's (IDEMPOTENCY_VIOLATION); a field no answer has, or
/// a send without an answer to compare, is reported unchecked — unless the
/// answers already failed their expectations, which explains it (one
/// fault, one finding).
pub fn same_fields(fields: &[String], answers: &[Option<Value>], failed: bool) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let at = format!("repeat.sameFields[{i}]");
        let seen: Vec<Option<Vec<Value>>> = answers
            .iter()
            .map(|a| {
                a.as_ref()
                    .and_then(|a| accord_dsl::generators::values_at(a, field))
            })
            .collect();
        let unchecked = |detail: String| {
            Finding::new(Layer::Behavior, codes::EXPECTATION_UNCHECKED, &at, detail)
        };
        if let Some(n) = seen.iter().position(Option::is_none) {
            if failed {
                continue;
            }
            out.push(unchecked(format!(
                "send {} has no answer to compare `{field}` in",
                n + 1
            )));
            continue;
        }
        let seen: Vec<Vec<Value>> = seen.into_iter().flatten().collect();
        if seen.iter().all(Vec::is_empty) {
            if !failed {
                out.push(unchecked(format!(
                    "`{field}` selects nothing in any answer"
                )));
            }
            continue;
        }
        let first = &seen[0];
        if let Some(n) = seen.iter().position(|s| s != first) {
            let show = |v: &[Value]| match v {
                [one] => one.clone(),
                [] => Value::Null,
                many => Value::Array(many.to_vec()),
            };
            let detail = format!(
                "`{field}` differs between repeats: send 1 answered {}, send {} answered {}",
                show(first),
                n + 1,
                show(&seen[n])
            );
            out.push(
                Finding::new(Layer::Behavior, codes::IDEMPOTENCY_VIOLATION, &at, detail)
                    .values(Some(show(first)), Some(show(&seen[n]))),
            );
        }
    }
    out
}

/// What a served negative case is reported as, for the kind the contract
/// names.
fn served_as(kind: RefusalKind) -> (Layer, &'static str) {
    match kind {
        RefusalKind::Unauthenticated => (Layer::Authorization, codes::UNAUTHENTICATED_ACCESS),
        RefusalKind::ExpiredCredential => {
            (Layer::Authorization, codes::EXPIRED_CREDENTIAL_ACCEPTED)
        }
        RefusalKind::CrossTenant => (Layer::Authorization, codes::CROSS_TENANT_ACCESS),
        RefusalKind::InvalidInput => (Layer::Schema, codes::INVALID_INPUT_ACCEPTED),
        RefusalKind::MissingApproval => (Layer::Authorization, codes::APPROVAL_BYPASSED),
        RefusalKind::UnsupportedVersion => (Layer::Protocol, codes::VERSION_NOT_REJECTED),
        RefusalKind::TerminalTask => (Layer::Protocol, codes::TERMINAL_TASK_ACCEPTED_MESSAGE),
        RefusalKind::UndeclaredCapability => {
            (Layer::Protocol, codes::UNDECLARED_CAPABILITY_ACCEPTED)
        }
    }
}

/// One fault, one finding, the same rule for every driver: a send whose
/// answer already has its finding — served where the contract expects a
/// refusal (a `negative` case, an approval not granted; the engine tells
/// these), or where the driver knows it expected an error, or refused
/// where it expected a service (the driver says so with
/// [`Sent::counters_explained`]) — is not also judged on its counters:
/// what they did, or did not do, follows from that one fault.
pub fn explains_counters(meta: &InteractionMeta, sent: &Sent) -> bool {
    sent.counters_explained || (meta.expectations.refusal_expected() && sent.served_unexpectedly)
}

/// The driver's findings plus the negative-case and deadline judgements.
pub fn judge_send(meta: &InteractionMeta, sent: Sent) -> Vec<Finding> {
    let mut findings = sent.findings;
    let expectations = &meta.expectations;
    if expectations.refusal_expected() && sent.served_unexpectedly {
        let credential = expectations
            .auth
            .as_ref()
            .map(|a| a.credential)
            .unwrap_or_default();
        let unapproved = expectations.approval.as_ref().is_some_and(|a| !a.granted);
        // why it had to be refused: the credential, a missing approval,
        // what the driver can tell (arguments its schema forbids), else
        // another principal's resource
        let derived = match (credential, sent.refused_because) {
            (Credential::None | Credential::Invalid, _) => {
                (Layer::Authorization, codes::UNAUTHENTICATED_ACCESS)
            }
            (Credential::Expired, _) => (Layer::Authorization, codes::EXPIRED_CREDENTIAL_ACCEPTED),
            (Credential::Valid, _) if unapproved => {
                (Layer::Authorization, codes::APPROVAL_BYPASSED)
            }
            (Credential::Valid, Some(because)) => because,
            (Credential::Valid, None) => (Layer::Authorization, codes::CROSS_TENANT_ACCESS),
        };
        // the contract's own word on why, else what the send tells
        let (layer, code) = expectations.negative.kind().map_or(derived, served_as);
        let detail = "a request the contract says must be refused was served".to_string();
        findings.push(Finding::new(layer, code, "status", detail));
    }
    let temporal = expectations.temporal.as_ref();
    if !sent.temporal_measured {
        let stopped = !findings.is_empty();
        findings.extend(temporal.into_iter().flat_map(|t| unmeasured(t, stopped)));
    }
    let limits = [
        (
            temporal.and_then(|t| t.acknowledge_within_ms),
            sent.ack,
            codes::ACK_DEADLINE_MISSED,
            "acknowledgeWithinMs",
        ),
        (
            temporal.and_then(|t| t.completion_within_ms),
            sent.total,
            codes::COMPLETION_LATE,
            "completionWithinMs",
        ),
    ];
    for (limit, took, code, name) in limits {
        let (Some(limit), Some(took)) = (limit, took) else {
            continue;
        };
        let ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
        if ms > limit {
            let detail = format!("took {ms} ms, {name} is {limit} ms");
            findings.push(
                Finding::new(Layer::Temporal, code, name, detail)
                    .values(Some(json!(limit)), Some(json!(ms))),
            );
        }
    }
    findings
}
