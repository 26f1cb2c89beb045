//! Producing the value of one generator.

use chrono::{DateTime, FixedOffset, Utc};
use rand::Rng;
use rand::distr::{Alphanumeric, Distribution};
use serde_json::{Map, Value, json};

use super::datetime::{parse_date_expression, parse_time_expression};
use super::generator::{DataType, Generator, UuidFormat};
use super::java_format::format_java;
use super::regex_gen::random_regex;

/// Who the values are generated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GeneratorMode {
    /// The consumer side: the mock server builds responses. `MockServerURL`
    /// applies, `ProviderState` keeps the example.
    #[default]
    Consumer,
    /// The provider side: the verifier builds requests. `ProviderState`
    /// applies, `MockServerURL` keeps the example.
    Provider,
}

/// What generators may draw on besides randomness.
#[derive(Debug, Clone, Default)]
pub struct GeneratorContext {
    /// Values the provider-state change call returned (for `ProviderState`).
    pub provider_state_values: Map<String, Value>,
    /// Base URL of the running mock server (for `MockServerURL`).
    pub mock_server_url: Option<String>,
    pub mode: GeneratorMode,
    /// The clock for date/time generators; `None` means now.
    pub now: Option<DateTime<FixedOffset>>,
}

impl GeneratorContext {
    fn now(&self) -> DateTime<FixedOffset> {
        self.now.unwrap_or_else(|| Utc::now().fixed_offset())
    }
}

impl Generator {
    /// True when this generator applies in `mode`.
    pub fn applies_in(&self, mode: GeneratorMode) -> bool {
        match self {
            Generator::ProviderState { .. } => mode == GeneratorMode::Provider,
            Generator::MockServerUrl { .. } => mode == GeneratorMode::Consumer,
            _ => true,
        }
    }

    /// The generated value to put where `current` (the example) is, or
    /// `None` when the generator cannot produce one here (wrong mode, a
    /// missing provider-state value, an unusable regex or format) — the
    /// example then stays.
    pub fn generate(
        &self,
        current: &Value,
        ctx: &GeneratorContext,
        rng: &mut impl Rng,
    ) -> Option<Value> {
        if !self.applies_in(ctx.mode) {
            return None;
        }
        match self {
            Generator::Date { .. } | Generator::Time { .. } | Generator::DateTime { .. } => {
                self.generate_date_time(ctx).map(Value::String)
            }
            Generator::ProviderState {
                expression,
                data_type,
            } => provider_state_value(expression, data_type.unwrap_or_default(), ctx),
            Generator::MockServerUrl { example, regex } => {
                mock_server_url(example, regex, ctx.mock_server_url.as_deref()).map(Value::String)
            }
            _ => self.random_value(current.is_string(), rng),
        }
    }

    /// The random generators; numbers stay strings when the example is one.
    fn random_value(&self, keep_string: bool, rng: &mut impl Rng) -> Option<Value> {
        match self {
            Generator::RandomInt { min, max } => {
                let (lo, hi) = if min <= max {
                    (*min, *max)
                } else {
                    (*max, *min)
                };
                let n = rng.random_range(lo..=hi);
                Some(if keep_string {
                    json!(n.to_string())
                } else {
                    json!(n)
                })
            }
            Generator::RandomDecimal { digits } => {
                let text = random_decimal(*digits, rng);
                if keep_string {
                    return Some(json!(text));
                }
                text.parse::<f64>().ok().map(|f| json!(f))
            }
            Generator::RandomHexadecimal { digits } => Some(json!(random_hex(*digits, rng))),
            Generator::RandomString { size } => {
                let s: String = Alphanumeric
                    .sample_iter(&mut *rng)
                    .take(*size)
                    .map(char::from)
                    .collect();
                Some(json!(s))
            }
            Generator::Regex { regex } => random_regex(regex, rng).map(Value::String),
            Generator::Uuid { format } => Some(json!(random_uuid(format.unwrap_or_default(), rng))),
            Generator::RandomBoolean => Some(json!(rng.random_bool(0.5))),
            _ => None,
        }
    }

