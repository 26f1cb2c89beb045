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

/// A rule, a generator and the example.
type Parts = (Value, Value, Value);

/// Builds a generator-carrying matcher.
pub(crate) fn generated(a: &mut Args) -> Result<Matcher, String> {
    let v = literal(a).cloned().unwrap_or(Value::Null);
    let (rule_json, generator, example) = match a.keyword.as_str() {
        "$fromState" => from_state(a)?,
        "$uuid" => uuid(v)?,
        "$randomInt" => random_int(a, v)?,
        "$randomDecimal" => random_decimal(a, v)?,
        "$randomHex" => random_hex(a)?,
        "$randomString" => {
            let s = string_value(a)?;
            let size = a.uint("size")?.unwrap_or(s.chars().count() as u64);
            (
                rule("type"),
                json!({"type": "RandomString", "size": size}),
                Value::from(s),
            )
        }
        _ => mock_server_url(a)?,
    };
    let mut m = simple(rule_json, Template::Literal(example));
    m.generator = Some(generator);
    Ok(m)
}

/// `$fromState`: the value a provider state returned. The rule is `type`
/// (any value of the example's type), or with `equal: true` `equality`: the
/// verifier writes the state's value into the expected side too, so the
/// provider must answer exactly the value the state returned.
fn from_state(a: &mut Args) -> Result<Parts, String> {
    let expr = string_value(a)?;
    if !expr.contains("${") {
        return Err(format!("$fromState: `{expr}` has no ${{name}} placeholder"));
    }
    let Template::Literal(example) = a.example()? else {
        return Err("$fromState: `example` must be a plain value".into());
    };
    let equal = a.flag("equal")?;
    let g = json!({"type": "ProviderState", "expression": expr, "dataType": data_type(&example)});
    let matched = if equal { "equality" } else { "type" };
    Ok((rule(matched), g, example))
}

fn uuid(v: Value) -> Result<Parts, String> {
    let ex = if v.is_null() {
        Value::from(UUID_EXAMPLE)
    } else {
        v
    };
    let ok = ex
        .as_str()
        .is_some_and(|s| checked_regex("$uuid", UUID_REGEX).is_ok_and(|r| r.is_full_match(s)));
    if !ok {
        return Err("$uuid: the example is not a UUID".into());
    }
    Ok((
        json!({"match": "regex", "regex": UUID_REGEX}),
        json!({"type": "Uuid"}),
        ex,
    ))
}

fn random_int(a: &mut Args, v: Value) -> Result<Parts, String> {
    if !(v.is_i64() || v.is_u64()) {
        return Err("$randomInt takes an integer example".into());
    }
    let lo = a.uint("min")?.unwrap_or(0);
    let hi = a.uint("max")?.unwrap_or(i32::MAX as u64);
    if lo > hi {
        return Err(format!("$randomInt: min {lo} is greater than max {hi}"));
    }
    Ok((
        rule("integer"),
        json!({"type": "RandomInt", "min": lo, "max": hi}),
        v,
    ))
}

fn random_decimal(a: &mut Args, v: Value) -> Result<Parts, String> {
    if !v.is_number() {
        return Err("$randomDecimal takes a number example".into());
    }
    let digits = a.uint("digits")?.unwrap_or(6);
    Ok((
        rule("decimal"),
        json!({"type": "RandomDecimal", "digits": digits}),
        v,
    ))
}

fn random_hex(a: &mut Args) -> Result<Parts, String> {
    let s = string_value(a)?;
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err("$randomHex takes a hexadecimal example".into());
    }
    let digits = a.uint("digits")?.unwrap_or(s.len() as u64);
    let g = json!({"type": "RandomHexadecimal", "digits": digits});
    Ok((
        json!({"match": "regex", "regex": "^[0-9a-fA-F]+$"}),
        g,
        Value::from(s),
    ))
}

fn mock_server_url(a: &mut Args) -> Result<Parts, String> {
    let s = string_value(a)?;
    let Some(Template::Literal(Value::String(re))) = a.take("regex") else {
        return Err(
            "$mockServerUrl needs `regex`: the part of the URL after the mock server's base".into(),
        );
    };
    if !checked_regex("$mockServerUrl", &re)?.is_full_match(&s) {
        return Err(format!(
            "$mockServerUrl: the example `{s}` does not match `{re}`"
        ));
    }
    let g = json!({"type": "MockServerURL", "example": s, "regex": re});
    Ok((json!({"match": "regex", "regex": re}), g, Value::from(s)))
}

#[cfg(test)]
#[path = "matcher_from_state_tests.rs"]
mod tests;
