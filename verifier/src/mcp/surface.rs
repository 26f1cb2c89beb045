//! A tool as the consumer relies on it (`mcpTools`) against the tool as a
//! server lists it: pure and direction-aware — what the consumer sends must
//! still be accepted (inputs may only widen), what it reads must still be
//! promised (outputs may only narrow). A later diff of two provider
//! versions reuses it.
//!
//! | the consumer relies on | the listing | finding |
//! | --- | --- | --- |
//! | the tool | does not list it | TOOL_MISSING (declaration) |
//! | an argument it sends | no longer accepts it (not a property, `additionalProperties: false`) | BREAKING_FIELD_REMOVED |
//! | an argument of a type | declares another type | BREAKING_TYPE_CHANGED |
//! | the arguments it always sends | requires one more | BREAKING_REQUIRED_INPUT_ADDED |
//! | a result field it reads | no longer declares it, or no longer requires it | BREAKING_FIELD_REMOVED |
//! | a result field of a type | declares another type | BREAKING_TYPE_CHANGED |
//! | annotations (`readOnlyHint`, …) | declares other hints (MCP defaults apply) | RISK_ANNOTATION_CHANGED |
//!
//! The compatibility findings are on the compatibility layer.

use accord_dsl::model::accord::{JsonType, McpToolExpectation};
use serde_json::{Map, Value, json};

use crate::finding::{Finding, Layer, codes};

/// The findings of one relied-on tool against the listing's entry.
pub fn check_tool(expect: &McpToolExpectation, listed: Option<&Value>) -> Vec<Finding> {
    let at = format!("mcpTools[{}]", expect.name);
    let Some(tool) = listed else {
        let detail = format!("tools/list does not list `{}`", expect.name);
        return vec![Finding::new(
            Layer::Declaration,
            codes::TOOL_MISSING,
            at,
            detail,
        )];
    };
    let mut out = Vec::new();
    inputs(expect, tool, &at, &mut out);
    outputs(expect, tool, &at, &mut out);
    if let Some(annotations) = &expect.annotations {
        let declared = tool.get("annotations").and_then(Value::as_object);
        for why in annotations.disagreements(declared) {
            out.push(Finding::new(
                Layer::Compatibility,
                codes::RISK_ANNOTATION_CHANGED,
                format!("{at}.annotations"),
                why,
            ));
        }
    }
    out
}

fn inputs(expect: &McpToolExpectation, tool: &Value, at: &str, out: &mut Vec<Finding>) {
    // borrowed, not cloned: this runs for every (contract, tool) pair of a
    // static check (100 contracts x 50 tools: 5,000 times)
    let empty = Value::Object(Map::new());
    let schema = tool.get("inputSchema").unwrap_or(&empty);
    let no_properties = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&no_properties);
    let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
    for arg in &expect.arguments {
        let path = format!("{at}.arguments.{}", arg.name);
        match properties.get(&arg.name) {
            None if closed => out.push(
                Finding::new(
                    Layer::Compatibility,
                    codes::BREAKING_FIELD_REMOVED,
                    path,
                    format!(
                        "the inputSchema no longer accepts the argument `{}`",
                        arg.name
                    ),
                )
                .keys(&[arg.name.as_str()], &[]),
            ),
            None => {}
            Some(prop) => {
                let live = resolve(schema, prop);
                if let Some(sent) = arg.json_type
                    && !accepts(&live, sent)
                {
                    out.push(type_changed(&path, "the inputSchema", sent, prop));
                }
                enum_kept(
                    &path,
                    "inputSchema",
                    "sends",
                    &arg.values,
                    schema,
                    &live,
                    out,
                );
            }
        }
    }
    // a tool entry that lists no arguments relies on none of them
    if expect.arguments.is_empty() {
        return;
    }
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    for name in required.filter_map(Value::as_str) {
        let always = expect
            .arguments
            .iter()
            .any(|a| a.name == name && a.always_sent);
        if !always {
            out.push(Finding::new(
                Layer::Compatibility,
                codes::BREAKING_REQUIRED_INPUT_ADDED,
                format!("{at}.arguments.{name}"),
                format!(
                    "the inputSchema requires `{name}`, which the consumer does not always send"
                ),
            ));
        }
    }
}

fn outputs(expect: &McpToolExpectation, tool: &Value, at: &str, out: &mut Vec<Finding>) {
    if expect.result_fields.is_empty() {
        return;
    }
    let Some(schema) = tool.get("outputSchema") else {
        let detail = "the tool declares no outputSchema: no result field it reads is promised";
        let read: Vec<&str> = expect
            .result_fields
            .iter()
            .map(|f| field_name(&f.path))
            .collect();
        out.push(
            Finding::new(
                Layer::Compatibility,
                codes::BREAKING_FIELD_REMOVED,
                format!("{at}.outputSchema"),
                detail,
            )
            .keys(&read, &[]),
        );
        return;
    };
    for field in &expect.result_fields {
        let path = format!("{at}.result{}", field.path.trim_start_matches('$'));
        match promised(schema, &field.path) {
            Promise::Promised(prop) => {
                let live = resolve(schema, &prop);
                if let Some(read) = field.json_type
                    && !produces_only(&live, read)
                {
                    out.push(type_changed(&path, "the outputSchema", read, &prop));
                }
                enum_kept(
                    &path,
                    "outputSchema",
                    "switches on",
                    &field.values,
                    schema,
                    &live,
                    out,
                );
            }
            Promise::Optional => out.push(
                Finding::new(
                    Layer::Compatibility,
                    codes::BREAKING_FIELD_REMOVED,
                    path,
                    format!(
                        "the outputSchema no longer requires `{}`, which the consumer reads",
                        field.path
                    ),
                )
                .values(Some(json!("required")), Some(json!("optional"))),
            ),
            Promise::Missing => out.push(
                Finding::new(
                    Layer::Compatibility,
                    codes::BREAKING_FIELD_REMOVED,
                    path,
                    format!(
                        "the outputSchema no longer declares `{}`, which the consumer reads",
                        field.path
                    ),
                )
                .keys(&[field_name(&field.path)], &[]),
            ),
        }
    }
}

