//! Reading one matching rule from the JSON of a pact file: the named
//! forms (`{"match": "type", "min": 1}`) and the V2 forms that imply the
//! rule from their keys (`{"regex": ".."}`, `{"min": 1}`).

use serde_json::{Map, Value};

use super::rule::{ArrayContainsVariant, EachRules, MatchingRule, StatusClass};
use super::rules::Category;

/// The rule a V2 rule object without `match` means.
pub(super) fn implied_name(o: &Map<String, Value>) -> Option<&'static str> {
    ["regex", "min", "max", "timestamp", "date", "time"]
        .into_iter()
        .find(|k| o.contains_key(*k))
        .map(|k| match k {
            "min" | "max" => "type",
            other => other,
        })
}

/// The rule `name` with its parameters from `o`.
pub(super) fn parse_named(name: &str, o: &Map<String, Value>) -> Result<MatchingRule, String> {
    let text = |key: &str| -> Result<String, String> {
        o.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("rule '{name}' needs a string '{key}'"))
    };
    let format = |alt: &str| {
        o.get("format")
            .or_else(|| o.get(alt))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    Ok(match name {
        "equality" => MatchingRule::Equality,
        "regex" => MatchingRule::regex(&text("regex")?)?,
        "type" | "min" | "max" => MatchingRule::Type {
            min: size(o, "min")?,
            max: size(o, "max")?,
        },
        "include" => MatchingRule::Include(text("value")?),
        "integer" => MatchingRule::Integer,
        "decimal" | "real" => MatchingRule::Decimal,
        "number" => MatchingRule::Number,
        "datetime" | "timestamp" => MatchingRule::DateTime(format("timestamp")),
        "date" => MatchingRule::Date(format("date")),
        "time" => MatchingRule::Time(format("time")),
        "null" => MatchingRule::Null,
        "boolean" => MatchingRule::Boolean,
        "contentType" => MatchingRule::ContentType(text("value")?),
        "values" => MatchingRule::Values,
        "arrayContains" => MatchingRule::ArrayContains(variants(o)?),
        "statusCode" => MatchingRule::StatusCode(StatusClass::from_json(
            o.get("status").unwrap_or(&Value::Null),
        )?),
        "notEmpty" => MatchingRule::NotEmpty,
        "semver" => MatchingRule::Semver,
        "eachKey" => MatchingRule::EachKey(nested(o)?),
        "eachValue" => MatchingRule::EachValue(nested(o)?),
        other => return Err(format!("unknown matching rule '{other}'")),
    })
}

fn size(o: &Map<String, Value>, key: &str) -> Result<Option<usize>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| format!("'{key}' must be a non-negative integer")),
    }
}

fn nested(o: &Map<String, Value>) -> Result<EachRules, String> {
    let rules = match o.get("rules") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(MatchingRule::from_json)
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("'rules' must be a list of rules".into()),
    };
    Ok(EachRules {
        rules,
        value: o.get("value").cloned(),
    })
}

fn variants(o: &Map<String, Value>) -> Result<Vec<ArrayContainsVariant>, String> {
    let items = o
        .get("variants")
        .and_then(Value::as_array)
        .ok_or("arrayContains needs a list of 'variants'")?;
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let index = v
                .get("index")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(i);
            let rules = match v.get("rules") {
                None | Some(Value::Null) => Category::default(),
                Some(r) => Category::from_json(r).map_err(|e| format!("variants[{i}].rules{e}"))?,
            };
            Ok(ArrayContainsVariant {
                index,
                rules,
                generators: v.get("generators").cloned(),
            })
        })
        .collect()
}
