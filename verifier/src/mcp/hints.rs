//! A tool's annotations are claims; the counters say what the call really
//! did. Judged on every call to an annotated tool (with an observation
//! URL), whether or not the interaction declares side effects:
//!
//! | the tool declares | a counter | finding |
//! | --- | --- | --- |
//! | `readOnlyHint: true` | moved | SIDE_EFFECT_DECLARATION_MISMATCH (behavior) |
//! | `destructiveHint: false` (not read-only) | went down | SIDE_EFFECT_DECLARATION_MISMATCH |
//! | `openWorldHint: false` | named `outbound…`/`external…` went up | SIDE_EFFECT_DECLARATION_MISMATCH |
//!
//! A hint left out takes its MCP default (`readOnlyHint` false,
//! `destructiveHint` true, `openWorldHint` true), which claims nothing.

use serde_json::{Value, json};

use crate::finding::{Finding, Layer, codes};
use crate::observe::Counters;

/// Whether the tool's annotations claim anything the counters can refute.
pub fn claims_anything(tool: &Value) -> bool {
    let hint = |name: &str| tool["annotations"].get(name).and_then(Value::as_bool);
    hint("readOnlyHint") == Some(true)
        || hint("destructiveHint") == Some(false)
        || hint("openWorldHint") == Some(false)
}

/// The claims the change from `before` to `after` refutes.
pub fn judge_hints(tool: &Value, before: &Counters, after: &Counters) -> Vec<Finding> {
    let name = tool["name"].as_str().unwrap_or("the tool");
    let hint = |h: &str, default: bool| {
        tool["annotations"]
            .get(h)
            .and_then(Value::as_bool)
            .unwrap_or(default)
    };
    let read_only = hint("readOnlyHint", false);
    let destructive = hint("destructiveHint", true);
    let open_world = hint("openWorldHint", true);
    let mut out = Vec::new();
    let names: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for counter in names {
        // a counter that appears or disappears counts from or to 0
        let b = before.get(counter).copied().unwrap_or(0);
        let delta = after.get(counter).copied().unwrap_or(0) - b;
        let claim = if read_only && delta != 0 {
            Some("readOnlyHint: true")
        } else if !read_only && !destructive && delta < 0 {
            Some("destructiveHint: false")
        } else if !open_world && delta > 0 && outbound(counter) {
            Some("openWorldHint: false")
        } else {
            None
        };
        if let Some(claim) = claim {
            let detail =
                format!("`{name}` declares {claim}, but counter '{counter}' changed by {delta}");
            out.push(
                Finding::new(
                    Layer::Behavior,
                    codes::SIDE_EFFECT_DECLARATION_MISMATCH,
                    counter,
                    detail,
                )
                .values(Some(json!(claim)), Some(json!(delta))),
            );
        }
    }
    out
}

/// A counter of calls to the outside world (by its name).
fn outbound(counter: &str) -> bool {
    let lower = counter.to_ascii_lowercase();
    lower.contains("outbound") || lower.contains("external")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counters(pairs: &[(&str, i64)]) -> Counters {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
    }

    #[test]
    fn a_read_only_tool_that_writes_is_caught() {
        let tool = json!({"name": "lookup", "annotations": {"readOnlyHint": true}});
        let f = judge_hints(
            &tool,
            &counters(&[("records", 3)]),
            &counters(&[("records", 4)]),
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].path, "records");
        assert!(
            judge_hints(
                &tool,
                &counters(&[("records", 3)]),
                &counters(&[("records", 3)])
            )
            .is_empty()
        );
    }

    #[test]
    fn a_non_destructive_tool_may_add_but_not_remove() {
        let tool = json!({"name": "draft", "annotations": {"readOnlyHint": false, "destructiveHint": false}});
        assert!(
            judge_hints(
                &tool,
                &counters(&[("records", 3)]),
                &counters(&[("records", 4)])
            )
            .is_empty()
        );
        assert_eq!(
            judge_hints(
                &tool,
                &counters(&[("records", 3)]),
                &counters(&[("records", 2)])
            )
            .len(),
            1
        );
    }

    #[test]
    fn a_closed_world_tool_sends_nothing_out() {
        let tool = json!({"name": "draft", "annotations": {"openWorldHint": false}});
        let before = counters(&[("records", 0), ("outbound_writes", 0)]);
        let after = counters(&[("records", 1), ("outbound_writes", 1)]);
        let f = judge_hints(&tool, &before, &after);
        assert_eq!(
            f.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
            ["outbound_writes"]
        );
    }

    #[test]
    fn a_counter_that_appears_counts_from_zero() {
        let tool = json!({"name": "lookup", "annotations": {"readOnlyHint": true}});
        assert_eq!(
            judge_hints(&tool, &counters(&[]), &counters(&[("Outbound_Calls", 1)])).len(),
            1
        );
    }

    #[test]
    fn an_unannotated_tool_claims_nothing() {
        let tool = json!({"name": "t"});
        assert!(!claims_anything(&tool));
        assert!(
            judge_hints(
                &tool,
                &counters(&[("records", 0)]),
                &counters(&[("records", -5)])
            )
            .is_empty()
        );
    }
}
