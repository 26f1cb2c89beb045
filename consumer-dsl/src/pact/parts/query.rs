//! Query strings: V1–V2 strings, V3–V4 maps.

use serde_json::Value;

use crate::DslError;
use crate::model::{PactSpec, Query};

/// Reads the `query` attribute at JSON path `at`.
///
/// V1 keeps empty segments (a trailing `&` is part of the string V1
/// compares); later versions drop them.
pub(super) fn query_from_json(
    v: &Value,
    spec: PactSpec,
    origin: &str,
    at: &str,
) -> Result<Query, DslError> {
    match v {
        Value::String(s) => Ok(parse_query_string(s, spec == PactSpec::V1)),
        Value::Object(map) => {
            let mut query = Query::with_capacity(map.len());
            for (name, values) in map {
                let values = match values {
                    Value::Array(items) => items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| scalar(item, origin, &format!("{at}.{name}[{i}]")))
                        .collect::<Result<Vec<_>, _>>()?,
                    other => vec![scalar(other, origin, &format!("{at}.{name}"))?],
                };
                query.insert(name.clone(), values);
            }
            Ok(query)
        }
        _ => Err(DslError::invalid(
            origin,
            at,
            "must be a query string or a map of names to values",
        )),
    }
}

fn scalar(v: &Value, origin: &str, at: &str) -> Result<String, DslError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(DslError::invalid(
            origin,
            at,
            "a query value must be a string",
        )),
    }
}

/// Parses `a=b&c=d` (URL-decoded, `+` is a space) into name → values.
pub fn parse_query_string(s: &str, keep_empty: bool) -> Query {
    let mut query = Query::new();
    for segment in s.split('&') {
        if segment.is_empty() && !keep_empty {
            continue;
        }
        let (name, value) = segment.split_once('=').unwrap_or((segment, ""));
        query
            .entry(url_decode(name))
            .or_default()
            .push(url_decode(value));
    }
    query
}

/// Decodes `%XX` escapes and `+`; invalid escapes are kept as written.
pub fn url_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'+' => out.push(b' '),
            b'%' => match (
                bytes.get(i + 1).and_then(hex),
                bytes.get(i + 2).and_then(hex),
            ) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            other => out.push(other),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: &u8) -> Option<u8> {
    (*b as char).to_digit(16).and_then(|d| u8::try_from(d).ok())
}
