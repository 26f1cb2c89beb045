//! What each matcher keyword compiles to: V4 matching rules, generators and
//! the example value.

use serde_json::{Map, Value, json};

use super::matcher::{Args, Matcher, MatcherBody, rule, simple};
use super::path::PactPath;
use super::template::{Compiled, Template};

pub(crate) const UUID_REGEX: &str =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
pub(crate) const UUID_EXAMPLE: &str = "e2490de5-5bd3-43d5-b7c4-526e33f71304";
const MAX_EACH_LIKE_COPIES: u64 = 100;

/// Builds the matcher named by `args.keyword`.
pub(crate) fn build(a: &mut Args) -> Result<Matcher, String> {
    match a.keyword.as_str() {
        "$like" | "$eachLike" => shape(a),
        "$regex" | "$enum" | "$include" | "$semver" | "$contentType" => text(a),
        "$datetime" | "$date" | "$time" => temporal(a),
        "$integer" | "$decimal" | "$number" | "$boolean" | "$null" => primitive(a),
        "$equals" | "$values" | "$notEmpty" => plain(a),
        "$eachKey" | "$eachValue" | "$arrayContains" => collection(a),
        "$statusCode" => status_code(a),
        _ => super::matcher_generated::generated(a),
    }
}

pub(crate) fn literal(a: &Args) -> Option<&Value> {
    match &a.value {
        Template::Literal(v) => Some(v),
        _ => None,
    }
}

pub(crate) fn string_value(a: &Args) -> Result<String, String> {
    literal(a)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| format!("{} takes a string", a.keyword))
}

fn example_string(a: &mut Args) -> Result<String, String> {
    match a.example()? {
        Template::Literal(Value::String(s)) => Ok(s),
        _ => Err(format!("{}: `example` must be a string", a.keyword)),
    }
}

fn min_max(rule_name: &str, min: Option<u64>, max: Option<u64>) -> Value {
    let mut r = Map::new();
    r.insert("match".into(), rule_name.into());
    if let Some(m) = min {
        r.insert("min".into(), m.into());
    }
    if let Some(m) = max {
        r.insert("max".into(), m.into());
    }
    Value::Object(r)
}

fn shape(a: &mut Args) -> Result<Matcher, String> {
    let (min, max) = (a.uint("min")?, a.uint("max")?);
    if let (Some(lo), Some(hi)) = (min, max)
        && lo > hi
    {
        return Err(format!("{}: min {lo} is greater than max {hi}", a.keyword));
    }
    let item = std::mem::replace(&mut a.value, Template::Literal(Value::Null));
    if a.keyword == "$like" {
        return Ok(simple(min_max("type", min, max), item));
    }
    let min = min.or(Some(1));
    let wanted = a.uint("examples")?.unwrap_or(min.unwrap_or(1).max(1));
    if wanted > MAX_EACH_LIKE_COPIES
        || max.is_some_and(|m| wanted > m)
        || min.is_some_and(|m| wanted < m)
    {
        return Err(format!(
            "$eachLike: `examples` ({wanted}) must lie between min and max and be at most {MAX_EACH_LIKE_COPIES}"
        ));
    }
    Ok(Matcher {
        rules: vec![min_max("type", min, max)],
        generator: None,
        body: MatcherBody::EachLike {
            item,
            copies: usize::try_from(wanted).unwrap_or(1),
        },
    })
}

/// A Pact regex (Java semantics: it must match the whole value).
pub(crate) fn checked_regex(
    keyword: &str,
    pattern: &str,
) -> Result<crate::matching::PactRegex, String> {
    crate::matching::PactRegex::new(pattern).map_err(|e| format!("{keyword}: {e}"))
}

