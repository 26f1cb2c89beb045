//! One generator: its kinds and their Pact JSON form.

use serde_json::{Map, Value, json};

use crate::DslError;

/// The format of a generated UUID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UuidFormat {
    /// 32 lower-case hexadecimal digits, no hyphens.
    Simple,
    /// `xxxxxxxx-xxxx-…` in lower case (Pact's default).
    #[default]
    LowerCaseHyphenated,
    /// `XXXXXXXX-XXXX-…` in upper case.
    UpperCaseHyphenated,
    /// `urn:uuid:xxxxxxxx-…`.
    Urn,
}

impl UuidFormat {
    /// The name Pact writes in the `format` attribute.
    pub fn as_str(self) -> &'static str {
        match self {
            UuidFormat::Simple => "simple",
            UuidFormat::LowerCaseHyphenated => "lower-case-hyphenated",
            UuidFormat::UpperCaseHyphenated => "upper-case-hyphenated",
            UuidFormat::Urn => "URN",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        match s {
            "simple" => Some(UuidFormat::Simple),
            "lower-case-hyphenated" => Some(UuidFormat::LowerCaseHyphenated),
            "upper-case-hyphenated" => Some(UuidFormat::UpperCaseHyphenated),
            "URN" | "urn" => Some(UuidFormat::Urn),
            _ => None,
        }
    }
}

/// The JSON type a `ProviderState` generator's result is converted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DataType {
    /// Keep the value as the provider state returned it (Pact's default).
    #[default]
    Raw,
    String,
    Integer,
    Decimal,
    Float,
    Boolean,
}

impl DataType {
    /// The name Pact writes in the `dataType` attribute.
    pub fn as_str(self) -> &'static str {
        match self {
            DataType::Raw => "RAW",
            DataType::String => "STRING",
            DataType::Integer => "INTEGER",
            DataType::Decimal => "DECIMAL",
            DataType::Float => "FLOAT",
            DataType::Boolean => "BOOLEAN",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_uppercase().as_str() {
            "RAW" => Some(DataType::Raw),
            "STRING" => Some(DataType::String),
            "INTEGER" => Some(DataType::Integer),
            "DECIMAL" => Some(DataType::Decimal),
            "FLOAT" => Some(DataType::Float),
            "BOOLEAN" => Some(DataType::Boolean),
            _ => None,
        }
    }
}

/// A Pact generator: how a value is produced at replay time.
#[derive(Debug, Clone, PartialEq)]
pub enum Generator {
    /// An integer in `min..=max`.
    RandomInt { min: i64, max: i64 },
    /// A decimal number with this many digits.
    RandomDecimal { digits: usize },
    /// A string of this many hexadecimal digits.
    RandomHexadecimal { digits: usize },
    /// An alphanumeric string of this length.
    RandomString { size: usize },
    /// A string matching the regular expression.
    Regex { regex: String },
    /// A random UUID.
    Uuid { format: Option<UuidFormat> },
    /// A date: Java-style `format` (default `yyyy-MM-dd`), optional expression.
    Date {
        format: Option<String>,
        expression: Option<String>,
    },
    /// A time: Java-style `format` (default `HH:mm:ss`), optional expression.
    Time {
        format: Option<String>,
        expression: Option<String>,
    },
    /// A date-time: Java-style `format` (default ISO 8601), optional expression.
    DateTime {
        format: Option<String>,
        expression: Option<String>,
    },
    /// `true` or `false`.
    RandomBoolean,
    /// A value taken from what the provider-state call returned (`${name}`).
    ProviderState {
        expression: String,
        data_type: Option<DataType>,
    },
    /// The example URL with its base replaced by the mock server's URL.
    MockServerUrl { example: String, regex: String },
}