/// A result field's name as a finding lists it: its Pact path without
/// the root (`$.items[*].title` is `items[*].title`).
fn field_name(path: &str) -> &str {
    let name = path.trim_start_matches('$').trim_start_matches('.');
    if name.is_empty() { path } else { name }
}

fn type_changed(path: &str, which: &str, relied: JsonType, prop: &Value) -> Finding {
    let declared = prop.get("type").cloned().unwrap_or(Value::Null);
    Finding::new(
        Layer::Compatibility,
        codes::BREAKING_TYPE_CHANGED,
        path,
        format!(
            "{which} declares type {declared}, the consumer relies on {}",
            relied.as_str()
        ),
    )
    .values(Some(json!(relied.as_str())), Some(declared))
}

/// The declared types of a property (`None`: unconstrained).
fn declared_types(prop: &Value) -> Option<Vec<String>> {
    if let Some(values) = prop.get("enum").and_then(Value::as_array) {
        return Some(values.iter().map(value_type).collect());
    }
    if let Some(c) = prop.get("const") {
        return Some(vec![value_type(c)]);
    }
    match prop.get("type")? {
        Value::String(t) => Some(vec![t.clone()]),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        _ => None,
    }
}

fn value_type(v: &Value) -> String {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
    .to_owned()
}

/// Whether an input property takes values of type `sent`.
fn accepts(prop: &Value, sent: JsonType) -> bool {
    let Some(types) = declared_types(prop) else {
        return true;
    };
    let sent = sent.as_str();
    types
        .iter()
        .any(|t| t == sent || (t == "number" && sent == "integer"))
}

/// Whether an output property produces only values of type `read`.
fn produces_only(prop: &Value, read: JsonType) -> bool {
    // every branch of a union must
    for union in ["anyOf", "oneOf"] {
        if let Some(branches) = prop.get(union).and_then(Value::as_array) {
            return !branches.is_empty() && branches.iter().all(|b| produces_only(b, read));
        }
    }
    let Some(types) = declared_types(prop) else {
        return false;
    };
    let read = read.as_str();
    types
        .iter()
        .all(|t| t == read || (read == "number" && t == "integer"))
}

/// Every enum value the consumer relies on must still be listed where the
/// schema lists values (a property without `enum`/`const` takes any).
fn enum_kept(
    path: &str,
    which: &str,
    relied: &str,
    values: &[Value],
    root: &Value,
    live: &Value,
    out: &mut Vec<Finding>,
) {
    let Some(listed) = listed_values(root, live, 0) else {
        return;
    };
    for v in values.iter().filter(|v| !listed.contains(v)) {
        out.push(
            Finding::new(
                Layer::Compatibility,
                codes::BREAKING_ENUM_REMOVAL,
                path,
                format!("the {which} no longer lists {v}, which the consumer {relied}"),
            )
            .values(Some(v.clone()), Some(Value::Array(listed.clone()))),
        );
    }
}

/// The values a schema allows, when it lists them: `enum`, `const`, or a
/// union (`anyOf`/`oneOf`) whose every branch lists them.
pub(crate) fn listed_values(root: &Value, schema: &Value, depth: usize) -> Option<Vec<Value>> {
    if depth > 16 {
        return None;
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values.clone());
    }
    if let Some(c) = schema.get("const") {
        return Some(vec![c.clone()]);
    }
    let branches = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))
        .and_then(Value::as_array)?;
    let mut all = Vec::new();
    for b in branches {
        all.extend(listed_values(root, &resolve(root, b), depth + 1)?);
    }
    Some(all)
}

/// A local `$ref` (`#/$defs/Step`) resolved against the root schema.
pub(crate) fn resolve(root: &Value, prop: &Value) -> Value {
    let mut current = prop.clone();
    for _ in 0..16 {
        let Some(reference) = current.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(target) = reference.strip_prefix('#').and_then(|p| root.pointer(p)) else {
            break;
        };
        current = target.clone();
    }
    current
}

enum Promise {
    Promised(Value),
    Optional,
    Missing,
}

/// Whether the schema promises the field at a Pact path (`$.a.b`,
/// `$.items[*].title`): declared and required at every object step.
fn promised(root: &Value, path: &str) -> Promise {
    let mut current = resolve(root, root);
    let mut optional = false;
    for step in path
        .trim_start_matches('$')
        .split('.')
        .filter(|s| !s.is_empty())
    {
        // `name`, `name[*]`, `name[0]`: an index or a wildcard steps into items
        let (name, items) = match step.find('[') {
            Some(i) if step.ends_with(']') => (&step[..i], true),
            _ => (step, false),
        };
        let props: Map<String, Value> = current
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let Some(prop) = props.get(name) else {
            return Promise::Missing;
        };
        let required = current
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.contains(&json!(name)));
        optional |= !required;
        current = resolve(root, prop);
        if items {
            current = resolve(root, current.get("items").unwrap_or(&Value::Null));
        }
    }
    if optional {
        Promise::Optional
    } else {
        Promise::Promised(current)
    }
}

#[cfg(test)]
#[path = "surface_tests.rs"]
mod tests;
