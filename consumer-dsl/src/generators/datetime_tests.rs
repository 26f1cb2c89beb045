use super::*;
use crate::generators::java_format::{format_java, java_to_chrono_format};
use chrono::DateTime;

fn at(s: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(s).expect("test time")
}

#[test]
fn java_patterns_format_like_java() {
    let t = at("2026-03-04T05:06:07.089+02:00");
    let table = [
        ("yyyy-MM-dd", "2026-03-04"),
        ("yy/M/d", "26/3/4"),
        ("HH:mm:ss", "05:06:07"),
        (
            "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
            "2026-03-04T05:06:07.089+02:00",
        ),
        ("EEE, dd MMM yyyy", "Wed, 04 Mar 2026"),
        ("h 'o''clock' a", "5 o'clock AM"),
        ("Z", "+0200"),
    ];
    for (pattern, expected) in table {
        assert_eq!(
            format_java(pattern, &t).ok().as_deref(),
            Some(expected),
            "{pattern}"
        );
    }
    assert_eq!(
        format_java("X", &at("2026-03-04T05:06:07Z"))
            .ok()
            .as_deref(),
        Some("Z")
    );
    assert!(format_java("yyyy-qq", &t).is_err());
}

#[test]
fn java_patterns_translate_to_chrono_formats() {
    assert_eq!(
        java_to_chrono_format("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            .ok()
            .as_deref(),
        Some("%Y-%m-%dT%H:%M:%S.%3f%:z")
    );
    assert_eq!(
        java_to_chrono_format("'100%' d").ok().as_deref(),
        Some("100%% %-d")
    );
    assert!(java_to_chrono_format("Q").is_err());
}

#[test]
fn date_expressions_shift_from_now() {
    let now = at("2026-01-31T10:30:00Z");
    let table = [
        ("now", "2026-01-31T10:30:00+00:00"),
        ("today", "2026-01-31T10:30:00+00:00"),
        ("tomorrow", "2026-02-01T10:30:00+00:00"),
        ("yesterday", "2026-01-30T10:30:00+00:00"),
        ("+ 1 day", "2026-02-01T10:30:00+00:00"),
        ("+1 month", "2026-02-28T10:30:00+00:00"),
        ("today - 2 weeks", "2026-01-17T10:30:00+00:00"),
        ("next year", "2027-01-31T10:30:00+00:00"),
        ("last fortnight", "2026-01-17T10:30:00+00:00"),
        ("next monday", "2026-02-02T10:30:00+00:00"),
        ("last saturday", "2026-01-24T10:30:00+00:00"),
        ("tomorrow @ 10 o'clock", "2026-02-01T10:00:00+00:00"),
        ("today @ 2 o'clock pm", "2026-01-31T14:00:00+00:00"),
        ("@ midnight", "2026-01-31T00:00:00+00:00"),
        ("+ 2 days @ noon + 30 minutes", "2026-02-02T12:30:00+00:00"),
        ("now + 1 hour", "2026-01-31T11:30:00+00:00"),
        ("next march", "2026-03-31T10:30:00+00:00"),
        ("next january", "2027-01-31T10:30:00+00:00"),
        ("last december", "2025-12-31T10:30:00+00:00"),
        ("last january", "2025-01-31T10:30:00+00:00"),
        ("tomorrow @ 3 pm", "2026-02-01T15:00:00+00:00"),
        ("@ 12 o'clock am", "2026-01-31T00:00:00+00:00"),
    ];
    for (expr, expected) in table {
        let got = parse_date_expression(expr, now).map(|d| d.to_rfc3339());
        assert_eq!(got.ok().as_deref(), Some(expected), "{expr}");
    }
}

#[test]
fn time_expressions_shift_the_time_of_day() {
    let now = at("2026-01-31T10:30:00Z");
    let got = parse_time_expression("midnight + 90 minutes", now).map(|d| d.to_rfc3339());
    assert_eq!(got.ok().as_deref(), Some("2026-01-31T01:30:00+00:00"));
    let got = parse_time_expression("next hour", now).map(|d| d.to_rfc3339());
    assert_eq!(got.ok().as_deref(), Some("2026-01-31T11:30:00+00:00"));
}

#[test]
fn bad_expressions_are_errors_not_panics() {
    let now = at("2026-01-31T10:30:00Z");
    for expr in [
        "+ 1 eon",
        "soon",
        "+ 99999999999 days",
        "+ 4000000000 years",
        "- 1",
        "@ @",
        "next",
    ] {
        assert!(parse_date_expression(expr, now).is_err(), "{expr}");
    }
}

proptest::proptest! {
    #[test]
    fn no_expression_or_pattern_makes_the_date_generator_panic(
        text in "[-+@ 0-9a-zA-Z'%.:]{0,30}",
    ) {
        let now = at("2026-01-31T10:30:00Z");
        let _ = parse_date_expression(&text, now);
        let _ = parse_time_expression(&text, now);
        let _ = format_java(&text, &now);
        let _ = java_to_chrono_format(&text);
    }
}

#[test]
fn generated_dates_and_times_satisfy_the_rule_of_the_same_format() {
    // A DateTime/Date/Time generator's value must pass the datetime/date/
    // time rule with the same pattern (what a provider is verified with).
    use crate::matching::{MatchingRules, match_json};
    use serde_json::json;
    let t = at("2026-03-04T05:06:07.089+02:00");
    let rows = [
        ("DateTime", "datetime", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"),
        ("DateTime", "datetime", "yyyy-MM-dd'T'HH:mm:ssZ"),
        ("DateTime", "datetime", "EEE, dd MMM yyyy HH:mm:ss Z"),
        ("DateTime", "datetime", "yyyy-MM-dd HH:mm:ss.SSS"),
        ("Date", "date", "yyyy-MM-dd"),
        ("Date", "date", "dd/MM/yy"),
        ("Time", "time", "HH:mm:ss"),
        ("Time", "time", "hh:mm a"),
    ];
    for (generator, rule, format) in rows {
        let g = crate::generators::Generator::from_json(
            &json!({"type": generator, "format": format}),
            "t",
            "$",
        )
        .expect("valid generator");
        let ctx = crate::generators::GeneratorContext {
            now: Some(t),
            ..Default::default()
        };
        let value = g
            .generate(&json!(""), &ctx, &mut rand::rng())
            .expect("a value");
        let rules = MatchingRules::from_pact_json(
            &json!({"body": {"$": {"matchers": [{"match": rule, "format": format}]}}}),
            crate::model::PactSpec::V4,
        )
        .expect("valid rules");
        let body = rules.body().cloned().unwrap_or_default();
        let m = match_json(&json!("example"), &value, &body, false);
        assert!(m.is_empty(), "{format}: {value} {m:?}");
    }
}
