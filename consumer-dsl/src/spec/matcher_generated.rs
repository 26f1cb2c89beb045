//! The matcher keywords that carry a generator: `$fromState` (values a
//! provider state returned), `$uuid`, `$randomInt`, `$randomDecimal`,
//! `$randomHex`, `$randomString`, `$mockServerUrl`.

use serde_json::{Value, json};

use super::matcher::{Args, Matcher, rule, simple};
use super::matcher_kinds::{UUID_EXAMPLE, UUID_REGEX, checked_regex, literal, string_value};
use super::template::Template;

fn data_type(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "STRING",
        Value::Number(n) if n.is_i64() || n.is_u64() => "INTEGER",
        Value::Number(_) => "DECIMAL",
        Value::Bool(_) => "BOOLEAN",
        _ => "RAW",
    }
}

/// Builds a generator-carrying matcher.
pub(crate) fn generated(a: &mut Args) -> Result<Matcher, String> {
    let kw = a.keyword.clone();
    let v = literal(a).cloned().unwrap_or(Value::Null);
    let (rule_json, generator, example) = match kw.as_str() {
        "$fromState" => {
            let expr = string_value(a)?;
            if !expr.contains("${") {
                return Err(format!("$fromState: `{expr}` has no ${{name}} placeholder"));
            }
            let Template::Literal(example) = a.example()? else {
                return Err("$fromState: `example` must be a plain value".into());
            };
            let g = json!({"type": "ProviderState", "expression": expr, "dataType": data_type(&example)});
            (rule("type"), g, example)
        }
        "$uuid" => {
            let ex = if v.is_null() {
                Value::from(UUID_EXAMPLE)
            } else {
                v
            };
            let ok = ex
                .as_str()
                .is_some_and(|s| checked_regex(&kw, UUID_REGEX).is_ok_and(|r| r.is_match(s)));
            if !ok {
                return Err("$uuid: the example is not a UUID".into());
            }
            (
                json!({"match": "regex", "regex": UUID_REGEX}),
                json!({"type": "Uuid"}),
                ex,
            )
        }
        "$randomInt" => {
            if !(v.is_i64() || v.is_u64()) {
                return Err("$randomInt takes an integer example".into());
            }
            let (lo, hi) = (
                a.uint("min")?.unwrap_or(0),
                a.uint("max")?.unwrap_or(i32::MAX as u64),
            );
            (
                rule("integer"),
                json!({"type": "RandomInt", "min": lo, "max": hi}),
                v,
            )
        }
        "$randomDecimal" => {
            if !v.is_number() {
                return Err("$randomDecimal takes a number example".into());
            }
            let digits = a.uint("digits")?.unwrap_or(6);
            (
                rule("decimal"),
                json!({"type": "RandomDecimal", "digits": digits}),
                v,
            )
        }
        "$randomHex" => {
            let s = string_value(a)?;
            if s.is_empty() || !s.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err("$randomHex takes a hexadecimal example".into());
            }
            let digits = a.uint("digits")?.unwrap_or(s.len() as u64);
            (
                json!({"match": "regex", "regex": "^[0-9a-fA-F]+$"}),
                json!({"type": "RandomHexadecimal", "digits": digits}),
                Value::from(s),
            )
        }
        "$randomString" => {
            let s = string_value(a)?;
            let size = a.uint("size")?.unwrap_or(s.chars().count() as u64);
            (
                rule("type"),
                json!({"type": "RandomString", "size": size}),
                Value::from(s),
            )
        }
        _ => {
            let s = string_value(a)?;
            let Some(Template::Literal(Value::String(re))) = a.take("regex") else {
                return Err("$mockServerUrl needs `regex`: the part of the URL after the mock server's base".into());
            };
            if !checked_regex(&kw, &re)?.is_match(&s) {
                return Err(format!(
                    "$mockServerUrl: the example `{s}` does not match `{re}`"
                ));
            }
            (
                json!({"match": "regex", "regex": re}),
                json!({"type": "MockServerURL", "example": s, "regex": re}),
                Value::from(s),
            )
        }
    };
    let mut m = simple(rule_json, Template::Literal(example));
    m.generator = Some(generator);
    Ok(m)
}
