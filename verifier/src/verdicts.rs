//! The engine's own judgements of a send, around the driver's: negative
//! cases served, deadlines, limits no driver measures yet, and idempotency
//! over repeats.

use accord_dsl::model::InteractionMeta;
use accord_dsl::model::accord::{CounterChange, Credential, SideEffects, Temporal};
use serde_json::{Value, json};

use crate::driver::Sent;
use crate::finding::{Finding, Layer, codes};

/// The temporal limits no driver measures yet (they need a task's
/// progress and cancellation, which the A2A driver will follow): never
/// passed unmeasured.
fn unmeasured(t: &Temporal) -> Vec<Finding> {
    let set = [
        (
            "firstProgressWithinMs",
            t.first_progress_within_ms.is_some(),
        ),
        (
            "cancellationEffectWithinMs",
            t.cancellation_effect_within_ms.is_some(),
        ),
        (
            "noNewSideEffectAfterCancelAck",
            t.no_new_side_effect_after_cancel_ack,
        ),
    ];
    set.into_iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| {
            Finding::new(
                Layer::Temporal,
                codes::EXPECTATION_UNCHECKED,
                format!("temporal.{name}"),
                format!("`{name}` is not measured for this interaction type yet"),
            )
        })
        .collect()
}

/// Over several sends judged as one (`repeat`, `sideEffects: total`), a
/// declared counter that moved beyond its bound is the repeats' doing: the
/// same request had more effect the second time (IDEMPOTENCY_VIOLATION).
pub fn idempotency(f: &mut Finding, declared: Option<&SideEffects>, times: u32) {
    let bound = declared
        .and_then(|d| d.get(&f.path))
        .and_then(|c| match *c {
            CounterChange::Exact(d) => Some(d),
            CounterChange::Range { max, .. } => max,
        });
    let delta = f.actual.as_ref().and_then(Value::as_i64);
    if let (codes::SIDE_EFFECT_DECLARATION_MISMATCH, Some(bound), Some(delta)) =
        (f.reason_code, bound, delta)
        && delta > bound
    {
        f.reason_code = codes::IDEMPOTENCY_VIOLATION;
        f.detail = format!("the same request sent {times} times: {}", f.detail);
    }
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
        let (layer, code) = match (credential, sent.refused_because) {
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
        let detail = "a request the contract says must be refused was served".to_string();
        findings.push(Finding::new(layer, code, "status", detail));
    }
    let temporal = expectations.temporal.as_ref();
    if !sent.temporal_measured {
        findings.extend(temporal.into_iter().flat_map(unmeasured));
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
