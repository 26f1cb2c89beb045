//! Checking a generator before replay: can it produce a value at all?

use chrono::{TimeZone, Utc};
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::datetime::{parse_date_expression, parse_time_expression};
use super::generator::Generator;
use super::java_format::format_java;
use super::path;
use super::regex_gen::random_regex;
use crate::matching::java_regex_to_rust;

impl Generator {
    /// Why this generator can never produce a value (an unsupported regex,
    /// date pattern or expression, an empty range), or `None` when it can.
    pub fn problem(&self) -> Option<String> {
        let at = Utc.timestamp_opt(0, 0).single()?.fixed_offset();
        match self {
            Generator::Regex { regex } => {
                let mut rng = StdRng::seed_from_u64(0);
                random_regex(regex, &mut rng)
                    .is_none()
                    .then(|| format!("cannot generate a string for the regex '{regex}'"))
            }
            Generator::Date { format, expression }
            | Generator::Time { format, expression }
            | Generator::DateTime { format, expression } => {
                if let Some(f) = format
                    && let Err(e) = format_java(f, &at)
                {
                    return Some(format!("format '{f}': {e}"));
                }
                let is_time = matches!(self, Generator::Time { .. });
                let parsed = expression.as_deref().map(|e| {
                    let r = if is_time {
                        parse_time_expression(e, at)
                    } else {
                        parse_date_expression(e, at)
                    };
                    r.map(|_| ())
                        .map_err(|err| format!("expression '{e}': {err}"))
                });
                parsed.and_then(Result::err)
            }
            Generator::MockServerUrl { regex, .. } => regex::Regex::new(&java_regex_to_rust(regex))
                .err()
                .map(|e| format!("invalid regex '{regex}': {e}")),
            _ => None,
        }
    }
}

/// True when `key` is a body path generators can apply to.
pub fn is_valid_body_path(key: &str) -> bool {
    path::parse(key).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unusable_generators_say_why_and_usable_ones_do_not() {
        let bad = [
            Generator::Regex { regex: "(".into() },
            Generator::Date {
                format: Some("yyyy-qq".into()),
                expression: None,
            },
            Generator::DateTime {
                format: None,
                expression: Some("+ 1 eon".into()),
            },
            Generator::MockServerUrl {
                example: "x".into(),
                regex: "(".into(),
            },
        ];
        for g in bad {
            assert!(g.problem().is_some(), "{g:?}");
        }
        let good = [
            Generator::Regex {
                regex: "\\d+".into(),
            },
            Generator::Time {
                format: Some("HH:mm".into()),
                expression: Some("noon".into()),
            },
            Generator::RandomBoolean,
        ];
        for g in good {
            assert_eq!(g.problem(), None, "{g:?}");
        }
        assert!(is_valid_body_path("$.a[0]") && !is_valid_body_path("$..a"));
    }
}