fn text(a: &mut Args) -> Result<Matcher, String> {
    let kw = a.keyword.clone();
    match kw.as_str() {
        "$regex" => {
            let pattern = string_value(a)?;
            let re = checked_regex(&kw, &pattern)?;
            let example = example_string(a)?;
            if !re.is_full_match(&example) {
                return Err(format!(
                    "$regex: the example `{example}` does not match `{pattern}` (a Pact regex matches the whole value)"
                ));
            }
            let mut m = simple(
                json!({"match": "regex", "regex": pattern}),
                Template::Literal(example.into()),
            );
            if a.flag("generate")? {
                m.generator = Some(json!({"type": "Regex", "regex": pattern}));
            }
            Ok(m)
        }
        "$enum" => enumeration(a),
        "$include" => {
            let value = string_value(a)?;
            let example = match a.take("example") {
                Some(Template::Literal(Value::String(s))) if s.contains(&value) => s,
                Some(_) => {
                    return Err(format!(
                        "$include: `example` must be a string containing `{value}`"
                    ));
                }
                None => value.clone(),
            };
            Ok(simple(
                json!({"match": "include", "value": value}),
                Template::Literal(example.into()),
            ))
        }
        "$semver" => {
            let v = string_value(a)?;
            semver::Version::parse(&v)
                .map_err(|e| format!("$semver: `{v}` is not a semantic version: {e}"))?;
            Ok(simple(rule("semver"), Template::Literal(v.into())))
        }
        _ => {
            let ct = string_value(a)?;
            let example = a.example()?;
            Ok(simple(
                json!({"match": "contentType", "value": ct}),
                example,
            ))
        }
    }
}

fn enumeration(a: &mut Args) -> Result<Matcher, String> {
    let values: Vec<String> = match literal(a) {
        Some(Value::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                Value::Number(_) | Value::Bool(_) => Ok(v.to_string()),
                _ => Err("$enum: values must be strings, numbers or booleans".to_string()),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err("$enum takes a non-empty list of values".into()),
    };
    let Some(Value::Array(items)) = literal(a).cloned() else {
        return Err("$enum takes a non-empty list of values".into());
    };
    let example = match a.take("example") {
        Some(Template::Literal(v)) if items.contains(&v) => v,
        Some(_) => return Err("$enum: `example` must be one of the values".into()),
        None => items.first().cloned().unwrap_or(Value::Null),
    };
    let alternatives: Vec<String> = values.iter().map(|v| regex::escape(v)).collect();
    let pattern = format!("^({})$", alternatives.join("|"));
    Ok(simple(
        json!({"match": "regex", "regex": pattern}),
        Template::Literal(example),
    ))
}

fn temporal(a: &mut Args) -> Result<Matcher, String> {
    let format = string_value(a)?;
    let kind = a.keyword.trim_start_matches('$').to_string();
    let example = example_string(a)?;
    let mut m = simple(
        json!({"match": kind, "format": format}),
        Template::Literal(example.into()),
    );
    if a.flag("generate")? {
        let generator = match kind.as_str() {
            "date" => "Date",
            "time" => "Time",
            _ => "DateTime",
        };
        m.generator = Some(json!({"type": generator, "format": format}));
    }
    Ok(m)
}

fn primitive(a: &mut Args) -> Result<Matcher, String> {
    let kw = a.keyword.clone();
    let v = literal(a).cloned();
    let ok = match (kw.as_str(), &v) {
        ("$integer", Some(Value::Number(n))) => n.is_i64() || n.is_u64(),
        ("$decimal" | "$number", Some(Value::Number(_))) => true,
        ("$boolean", Some(Value::Bool(_))) => true,
        ("$null", Some(Value::Null | Value::Bool(true))) => true,
        _ => false,
    };
    if !ok {
        return Err(match kw.as_str() {
            "$integer" => "$integer takes an integer example".into(),
            "$boolean" => "$boolean takes true or false as example".into(),
            "$null" => "$null takes `~`, `null` or `true`".into(),
            _ => format!("{kw} takes a number example"),
        });
    }
    let name = kw.trim_start_matches('$');
    let example = if kw == "$null" {
        Value::Null
    } else {
        v.unwrap_or(Value::Null)
    };
    let mut m = simple(rule(name), Template::Literal(example));
    m.generator = match kw.as_str() {
        "$integer" => match (a.uint("min")?, a.uint("max")?) {
            (None, None) => None,
            (lo, hi) => Some(
                json!({"type": "RandomInt", "min": lo.unwrap_or(0), "max": hi.unwrap_or(i32::MAX as u64)}),
            ),
        },
        "$decimal" => a
            .uint("digits")?
            .map(|d| json!({"type": "RandomDecimal", "digits": d})),
        "$boolean" => a
            .flag("generate")?
            .then(|| json!({"type": "RandomBoolean"})),
        _ => None,
    };
    Ok(m)
}

fn plain(a: &mut Args) -> Result<Matcher, String> {
    let value = std::mem::replace(&mut a.value, Template::Literal(Value::Null));
    match a.keyword.as_str() {
        "$equals" => Ok(simple(rule("equality"), value)),
        "$values" => match &value {
            Template::Object(_) | Template::Literal(Value::Object(_)) => {
                Ok(simple(rule("values"), value))
            }
            _ => Err(
                "$values takes an object (its keys are free, its values follow the example)".into(),
            ),
        },
        _ => {
            let empty = matches!(&value, Template::Literal(Value::String(s)) if s.is_empty())
                || matches!(&value, Template::Literal(Value::Array(v)) if v.is_empty())
                || matches!(&value, Template::Literal(Value::Null));
            if empty {
                return Err("$notEmpty needs a non-empty example".into());
            }
            Ok(simple(rule("notEmpty"), value))
        }
    }
}

fn collection(a: &mut Args) -> Result<Matcher, String> {
    let value = std::mem::replace(&mut a.value, Template::Literal(Value::Null));
    if a.keyword == "$arrayContains" {
        return array_contains(value);
    }
    let kw = a.keyword.clone();
    let Template::Matcher(inner) = value else {
        return Err(format!(
            "{kw} takes a matcher, e.g. {{ $regex: \"^[a-z]+$\", example: key }}"
        ));
    };
    let example = a.example()?;
    if !matches!(
        &example,
        Template::Object(_) | Template::Literal(Value::Object(_))
    ) {
        return Err(format!("{kw}: `example` must be an object"));
    }
    let name = kw.trim_start_matches('$');
    Ok(simple(
        json!({"match": name, "rules": inner.rules}),
        example,
    ))
}

fn array_contains(value: Template) -> Result<Matcher, String> {
    let items = match value {
        Template::Array(items) => items,
        Template::Literal(Value::Array(items)) => {
            items.into_iter().map(Template::Literal).collect()
        }
        _ => return Err("$arrayContains takes a list of variants".into()),
    };
    let mut variants = Vec::new();
    let mut examples = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let mut out = Compiled::default();
        examples.push(item.compile(&PactPath::root(), &mut out));
        let mut v = json!({"index": index, "rules": out.rules_by_path()});
        if !out.generators_by_path().is_empty() {
            v["generators"] = Value::Object(out.generators_by_path());
        }
        variants.push(v);
    }
    Ok(simple(
        json!({"match": "arrayContains", "variants": variants}),
        Template::Literal(Value::Array(examples)),
    ))
}

