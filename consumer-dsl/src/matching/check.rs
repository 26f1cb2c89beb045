//! Applying one rule, or a rule list with its combine mode, to a value.
//!
//! Structural rules (`values`, `eachKey`, `eachValue`, `arrayContains`)
//! are handled by the body comparators; here they only check the shape.

use serde_json::Value;

use super::content_type::{content_type_fits, detect};
use super::datetime::{self, Temporal};
use super::mismatch::describe;
use super::rule::MatchingRule;
use super::rules::{Combine, RuleList};

/// A failed rule: which rule, and the sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub rule: String,
    pub message: String,
}

/// Judges one value: by its rules when it has some, otherwise by `equal`
/// (which returns the sentence when the values differ).
pub fn judge(
    rules: Option<&RuleList>,
    check: impl FnMut(&MatchingRule) -> Result<(), String>,
    equal: impl FnOnce() -> Result<(), String>,
) -> Result<(), (String, Option<String>)> {
    match rules {
        Some(list) => check_list(list, check).map_err(|f| (f.message, Some(f.rule))),
        None => equal().map_err(|m| (m, None)),
    }
}

/// `Ok` when `equal`, else the sentence.
pub fn same(equal: bool, sentence: impl FnOnce() -> String) -> Result<(), String> {
    if equal { Ok(()) } else { Err(sentence()) }
}

