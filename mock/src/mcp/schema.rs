//! The JSON Schemas a listed tool carries, derived from the contract (pure).
//!
//! - `inputSchema`: the arguments the consumer relies on (`mcpTools`:
//!   `type`, `enum`, `alwaysSent` → `required`), then every other argument
//!   the interactions send, typed by its example and rule (required when
//!   every call sends it).
//! - `outputSchema`: the types of the expected `structuredContent`
//!   examples (a key is required when every example has it), with the
//!   result fields the consumer reads (`resultFields`: type, `enum`,
//!   required). Only when every successful call of the tool expects a
//!   `structuredContent`: a client that knows an `outputSchema` refuses a
//!   result without one (the Python SDK raises), and the mock must accept
//!   its own answers.
//!
//! Negative calls (a case the provider must refuse) send what the tool
//! does not accept on purpose; they do not shape the schemas.

use accord_dsl::matching::path::Seg;
use accord_dsl::matching::{Category, DocPath, MatchingRule, PathToken};
use accord_dsl::model::accord::{JsonType, McpToolCall, McpToolExpectation};
use serde_json::{Map, Value, json};

/// The `inputSchema` of a tool the consumer relies on as `relied` and
/// calls as `calls` (its non-negative calls).
pub(super) fn input_schema(relied: Option<&McpToolExpectation>, calls: &[&McpToolCall]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for arg in relied.map_or(&[][..], |r| &r.arguments[..]) {
        let mut prop = Map::new();
        if let Some(t) = arg.json_type {
            prop.insert("type".into(), json!(t.as_str()));
        }
        if !arg.values.is_empty() {
            prop.insert("enum".into(), Value::Array(arg.values.clone()));
        }
        properties.insert(arg.name.clone(), Value::Object(prop));
        if arg.always_sent {
            required.push(json!(arg.name));
        }
    }
    let relied_names =
        |name: &str| relied.is_some_and(|r| r.arguments.iter().any(|a| a.name == name));
    for call in calls {
        let rules = call
            .rules
            .matching_rules
            .body()
            .cloned()
            .unwrap_or_default();
        for (name, example) in &call.arguments {
            if relied_names(name) {
                continue;
            }
            let loc = [Seg::Key("arguments"), Seg::Key(name)];
            let seen = json!({"type": argument_type(example, rules.select_best(&loc).map(|l| &l.rules[..]))});
            let merged = match properties.get(name) {
                Some(known) => merge(known, &seen),
                None => seen,
            };
            properties.insert(name.clone(), merged);
            let everywhere = calls.iter().all(|c| c.arguments.contains_key(name));
            if everywhere && !required.contains(&json!(name)) {
                required.push(json!(name));
            }
        }
    }
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    schema
}

/// The `outputSchema` of a tool, or `None` (see the module doc).
/// `structured` holds the `structuredContent` example of each successful
/// call (`None` for a call that expects none) and its rules.
pub(super) fn output_schema(
    relied: Option<&McpToolExpectation>,
    structured: &[(Option<&Value>, &Category)],
) -> Option<Value> {
    let fields = relied.map_or(&[][..], |r| &r.result_fields[..]);
    if structured.iter().any(|(s, _)| s.is_none()) || (structured.is_empty() && fields.is_empty()) {
        return None;
    }
    let examples: Vec<(&Value, &Category)> = structured
        .iter()
        .filter_map(|(s, c)| Some(((*s)?, *c)))
        .collect();
    let mut schema = examples
        .iter()
        .map(|(v, rules)| {
            let mut loc = vec![Seg::Key("structuredContent")];
            schema_of(v, &mut loc, rules)
        })
        .reduce(|a, b| merge(&a, &b))
        .unwrap_or_else(|| json!({"type": "object"}));
    for field in fields {
        let Ok(path) = DocPath::parse(&field.path) else {
            continue;
        };
        let mut seen: Vec<Value> = examples
            .iter()
            .filter_map(|(v, _)| accord_dsl::generators::values_at(v, &field.path))
            .flatten()
            .collect();
        seen.dedup();
        let leaf = json!({"type": field.json_type.map(JsonType::as_str), "values": field.values, "seen": seen});
        place(&mut schema, path.tokens(), &leaf, examples.is_empty());
    }
    Some(schema)
}

