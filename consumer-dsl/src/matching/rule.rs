//! One matching rule, as Pact V4 defines them, read from and written to
//! the JSON of a pact file.

use std::fmt;

use serde_json::{Map, Value, json};

use super::regex::PactRegex;
use super::rules::Category;

/// Which HTTP statuses a `statusCode` rule accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusClass {
    Information,
    Success,
    Redirect,
    ClientError,
    ServerError,
    NonError,
    Error,
    /// An explicit list of status codes.
    Codes(Vec<u16>),
}

impl StatusClass {
    /// True when `status` belongs to this class.
    pub fn contains(&self, status: u16) -> bool {
        match self {
            StatusClass::Information => (100..200).contains(&status),
            StatusClass::Success => (200..300).contains(&status),
            StatusClass::Redirect => (300..400).contains(&status),
            StatusClass::ClientError => (400..500).contains(&status),
            StatusClass::ServerError => (500..600).contains(&status),
            StatusClass::NonError => status < 400,
            StatusClass::Error => status >= 400,
            StatusClass::Codes(codes) => codes.contains(&status),
        }
    }

    /// How messages name the class (`a Successful response (200–299)`).
    pub fn describe(&self) -> String {
        match self {
            StatusClass::Information => "an Informational response (100–199)".into(),
            StatusClass::Success => "a Successful response (200–299)".into(),
            StatusClass::Redirect => "a Redirect (300–399)".into(),
            StatusClass::ClientError => "a Client Error (400–499)".into(),
            StatusClass::ServerError => "a Server Error (500–599)".into(),
            StatusClass::NonError => "a non-error response (< 400)".into(),
            StatusClass::Error => "an error response (>= 400)".into(),
            StatusClass::Codes(codes) => format!("one of {codes:?}"),
        }
    }

    fn name(&self) -> Option<&'static str> {
        Some(match self {
            StatusClass::Information => "info",
            StatusClass::Success => "success",
            StatusClass::Redirect => "redirect",
            StatusClass::ClientError => "clientError",
            StatusClass::ServerError => "serverError",
            StatusClass::NonError => "nonError",
            StatusClass::Error => "error",
            StatusClass::Codes(_) => return None,
        })
    }

    pub(super) fn from_json(v: &Value) -> Result<Self, String> {
        Ok(match v {
            Value::String(s) => match s.as_str() {
                "info" | "information" => StatusClass::Information,
                "success" => StatusClass::Success,
                "redirect" => StatusClass::Redirect,
                "clientError" => StatusClass::ClientError,
                "serverError" => StatusClass::ServerError,
                "nonError" => StatusClass::NonError,
                "error" => StatusClass::Error,
                other => return Err(format!("unknown status class '{other}'")),
            },
            Value::Array(items) => StatusClass::Codes(
                items
                    .iter()
                    .map(|i| {
                        i.as_u64()
                            .and_then(|n| u16::try_from(n).ok())
                            .ok_or("status codes must be numbers")
                    })
                    .collect::<Result<_, _>>()?,
            ),
            _ => return Err("status must be a class name or a list of codes".into()),
        })
    }
}

/// One variant of an `arrayContains` rule: the expected item at `index`
/// and the rules (relative to the item) that judge it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayContainsVariant {
    pub index: usize,
    pub rules: Category,
    /// Generators of the variant, kept as written.
    pub generators: Option<Value>,
}

/// The inner rules of `eachKey`/`eachValue`, with the example `value`
/// pact files may carry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EachRules {
    pub rules: Vec<MatchingRule>,
    pub value: Option<Value>,
}

/// A Pact matching rule.
#[derive(Debug, Clone, PartialEq)]
pub enum MatchingRule {
    Equality,
    Regex(PactRegex),
    /// Same JSON type as the example; optional array size bounds.
    Type {
        min: Option<usize>,
        max: Option<usize>,
    },
    /// The actual value (as a string) contains this text.
    Include(String),
    Integer,
    Decimal,
    Number,
    /// `datetime` / `timestamp`, with a Java date-time pattern.
    DateTime(Option<String>),
    Date(Option<String>),
    Time(Option<String>),
    Null,
    Boolean,
    ContentType(String),
    /// Map values are matched against the example, keys are ignored.
    Values,
    ArrayContains(Vec<ArrayContainsVariant>),
    StatusCode(StatusClass),
    NotEmpty,
    Semver,
    /// Every key of the map satisfies these rules.
    EachKey(EachRules),
    /// Every value of the map (or item of the list) satisfies these rules.
    EachValue(EachRules),
}

impl MatchingRule {
    /// `type` without bounds.
    pub fn of_type() -> Self {
        MatchingRule::Type {
            min: None,
            max: None,
        }
    }

    /// A regex rule (full-match semantics). Fails on an invalid pattern.
    pub fn regex(pattern: &str) -> Result<Self, String> {
        PactRegex::new(pattern)
            .map(MatchingRule::Regex)
            .map_err(|e| e.to_string())
    }