fn status_code(a: &mut Args) -> Result<Matcher, String> {
    const CLASSES: [(&str, u64); 7] = [
        ("info", 100),
        ("success", 200),
        ("redirect", 300),
        ("clientError", 400),
        ("serverError", 500),
        ("nonError", 200),
        ("error", 400),
    ];
    let (status, default) = match literal(a) {
        Some(Value::String(s)) => match CLASSES.iter().find(|(c, _)| c == s) {
            Some((_, d)) => (Value::String(s.clone()), *d),
            None => {
                return Err(format!(
                    "$statusCode: unknown class `{s}`; expected info, success, redirect, clientError, serverError, nonError, error or a list of codes"
                ));
            }
        },
        Some(Value::Array(codes))
            if !codes.is_empty()
                && codes
                    .iter()
                    .all(|c| c.as_u64().is_some_and(|n| (100..=599).contains(&n))) =>
        {
            (
                Value::Array(codes.clone()),
                codes.first().and_then(Value::as_u64).unwrap_or(200),
            )
        }
        _ => {
            return Err(
                "$statusCode takes a class name or a non-empty list of status codes".into(),
            );
        }
    };
    let example = match a.take("example") {
        Some(Template::Literal(v)) if v.as_u64().is_some_and(|n| (100..=599).contains(&n)) => v,
        Some(_) => return Err("$statusCode: `example` must be a status code".into()),
        None => default.into(),
    };
    Ok(simple(
        json!({"match": "statusCode", "status": status}),
        Template::Literal(example),
    ))
}