/// The type an example stands for under the rules that judge it: an
/// integer under a `type` or `number` rule may be any number.
fn argument_type(example: &Value, rules: Option<&[MatchingRule]>) -> &'static str {
    let widened = rules.is_some_and(|rules| {
        rules.iter().any(|r| {
            matches!(
                r,
                MatchingRule::Type { .. } | MatchingRule::Number | MatchingRule::Decimal
            )
        })
    });
    match example {
        Value::Number(n) if n.is_f64() || widened => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The schema of one example: objects with their keys (all required),
/// lists by their first item.
fn schema_of<'a>(value: &'a Value, loc: &mut Vec<Seg<'a>>, rules: &Category) -> Value {
    match value {
        Value::Object(o) => {
            let mut properties = Map::new();
            for (k, v) in o {
                loc.push(Seg::Key(k));
                properties.insert(k.clone(), schema_of(v, loc, rules));
                loc.pop();
            }
            let required: Vec<Value> = o.keys().map(|k| json!(k)).collect();
            json!({"type": "object", "properties": properties, "required": required})
        }
        // an empty list says nothing about its items
        Value::Array(items) => match items.first() {
            None => json!({"type": "array"}),
            Some(first) => {
                loc.push(Seg::Index(0));
                let item = schema_of(first, loc, rules);
                loc.pop();
                json!({"type": "array", "items": item})
            }
        },
        leaf => {
            let best = rules.select_best(loc).map(|l| &l.rules[..]);
            json!({"type": argument_type(leaf, best)})
        }
    }
}

/// The schema that accepts what both `a` and `b` accept: objects keep
/// every property (required by both: required), integers widen to
/// numbers, other differing types accept anything.
fn merge(a: &Value, b: &Value) -> Value {
    match (a["type"].as_str(), b["type"].as_str()) {
        (Some("object"), Some("object")) => {
            let mut properties = a["properties"].as_object().cloned().unwrap_or_default();
            for (k, bv) in b["properties"].as_object().into_iter().flatten() {
                let merged = properties
                    .get(k)
                    .map_or_else(|| bv.clone(), |av| merge(av, bv));
                properties.insert(k.clone(), merged);
            }
            let in_b = |k: &Value| b["required"].as_array().is_some_and(|r| r.contains(k));
            let required: Vec<Value> = a["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|k| in_b(k))
                .cloned()
                .collect();
            json!({"type": "object", "properties": properties, "required": required})
        }
        (Some("array"), Some("array")) => match (a.get("items"), b.get("items")) {
            (Some(x), Some(y)) => json!({"type": "array", "items": merge(x, y)}),
            (Some(x), None) | (None, Some(x)) => json!({"type": "array", "items": x}),
            (None, None) => json!({"type": "array"}),
        },
        (Some(x), Some(y)) if x == y => a.clone(),
        (Some("integer" | "number"), Some("integer" | "number")) => json!({"type": "number"}),
        _ => json!({}),
    }
}

/// Puts a result field's `leaf` (its type, the `values` relied on, the
/// values `seen` in the examples) at `tokens` into `schema`, creating the
/// objects and lists on the way. A property created here is required when
/// no example says otherwise (`fresh`: there are none).
fn place(schema: &mut Value, tokens: &[PathToken], leaf: &Value, fresh: bool) {
    let Some((first, rest)) = tokens.split_first() else {
        if let Some(t) = leaf["type"].as_str() {
            schema["type"] = json!(t);
        }
        let relied = leaf["values"].as_array().filter(|v| !v.is_empty());
        if let Some(values) = relied {
            let mut all = values.clone();
            for v in leaf["seen"].as_array().into_iter().flatten() {
                if !all.contains(v) {
                    all.push(v.clone());
                }
            }
            schema["enum"] = Value::Array(all);
        }
        return;
    };
    match first {
        PathToken::Field(name) => {
            if !schema.is_object() || schema.get("type").is_none() {
                schema["type"] = json!("object");
            }
            let properties = &mut schema["properties"];
            if !properties.is_object() {
                *properties = json!({});
            }
            let created = properties.get(name).is_none();
            if created {
                properties[name] = json!({});
            }
            let required_now = created && fresh;
            place(
                &mut schema["properties"][name],
                rest,
                leaf,
                fresh || created,
            );
            if required_now {
                let required = &mut schema["required"];
                if !required.is_array() {
                    *required = json!([]);
                }
                if let Some(r) = required.as_array_mut()
                    && !r.contains(&json!(name))
                {
                    r.push(json!(name));
                }
            }
        }
        PathToken::Index(_) | PathToken::StarIndex => {
            schema["type"] = json!("array");
            if !schema["items"].is_object() {
                schema["items"] = json!({});
            }
            place(&mut schema["items"], rest, leaf, fresh);
        }
        // `.*`: any key or index, which a schema cannot say for one
        PathToken::Star => {}
    }
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