    fn generate_date_time(&self, ctx: &GeneratorContext) -> Option<String> {
        let now = ctx.now();
        let (format, expression, default_format) = match self {
            Generator::Date { format, expression } => (format, expression, "yyyy-MM-dd"),
            Generator::Time { format, expression } => (format, expression, "HH:mm:ss"),
            Generator::DateTime { format, expression } => {
                (format, expression, "yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            }
            _ => return None,
        };
        let at = match (self, expression.as_deref()) {
            (_, None) => now,
            (Generator::Time { .. }, Some(e)) => parse_time_expression(e, now).ok()?,
            (_, Some(e)) => parse_date_expression(e, now).ok()?,
        };
        format_java(format.as_deref().unwrap_or(default_format), &at).ok()
    }
}

fn random_decimal(digits: usize, rng: &mut impl Rng) -> String {
    let digits = digits.max(1);
    if digits == 1 {
        return rng.random_range(0..10).to_string();
    }
    let mut s: String = std::iter::once(char::from(b'0' + rng.random_range(1..10u8)))
        .chain((1..digits).map(|_| char::from(b'0' + rng.random_range(0..10u8))))
        .collect();
    let point = rng.random_range(1..digits);
    s.insert(point, '.');
    s
}

fn random_hex(digits: usize, rng: &mut impl Rng) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    (0..digits)
        .map(|_| char::from(HEX[rng.random_range(0..16usize)]))
        .collect()
}

fn random_uuid(format: UuidFormat, rng: &mut impl Rng) -> String {
    let id = uuid::Builder::from_random_bytes(rng.random()).into_uuid();
    match format {
        UuidFormat::Simple => id.simple().to_string(),
        UuidFormat::LowerCaseHyphenated => id.hyphenated().to_string(),
        UuidFormat::UpperCaseHyphenated => id.hyphenated().to_string().to_uppercase(),
        UuidFormat::Urn => id.urn().to_string(),
    }
}

/// Substitutes `${name}` in `expression` from the provider-state values. An
/// expression that is exactly one `${name}` keeps the value's JSON type.
fn provider_state_value(
    expression: &str,
    data_type: DataType,
    ctx: &GeneratorContext,
) -> Option<Value> {
    let values = &ctx.provider_state_values;
    let raw = match whole_placeholder(expression) {
        Some(name) => values.get(name)?.clone(),
        None => Value::String(substitute(expression, values)?),
    };
    convert(raw, data_type)
}

fn whole_placeholder(expression: &str) -> Option<&str> {
    let inner = expression.strip_prefix("${")?.strip_suffix('}')?;
    (!inner.contains(['{', '}', '$'])).then_some(inner.trim())
}

/// Replaces every `${name}` with its value (strings as they are, other
/// values as JSON); `${}` stands for nothing. `None` when a name has no
/// value or a brace is not closed (pact-reference `replace_expressions`).
fn substitute(expression: &str, values: &Map<String, Value>) -> Option<String> {
    let mut out = String::with_capacity(expression.len());
    let mut rest = expression;
    while let Some((before, after)) = rest.split_once("${") {
        out.push_str(before);
        let (name, tail) = after.split_once('}')?;
        let name = name.trim();
        if !name.is_empty() {
            match values.get(name)? {
                Value::String(s) => out.push_str(s),
                other => out.push_str(&other.to_string()),
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    Some(out)
}

/// Casts a provider-state value to the generator's `dataType`, as
/// pact-reference's `DataValue::as_json` does: null is 0 / 0.0 / false,
/// booleans are 1 / 0, decimals truncate to integers, numbers above 0 are
/// true; text is parsed.
fn convert(value: Value, data_type: DataType) -> Option<Value> {
    let number = |v: &Value| v.as_f64();
    Some(match (data_type, &value) {
        (DataType::Raw, _) => value,
        (DataType::String, Value::String(_)) => value,
        (DataType::String, other) => json!(other.to_string()),
        (DataType::Integer, Value::Null) => json!(0),
        (DataType::Integer, Value::Bool(b)) => json!(i64::from(*b)),
        (DataType::Integer, Value::Number(n)) if n.is_i64() || n.is_u64() => value,
        // Truncation toward zero is the documented intent of the cast.
        #[allow(clippy::cast_possible_truncation)]
        (DataType::Integer, Value::Number(n)) => json!(n.as_f64()?.trunc() as i64),
        (DataType::Integer, Value::String(s)) => json!(s.trim().parse::<i64>().ok()?),
        (DataType::Decimal | DataType::Float, Value::Null) => json!(0.0),
        (DataType::Decimal | DataType::Float, Value::Bool(b)) => json!(f64::from(u8::from(*b))),
        (DataType::Decimal | DataType::Float, Value::Number(_)) => json!(number(&value)?),
        (DataType::Decimal | DataType::Float, Value::String(s)) => {
            json!(s.trim().parse::<f64>().ok()?)
        }
        (DataType::Boolean, Value::Null) => json!(false),
        (DataType::Boolean, Value::Bool(_)) => value,
        (DataType::Boolean, Value::Number(_)) => json!(number(&value)? > 0.0),
        (DataType::Boolean, Value::String(s)) => json!(s.trim().parse::<bool>().ok()?),
        (_, Value::Array(_) | Value::Object(_)) => return None,
    })
}

/// Replaces the first match of `regex` in `example` with the mock
/// server's URL followed by the regex's first group, as pact-reference's
/// `replace_with_regex` does: example `http://1234:8080/a`, regex
/// `.*(/a)`, mock `http://somewhere.world` → `http://somewhere.world/a`.
/// Text outside the match stays; no match leaves the example as it is.
fn mock_server_url(example: &str, regex: &str, mock: Option<&str>) -> Option<String> {
    let mock = mock?.trim_end_matches('/');
    let re = regex::Regex::new(&crate::matching::java_regex_to_rust(regex)).ok()?;
    let replaced = re.replacen(example, 1, |caps: &regex::Captures<'_>| {
        let tail = caps.get(1).map_or("", |m| m.as_str());
        format!("{mock}{tail}")
    });
    Some(replaced.into_owned())
}

#[cfg(test)]
#[path = "generate_tests.rs"]
mod tests;