impl Generator {
    /// The Pact `type` name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Generator::RandomInt { .. } => "RandomInt",
            Generator::RandomDecimal { .. } => "RandomDecimal",
            Generator::RandomHexadecimal { .. } => "RandomHexadecimal",
            Generator::RandomString { .. } => "RandomString",
            Generator::Regex { .. } => "Regex",
            Generator::Uuid { .. } => "Uuid",
            Generator::Date { .. } => "Date",
            Generator::Time { .. } => "Time",
            Generator::DateTime { .. } => "DateTime",
            Generator::RandomBoolean => "RandomBoolean",
            Generator::ProviderState { .. } => "ProviderState",
            Generator::MockServerUrl { .. } => "MockServerURL",
        }
    }

    /// Parses one generator object (`{"type": "RandomInt", "min": 0, …}`);
    /// `path` names it in errors.
    pub fn from_json(value: &Value, origin: &str, path: &str) -> Result<Self, DslError> {
        let obj = value
            .as_object()
            .ok_or_else(|| DslError::invalid(origin, path, "a generator must be an object"))?;
        let f = Fields { obj, origin, path };
        let kind = f.req_str("type")?;
        Ok(match kind {
            "RandomInt" => Generator::RandomInt {
                min: f.opt_int("min")?.unwrap_or(0),
                max: f.opt_int("max")?.unwrap_or(10),
            },
            "RandomDecimal" => Generator::RandomDecimal {
                digits: f.opt_size("digits")?.unwrap_or(10),
            },
            "RandomHexadecimal" => Generator::RandomHexadecimal {
                digits: f.opt_size("digits")?.unwrap_or(10),
            },
            "RandomString" => Generator::RandomString {
                size: f.opt_size("size")?.unwrap_or(10),
            },
            "Regex" => Generator::Regex {
                regex: f.req_str("regex")?.to_string(),
            },
            "Uuid" => Generator::Uuid {
                format: f.opt_uuid_format()?,
            },
            "Date" => Generator::Date {
                format: f.opt_string("format")?,
                expression: f.opt_string("expression")?,
            },
            "Time" => Generator::Time {
                format: f.opt_string("format")?,
                expression: f.opt_string("expression")?,
            },
            "DateTime" | "Timestamp" => Generator::DateTime {
                format: f.opt_string("format")?,
                expression: f.opt_string("expression")?,
            },
            "RandomBoolean" => Generator::RandomBoolean,
            "ProviderState" => Generator::ProviderState {
                expression: f.req_str("expression")?.to_string(),
                data_type: f.opt_data_type()?,
            },
            "MockServerURL" => Generator::MockServerUrl {
                example: f.req_str("example")?.to_string(),
                regex: f.req_str("regex")?.to_string(),
            },
            other => return Err(f.err(format!("unknown generator type '{other}'"))),
        })
    }

    /// The Pact JSON form (`{"type": …, …}`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), json!(self.type_name()));
        let mut put = |k: &str, v: Value| {
            m.insert(k.into(), v);
        };
        match self {
            Generator::RandomInt { min, max } => {
                put("min", json!(min));
                put("max", json!(max));
            }
            Generator::RandomDecimal { digits } | Generator::RandomHexadecimal { digits } => {
                put("digits", json!(digits));
            }
            Generator::RandomString { size } => put("size", json!(size)),
            Generator::Regex { regex } => put("regex", json!(regex)),
            Generator::Uuid { format } => {
                if let Some(f) = format {
                    put("format", json!(f.as_str()));
                }
            }
            Generator::Date { format, expression }
            | Generator::Time { format, expression }
            | Generator::DateTime { format, expression } => {
                if let Some(f) = format {
                    put("format", json!(f));
                }
                if let Some(e) = expression {
                    put("expression", json!(e));
                }
            }
            Generator::RandomBoolean => {}
            Generator::ProviderState {
                expression,
                data_type,
            } => {
                put("expression", json!(expression));
                if let Some(d) = data_type {
                    put("dataType", json!(d.as_str()));
                }
            }
            Generator::MockServerUrl { example, regex } => {
                put("example", json!(example));
                put("regex", json!(regex));
            }
        }
        Value::Object(m)
    }
}

/// Typed access to the attributes of one generator object.
struct Fields<'a> {
    obj: &'a Map<String, Value>,
    origin: &'a str,
    path: &'a str,
}

