//! `side_effects` and `within` lowered into the model's [`SideEffects`]
//! and [`Temporal`], for an interaction and for one A2A follow-up (which
//! may carry only the limits of a single operation).

use indexmap::IndexMap;

use super::ast::WithinSpec;
use super::ast_values::CounterSpec;
use super::lower::Ctx;
use crate::DslError;
use crate::model::accord::{CounterChange, SideEffects, Temporal};

/// `side_effects:` as expected counter changes (`min == max`: exact).
pub(crate) fn side_effects(spec: &IndexMap<String, CounterSpec>) -> SideEffects {
    spec.iter()
        .map(|(k, v)| {
            let change = match (v.min, v.max) {
                (Some(a), Some(b)) if a == b => CounterChange::Exact(a),
                (min, max) => CounterChange::Range { min, max },
            };
            (k.clone(), change)
        })
        .collect()
}

/// `within:` as temporal limits.
pub(crate) fn temporal(w: &WithinSpec) -> Temporal {
    Temporal {
        acknowledge_within_ms: w.acknowledge_ms,
        first_progress_within_ms: w.first_progress_ms,
        completion_within_ms: w.completion_ms,
        cancellation_effect_within_ms: w.cancellation_effect_ms,
        no_new_side_effect_after_cancel_ack: w.no_side_effects_after_cancel_ack,
    }
}

/// The spec names of the limits one operation has.
const FOLLOW_UP_LIMITS: &str = "`acknowledge_ms` (its first answer or event) and `completion_ms` (the whole operation, a stream to its end)";

/// A follow-up's `within`: only the limits of a single operation.
pub(crate) fn follow_up_within(
    cx: &Ctx<'_>,
    path: &str,
    w: &WithinSpec,
) -> Result<Temporal, DslError> {
    let beyond = [
        ("first_progress_ms", w.first_progress_ms.is_some()),
        ("cancellation_effect_ms", w.cancellation_effect_ms.is_some()),
        (
            "no_side_effects_after_cancel_ack",
            w.no_side_effects_after_cancel_ack,
        ),
    ];
    if let Some((name, _)) = beyond.iter().find(|(_, set)| *set) {
        return Err(cx.err(
            &format!("{path}.within.{name}"),
            format!(
                "a follow-up's `within` takes only {FOLLOW_UP_LIMITS}; `{name}` belongs to the interaction's `within`"
            ),
        ));
    }
    Ok(temporal(w))
}