/// Applies every rule of `list` with `check`, honouring AND/OR.
pub fn check_list(
    list: &RuleList,
    mut check: impl FnMut(&MatchingRule) -> Result<(), String>,
) -> Result<(), Failure> {
    let mut failures = Vec::new();
    for rule in &list.rules {
        match (check(rule), list.combine) {
            (Ok(()), Combine::Or) => return Ok(()),
            (Ok(()), Combine::And) => {}
            (Err(message), Combine::And) => {
                return Err(Failure {
                    rule: rule.to_string(),
                    message,
                });
            }
            (Err(message), Combine::Or) => failures.push((rule.to_string(), message)),
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    let rule = failures
        .iter()
        .map(|(r, _)| r.as_str())
        .collect::<Vec<_>>()
        .join(" OR ");
    let message = failures
        .into_iter()
        .map(|(_, m)| m)
        .collect::<Vec<_>>()
        .join("; ");
    Err(Failure { rule, message })
}

/// Applies `rule` to JSON values. One arm per rule: a long but flat
/// dispatch reads better than a rule trait spread over files. Sentences
/// follow pact-reference's, so the compatibility suite can compare them.
pub fn check_json(rule: &MatchingRule, expected: &Value, actual: &Value) -> Result<(), String> {
    let fail = |what: &str| Err(format!("Expected {} {what}", describe(actual)));
    let plain = || plain_text(actual);
    match rule {
        MatchingRule::Equality if expected == actual => Ok(()),
        MatchingRule::Equality => fail(&format!("to be equal to {}", describe(expected))),
        MatchingRule::Regex(r) => match scalar_text(actual) {
            Some(t) if r.is_full_match(&t) => Ok(()),
            _ => Err(format!("Expected '{}' to match '{}'", plain(), r.source())),
        },
        MatchingRule::Type { min, max } => check_type(expected, actual, *min, *max),
        MatchingRule::Include(s) => match scalar_text(actual) {
            Some(t) if t.contains(s.as_str()) => Ok(()),
            _ => Err(format!("Expected '{}' to include '{s}'", plain())),
        },
        MatchingRule::Integer => match actual {
            Value::Number(n) if n.is_i64() || n.is_u64() => Ok(()),
            _ => fail("to be an integer"),
        },
        MatchingRule::Decimal => match actual {
            Value::Number(n) if n.is_f64() => Ok(()),
            _ => fail("to be a decimal number"),
        },
        MatchingRule::Number => match actual {
            Value::Number(_) => Ok(()),
            _ => fail("to be a number"),
        },
        MatchingRule::DateTime(p) => temporal(actual, p.as_deref(), Temporal::DateTime),
        MatchingRule::Date(p) => temporal(actual, p.as_deref(), Temporal::Date),
        MatchingRule::Time(p) => temporal(actual, p.as_deref(), Temporal::Time),
        MatchingRule::Null if actual.is_null() => Ok(()),
        MatchingRule::Null => fail("to be a null value"),
        MatchingRule::Boolean => match actual {
            Value::Bool(_) => Ok(()),
            Value::String(s) if s == "true" || s == "false" => Ok(()),
            _ => fail("to match a boolean"),
        },
        MatchingRule::StatusCode(class) => {
            match actual.as_u64().and_then(|n| u16::try_from(n).ok()) {
                Some(s) if class.contains(s) => Ok(()),
                _ => Err(format!(
                    "Expected status code {} to be {}",
                    plain(),
                    class.describe()
                )),
            }
        }
        MatchingRule::NotEmpty => check_not_empty(actual),
        MatchingRule::Semver => match actual.as_str().map(semver::Version::parse) {
            Some(Ok(_)) => Ok(()),
            _ => Err(format!("'{}' is not a valid semantic version", plain())),
        },
        MatchingRule::ArrayContains(_) if !actual.is_array() => fail("to be an array"),
        MatchingRule::Values => check_type(expected, actual, None, None),
        MatchingRule::ContentType(wanted) => check_content_type(wanted, actual),
        MatchingRule::ArrayContains(_) | MatchingRule::EachKey(_) | MatchingRule::EachValue(_) => {
            Ok(())
        }
    }
}

/// A `contentType` rule on a value inside a body: a string is read as
/// base64 when it decodes, else as its text; any other value as its JSON
/// (pact-reference `convert_data` then `match_content_type`).
fn check_content_type(wanted: &str, actual: &Value) -> Result<(), String> {
    use base64::Engine;
    let bytes = match actual {
        Value::String(s) => base64::engine::general_purpose::STANDARD
            .decode(s.trim())
            .unwrap_or_else(|_| s.clone().into_bytes()),
        other => other.to_string().into_bytes(),
    };
    let detected = detect(&bytes);
    same(content_type_fits(wanted, detected), || {
        format!(
            "Expected binary contents to have content type '{wanted}' but detected contents was '{detected}'"
        )
    })
}

fn check_not_empty(actual: &Value) -> Result<(), String> {
    let empty = match actual {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    };
    if empty {
        return Err(format!("Expected {} to not be empty", describe(actual)));
    }
    // Only the emptiness counts (pact-reference `DoMatch<&Value>`); an
    // expected object or list met by another kind of value is a type
    // mismatch found by the JSON comparator before any rule runs.
    Ok(())
}

/// Applies `rule` to text values (headers, query, path, XML text and
/// attributes): numbers and booleans are recognised in the text.
pub fn check_str(rule: &MatchingRule, expected: &str, actual: &str) -> Result<(), String> {
    let fail = |what: &str| Err(format!("Expected '{actual}' {what}"));
    match rule {
        MatchingRule::Integer if is_integer_text(actual) => Ok(()),
        MatchingRule::Integer => fail("to be an integer"),
        MatchingRule::Decimal if is_decimal_text(actual) => Ok(()),
        MatchingRule::Decimal => fail("to be a decimal number"),
        MatchingRule::Number if is_number_text(actual) => Ok(()),
        MatchingRule::Number => fail("to be a number"),
        MatchingRule::Null if actual.is_empty() => Ok(()),
        MatchingRule::Null => fail("to be a null value"),
        MatchingRule::StatusCode(class) => match actual.parse::<u16>() {
            Ok(s) if class.contains(s) => Ok(()),
            _ => Err(format!(
                "Expected status code {actual} to be {}",
                class.describe()
            )),
        },
        MatchingRule::Type { .. } | MatchingRule::Values | MatchingRule::EachValue(_) => Ok(()),
        other => check_json(
            other,
            &Value::String(expected.to_string()),
            &Value::String(actual.to_string()),
        ),
    }
}

/// `-?\d+`, of any length (pact-jvm's integer pattern for text values).
fn is_integer_text(t: &str) -> bool {
    let digits = t.strip_prefix('-').unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `-?\d+\.\d+`: digits on both sides of the point (pact-reference's
/// `DEC_REGEX`; the spec's "number with decimal places").
fn is_decimal_text(t: &str) -> bool {
    t.split_once('.').is_some_and(|(int, frac)| {
        is_integer_text(int) && is_integer_text(frac) && !frac.starts_with('-')
    })
}

/// A finite number in decimal or exponent form; `NaN` and `inf` are not
/// numbers in a contract.
fn is_number_text(t: &str) -> bool {
    let starts_like_a_number = t
        .trim_start_matches(['-', '+'])
        .starts_with(|c: char| c.is_ascii_digit() || c == '.');
    starts_like_a_number && t.parse::<f64>().is_ok_and(f64::is_finite)
}

fn check_type(
    expected: &Value,
    actual: &Value,
    min: Option<usize>,
    max: Option<usize>,
) -> Result<(), String> {
    let same = matches!(
        (expected, actual),
        (Value::Null, Value::Null)
            | (Value::Bool(_), Value::Bool(_))
            | (Value::Number(_), Value::Number(_))
            | (Value::String(_), Value::String(_))
            | (Value::Array(_), Value::Array(_))
            | (Value::Object(_), Value::Object(_))
    );
    if !same {
        return Err(format!(
            "Expected {} to be the same type as {}",
            describe(actual),
            describe(expected)
        ));
    }
    if let Value::Array(items) = actual {
        check_size(items.len(), min, max, || list_text(items))?;
    }
    Ok(())
}

/// Checks a list length against `min`/`max`; `shown` renders the list.
pub fn check_size(
    len: usize,
    min: Option<usize>,
    max: Option<usize>,
    shown: impl Fn() -> String,
) -> Result<(), String> {
    if let Some(m) = min.filter(|m| len < *m) {
        return Err(format!(
            "Expected {} (size {len}) to have minimum size of {m}",
            shown()
        ));
    }
    if let Some(m) = max.filter(|m| len > *m) {
        return Err(format!(
            "Expected {} (size {len}) to have maximum size of {m}",
            shown()
        ));
    }
    Ok(())
}

/// `[1, 2, 3]`: a list as pact-reference prints it in size messages.
fn list_text(items: &[Value]) -> String {
    let parts: Vec<String> = items.iter().map(Value::to_string).collect();
    format!("[{}]", parts.join(", "))
}

fn temporal(actual: &Value, pattern: Option<&str>, kind: Temporal) -> Result<(), String> {
    let what = match kind {
        Temporal::DateTime => "datetime",
        Temporal::Date => "date",
        Temporal::Time => "time",
    };
    match actual.as_str() {
        Some(s) if datetime::is_valid(s, pattern, kind) => Ok(()),
        _ => Err(match pattern {
            Some(p) => format!(
                "Expected '{}' to match a {what} pattern of '{p}'",
                plain_text(actual)
            ),
            None => format!("Expected '{}' to be an ISO 8601 {what}", plain_text(actual)),
        }),
    }
}

/// The value as text for messages: strings unquoted, others as JSON.
fn plain_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The text a regex or include rule reads: strings as they are, any
/// other value as JSON (`null`, `true`, `12`, `[1,2]`), as
/// pact-reference's `DoMatch<&Value>` does.
fn scalar_text(v: &Value) -> Option<std::borrow::Cow<'_, str>> {
    Some(match v {
        Value::String(s) => s.as_str().into(),
        other => other.to_string().into(),
    })
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
