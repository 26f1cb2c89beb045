//! Two `tools/list` results of a provider: each tool of the older compared
//! with its namesake in the newer by `mcp::diff` (the verifier's
//! direction-aware rules), and what that comparison does not judge —
//! outputs gained, output enum values gained or dropped from an optional
//! field, an output type widened — classified here. Tool order and key
//! order do not matter: tools are matched by name.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::Change;
use crate::finding::{Finding, codes};
use crate::mcp::diff::diff_tool;
use crate::mcp::surface::{listed_values, resolve};

/// Every change from the tool list `old` to `new` (`{"tools": […]}` each).
pub fn diff_tool_lists(old: &Value, new: &Value) -> Vec<Change> {
    let old = by_name(old);
    let new = by_name(new);
    let mut out = Vec::new();
    for (name, before) in &old {
        let after = new.get(name).copied();
        if after == Some(*before) {
            continue; // the same tool, whatever its key order: nothing changed
        }
        let (findings, warnings) = diff_tool(before, after);
        out.extend(findings.into_iter().chain(warnings).map(from_finding));
        if let Some(after) = after {
            outputs(name, before, after, &mut out);
        }
    }
    out
}

/// The tools of a listing by name (a tool without a string name is skipped).
pub(super) fn by_name(list: &Value) -> BTreeMap<&str, &Value> {
    list["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| Some((t["name"].as_str()?, t)))
        .collect()
}

fn from_finding(f: Finding) -> Change {
    let before = f.expected.as_deref().cloned();
    let after = f.actual.as_deref().cloned();
    Change::new(f.reason_code, f.path, f.detail.to_string()).values(before, after)
}

/// An output schema's properties, resolved, and which it requires.
fn properties(tool: &Value) -> (BTreeMap<String, Value>, BTreeSet<String>) {
    let schema = tool.get("outputSchema").cloned().unwrap_or(Value::Null);
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .map(|(k, v)| (k.clone(), resolve(&schema, v)))
                .collect()
        })
        .unwrap_or_default();
    let required = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    (props, required)
}

fn outputs(name: &str, before: &Value, after: &Value, out: &mut Vec<Change>) {
    let (old, old_required) = properties(before);
    let (new, _) = properties(after);
    let root = |t: &Value| t.get("outputSchema").cloned().unwrap_or(Value::Null);
    let (old_root, new_root) = (root(before), root(after));
    for (field, prop) in &new {
        let path = format!("mcpTools[{name}].result.{field}");
        let Some(was) = old.get(field) else {
            let detail = format!("the outputSchema of `{name}` now declares `{field}`");
            out.push(Change::new(
                codes::COMPATIBLE_OPTIONAL_OUTPUT_ADDED,
                path,
                detail,
            ));
            continue;
        };
        let (from, to) = (
            listed_values(&old_root, was, 0),
            listed_values(&new_root, prop, 0),
        );
        if let (Some(from), Some(to)) = (&from, &to) {
            enums(&path, from, to, !old_required.contains(field), out);
        }
        if let (Some(from), to) = (types(was), types(prop))
            && to
                .as_ref()
                .is_none_or(|to| to.is_superset(&from) && *to != from)
        {
            // the verifier's rules call any other type a change; widened is conditional
            out.retain(|c| !(c.code == codes::BREAKING_TYPE_CHANGED && c.path == path));
            let detail = format!("`{field}` of `{name}` may now be of another type than before");
            out.push(
                Change::new(codes::CONDITIONAL_TYPE_WIDENED, path, detail)
                    .values(was.get("type").cloned(), prop.get("type").cloned()),
            );
        }
    }
}

/// Values gained; values lost from an optional field (a required one's
/// are judged by `mcp::diff`).
fn enums(path: &str, from: &[Value], to: &[Value], optional: bool, out: &mut Vec<Change>) {
    let added: Vec<Value> = to.iter().filter(|v| !from.contains(v)).cloned().collect();
    if !added.is_empty() {
        let detail = format!("the outputSchema now also lists {}", list(&added));
        out.push(
            Change::new(codes::CONDITIONAL_ENUM_ADDED, path, detail).values(
                Some(Value::Array(from.to_vec())),
                Some(Value::Array(to.to_vec())),
            ),
        );
    }
    for v in from.iter().filter(|v| !to.contains(v) && optional) {
        let detail = format!("the outputSchema no longer lists {v}");
        out.push(
            Change::new(codes::BREAKING_ENUM_REMOVAL, path, detail)
                .values(Some(v.clone()), Some(Value::Array(to.to_vec()))),
        );
    }
}

fn list(values: &[Value]) -> String {
    values
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The types a property declares (`None`: any).
fn types(prop: &Value) -> Option<BTreeSet<String>> {
    match prop.get("type")? {
        Value::String(t) => Some([t.clone()].into()),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        _ => None,
    }
}