    /// The V4 `match` name of this rule.
    pub fn name(&self) -> &'static str {
        match self {
            MatchingRule::Equality => "equality",
            MatchingRule::Regex(_) => "regex",
            MatchingRule::Type { .. } => "type",
            MatchingRule::Include(_) => "include",
            MatchingRule::Integer => "integer",
            MatchingRule::Decimal => "decimal",
            MatchingRule::Number => "number",
            MatchingRule::DateTime(_) => "datetime",
            MatchingRule::Date(_) => "date",
            MatchingRule::Time(_) => "time",
            MatchingRule::Null => "null",
            MatchingRule::Boolean => "boolean",
            MatchingRule::ContentType(_) => "contentType",
            MatchingRule::Values => "values",
            MatchingRule::ArrayContains(_) => "arrayContains",
            MatchingRule::StatusCode(_) => "statusCode",
            MatchingRule::NotEmpty => "notEmpty",
            MatchingRule::Semver => "semver",
            MatchingRule::EachKey(_) => "eachKey",
            MatchingRule::EachValue(_) => "eachValue",
        }
    }

    /// True for rules that constrain a list's size or its items as a whole.
    pub fn is_type_like(&self) -> bool {
        matches!(
            self,
            MatchingRule::Type { .. } | MatchingRule::Values | MatchingRule::EachValue(_)
        )
    }

    /// Reads one rule object (`{"match": "type", "min": 1}`, or the V2 forms
    /// without `match`: `{"regex": ".."}`, `{"min": 1}`).
    pub fn from_json(v: &Value) -> Result<Self, String> {
        let o = v.as_object().ok_or("a matching rule must be an object")?;
        let name = match o.get("match") {
            Some(Value::String(s)) => s.as_str(),
            Some(_) => return Err("'match' must be a string".into()),
            None => super::rule_read::implied_name(o).ok_or("a matching rule needs 'match'")?,
        };
        super::rule_read::parse_named(name, o)
    }

    /// The V4 JSON form of this rule.
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("match".into(), json!(self.name()));
        match self {
            MatchingRule::Regex(r) => {
                o.insert("regex".into(), json!(r.source()));
            }
            MatchingRule::Type { min, max } => {
                if let Some(m) = min {
                    o.insert("min".into(), json!(m));
                }
                if let Some(m) = max {
                    o.insert("max".into(), json!(m));
                }
            }
            MatchingRule::Include(s) | MatchingRule::ContentType(s) => {
                o.insert("value".into(), json!(s));
            }
            MatchingRule::DateTime(f) | MatchingRule::Date(f) | MatchingRule::Time(f) => {
                if let Some(f) = f {
                    o.insert("format".into(), json!(f));
                }
            }
            MatchingRule::ArrayContains(variants) => {
                o.insert("variants".into(), variants_json(variants));
            }
            MatchingRule::StatusCode(class) => {
                let status = match (class.name(), class) {
                    (Some(n), _) => json!(n),
                    (None, StatusClass::Codes(c)) => json!(c),
                    (None, _) => Value::Null,
                };
                o.insert("status".into(), status);
            }
            MatchingRule::EachKey(each) | MatchingRule::EachValue(each) => {
                let list: Vec<Value> = each.rules.iter().map(MatchingRule::to_json).collect();
                o.insert("rules".into(), Value::Array(list));
                if let Some(v) = &each.value {
                    o.insert("value".into(), v.clone());
                }
            }
            _ => {}
        }
        Value::Object(o)
    }
}

impl fmt::Display for MatchingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchingRule::Regex(r) => write!(f, "regex '{}'", r.source()),
            MatchingRule::Type {
                min: Some(a),
                max: Some(b),
            } => write!(f, "type (min {a}, max {b})"),
            MatchingRule::Type { min: Some(a), .. } => write!(f, "type (min {a})"),
            MatchingRule::Type { max: Some(b), .. } => write!(f, "type (max {b})"),
            MatchingRule::Include(s) => write!(f, "include '{s}'"),
            MatchingRule::DateTime(Some(p))
            | MatchingRule::Date(Some(p))
            | MatchingRule::Time(Some(p)) => write!(f, "{} '{p}'", self.name()),
            MatchingRule::ContentType(s) => write!(f, "contentType '{s}'"),
            other => f.write_str(other.name()),
        }
    }
}

fn variants_json(variants: &[ArrayContainsVariant]) -> Value {
    Value::Array(
        variants
            .iter()
            .map(|v| {
                let mut o = Map::new();
                o.insert("index".into(), json!(v.index));
                o.insert("rules".into(), v.rules.to_json());
                if let Some(g) = &v.generators {
                    o.insert("generators".into(), g.clone());
                }
                Value::Object(o)
            })
            .collect(),
    )
}

#[cfg(test)]
#[path = "rule_tests.rs"]
mod tests;