impl Fields<'_> {
    fn err(&self, message: String) -> DslError {
        DslError::invalid(self.origin, self.path, message)
    }

    fn req_str(&self, key: &str) -> Result<&str, DslError> {
        match self.obj.get(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(self.err(format!("'{key}': expected a string, found {other}"))),
            None => Err(self.err(format!("'{key}' is required"))),
        }
    }

    fn opt_string(&self, key: &str) -> Result<Option<String>, DslError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.req_str(key).map(|s| Some(s.to_string())),
        }
    }

    /// Pact writes numbers, but some tools write them as strings.
    fn opt_int(&self, key: &str) -> Result<Option<i64>, DslError> {
        let found = |v: &Value| self.err(format!("'{key}': expected an integer, found {v}"));
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n.as_i64().map(Some).ok_or_else(|| found(&json!(n))),
            Some(Value::String(s)) => s.trim().parse().map(Some).map_err(|_| found(&json!(s))),
            Some(other) => Err(found(other)),
        }
    }

    fn opt_size(&self, key: &str) -> Result<Option<usize>, DslError> {
        match self.opt_int(key)? {
            None => Ok(None),
            Some(n) if (0..=MAX_SIZE).contains(&n) => Ok(usize::try_from(n).ok()),
            Some(n) => Err(self.err(format!("'{key}': {n} is not in 0..={MAX_SIZE}"))),
        }
    }

    fn opt_uuid_format(&self) -> Result<Option<UuidFormat>, DslError> {
        match self.opt_string("format")? {
            None => Ok(None),
            Some(s) => UuidFormat::parse(&s).map(Some).ok_or_else(|| {
                self.err(format!(
                    "'format': unknown UUID format '{s}' (simple, lower-case-hyphenated, upper-case-hyphenated or URN)"
                ))
            }),
        }
    }

    fn opt_data_type(&self) -> Result<Option<DataType>, DslError> {
        match self.opt_string("dataType")? {
            None => Ok(None),
            Some(s) => DataType::parse(&s)
                .map(Some)
                .ok_or_else(|| self.err(format!("'dataType': unknown data type '{s}'"))),
        }
    }
}

/// Upper bound on `digits`/`size`: a contract cannot ask for gigabytes.
const MAX_SIZE: i64 = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generator_kind_survives_a_json_round_trip() {
        let cases = [
            json!({"type": "RandomInt", "min": 1, "max": 10}),
            json!({"type": "RandomDecimal", "digits": 4}),
            json!({"type": "RandomHexadecimal", "digits": 8}),
            json!({"type": "RandomString", "size": 5}),
            json!({"type": "Regex", "regex": "\\d+"}),
            json!({"type": "Uuid"}),
            json!({"type": "Uuid", "format": "URN"}),
            json!({"type": "Date", "format": "yyyy-MM-dd", "expression": "+ 1 day"}),
            json!({"type": "Time", "format": "HH:mm"}),
            json!({"type": "DateTime"}),
            json!({"type": "RandomBoolean"}),
            json!({"type": "ProviderState", "expression": "${id}", "dataType": "INTEGER"}),
            json!({"type": "MockServerURL", "example": "http://x/a", "regex": ".*(/a)"}),
        ];
        for case in cases {
            let g = Generator::from_json(&case, "t", "$").expect("valid generator");
            assert_eq!(g.to_json(), case);
        }
    }

    #[test]
    fn numeric_attributes_written_as_strings_are_accepted() {
        let g = Generator::from_json(
            &json!({"type": "RandomInt", "min": "2", "max": "5"}),
            "t",
            "$",
        );
        assert_eq!(g.ok(), Some(Generator::RandomInt { min: 2, max: 5 }));
    }

    #[test]
    fn unknown_type_and_missing_attributes_are_errors_naming_the_path() {
        let e = Generator::from_json(&json!({"type": "Nope"}), "f.json", "$.x")
            .expect_err("must be refused");
        assert!(e.to_string().contains("$.x") && e.to_string().contains("Nope"));
        let e = Generator::from_json(&json!({"type": "Regex"}), "f.json", "$.y")
            .expect_err("must be refused");
        assert!(e.to_string().contains("'regex' is required"));
        let e = Generator::from_json(&json!({"type": "RandomString", "size": -1}), "f", "$");
        assert!(e.is_err());
    }
}
