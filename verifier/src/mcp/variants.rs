//! Invalid inputs derived from a tool's own `inputSchema`: each variant
//! breaks the recorded (valid) arguments in one way the schema forbids, and
//! must be refused — `isError: true` since 2025-11-25, a JSON-RPC error or
//! an HTTP 4xx are refusals too — and move no counter.
//!
//! | variant | from the schema | derived when |
//! | --- | --- | --- |
//! | required field missing | `required` | a required argument was recorded |
//! | wrong type | a property's single `type` | the argument was recorded |
//! | enum value outside the set | a property's `enum` | always (a recorded argument's first, else an optional one added) |
//! | additional property | `additionalProperties: false` | always |
//! | oversize string | a string property's `maxLength` (≤ 65,536) | always |
//! | oversize array | an array property's `maxItems` (≤ 1,024) | a non-empty array was recorded |
//!
//! One variant of each kind at most, on the first property it applies to:
//! at most six calls per tool and profile in a run. A served variant is
//! INVALID_INPUT_ACCEPTED (schema); an additional property the server
//! ignores is a warning only (the TypeScript SDK's zod objects strip
//! unknown keys while their schema says `additionalProperties: false`).

use serde_json::{Map, Value, json};

use super::resend::Answer;
use super::surface::resolve;
use crate::finding::{Finding, Layer, codes};

/// An invalid call derived from a valid one.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub kind: &'static str,
    /// Where the break is: `arguments.plan_id`.
    pub path: String,
    pub arguments: Map<String, Value>,
    /// Served, it is a warning rather than a finding.
    pub lenient: bool,
}

const MAX_LENGTH: u64 = 65_536;
const MAX_ITEMS: u64 = 1_024;

/// The variants of `args` that `schema` forbids.
pub fn variants(schema: &Value, args: &Map<String, Value>) -> Vec<Variant> {
    let root = resolve(schema, schema);
    let props: Map<String, Value> = root
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .map(|(k, v)| (k.clone(), resolve(schema, v)))
                .collect()
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut push = |kind, name: &str, arguments, lenient| {
        out.push(Variant {
            kind,
            path: format!("arguments.{name}"),
            arguments,
            lenient,
        });
    };
    let required = root.get("required").and_then(Value::as_array);
    if let Some(name) = required
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|n| args.contains_key(*n))
    {
        let mut a = args.clone();
        a.remove(name);
        push("required field missing", name, a, false);
    }
    let recorded = || props.iter().filter(|(k, _)| args.contains_key(*k));
    if let Some((name, wrong)) = recorded().find_map(|(k, p)| wrong_type(p).map(|w| (k, w))) {
        push("wrong type", name, with(args, name, wrong), false);
    }
    // a recorded argument's set first, else any property's: an optional
    // argument the contract never sends is still bounded by its schema
    let enumerated = |(_, p): &(&String, &Value)| p.get("enum").is_some_and(Value::is_array);
    if let Some((name, _)) = recorded()
        .find(enumerated)
        .or_else(|| props.iter().find(enumerated))
    {
        let outside = json!("accord-not-in-enum");
        push(
            "enum value outside the set",
            name,
            with(args, name, outside),
            false,
        );
    }
    if root.get("additionalProperties") == Some(&Value::Bool(false)) {
        let extra = "accord_unexpected_argument";
        push(
            "additional property",
            extra,
            with(args, extra, json!("x")),
            true,
        );
    }
    let bound =
        |p: &Value, key: &str, max: u64| p.get(key).and_then(Value::as_u64).filter(|n| *n <= max);
    if let Some((name, n)) = props.iter().find_map(|(k, p)| {
        let string = p.get("type") == Some(&json!("string"));
        bound(p, "maxLength", MAX_LENGTH)
            .filter(|_| string)
            .map(|n| (k, n))
    }) {
        let long = json!("x".repeat(usize::try_from(n).unwrap_or(0) + 1));
        push("oversize string", name, with(args, name, long), false);
    }
    if let Some((name, n, item)) = recorded().find_map(|(k, p)| {
        let first = args
            .get(k)
            .and_then(Value::as_array)
            .and_then(|a| a.first())?;
        bound(p, "maxItems", MAX_ITEMS).map(|n| (k, n, first.clone()))
    }) {
        let many = Value::Array(vec![item; usize::try_from(n).unwrap_or(0) + 1]);
        push("oversize array", name, with(args, name, many), false);
    }
    out
}

/// A value of another type than the property's single declared one.
fn wrong_type(prop: &Value) -> Option<Value> {
    Some(match prop.get("type")?.as_str()? {
        "string" => json!(12345),
        "integer" | "number" => json!("accord-not-a-number"),
        "boolean" => json!("accord-not-a-boolean"),
        "object" => json!("accord-not-an-object"),
        "array" => json!("accord-not-an-array"),
        _ => return None,
    })
}

fn with(args: &Map<String, Value>, name: &str, value: Value) -> Map<String, Value> {
    let mut a = args.clone();
    a.insert(name.to_owned(), value);
    a
}

/// How a variant's answer is judged: a finding, a warning, or nothing.
pub enum Verdict {
    Refused,
    Finding(Finding),
    Warning(Finding),
}

/// Judges the answer to `variant` of a call to `tool`. Pure.
pub fn judge_variant(tool: &str, variant: &Variant, answer: &Answer) -> Verdict {
    let what = format!("`{tool}` with {} ({})", variant.kind, variant.path);
    match answer {
        Answer::Served(_) => {
            let detail = format!("{what} was served, though its inputSchema forbids it");
            let f = Finding::new(
                Layer::Schema,
                codes::INVALID_INPUT_ACCEPTED,
                &variant.path,
                detail,
            );
            if variant.lenient {
                Verdict::Warning(f)
            } else {
                Verdict::Finding(f)
            }
        }
        Answer::Broken(why) => {
            let detail = format!("{what} was not refused with an answer: {why}");
            Verdict::Warning(Finding::new(
                Layer::Schema,
                codes::EXPECTATION_UNCHECKED,
                &variant.path,
                detail,
            ))
        }
        _ => Verdict::Refused,
    }
}

#[cfg(test)]
#[path = "variants_tests.rs"]
mod tests;
