//! Java-style date/time format patterns (`yyyy-MM-dd'T'HH:mm:ss.SSSXXX`),
//! as Pact's date/time generators and matchers write them.

use chrono::{DateTime, Datelike, FixedOffset, Timelike};

use crate::DslError;

fn pattern_error(pattern: &str, message: String) -> DslError {
    DslError::invalid("date/time pattern", pattern, message)
}

/// Formats `at` with a Java `DateTimeFormatter`/`SimpleDateFormat` pattern
/// (`yyyy-MM-dd'T'HH:mm:ss.SSSXXX`). Unknown pattern letters are an error.
pub fn format_java(pattern: &str, at: &DateTime<FixedOffset>) -> Result<String, DslError> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c == '\'' {
            i = quoted_literal(&chars, i + 1, &mut out);
            continue;
        }
        let run = chars[i..].iter().take_while(|&&x| x == c).count();
        i += run;
        if c.is_ascii_alphabetic() {
            let piece = field(c, run, at).ok_or_else(|| {
                pattern_error(pattern, format!("unsupported pattern letter '{c}'"))
            })?;
            out.push_str(&piece);
        } else {
            out.extend(std::iter::repeat_n(c, run));
        }
    }
    Ok(out)
}

/// Copies a quoted literal starting after its opening quote; `''` is a quote.
fn quoted_literal(chars: &[char], mut i: usize, out: &mut String) -> usize {
    if chars.get(i) == Some(&'\'') {
        out.push('\'');
        return i + 1;
    }
    while let Some(&c) = chars.get(i) {
        if c == '\'' {
            if chars.get(i + 1) == Some(&'\'') {
                out.push('\'');
                i += 2;
                continue;
            }
            return i + 1;
        }
        out.push(c);
        i += 1;
    }
    i
}

fn pad(n: i64, width: usize) -> String {
    format!("{n:0width$}")
}

/// One run of a pattern letter, formatted.
fn field(c: char, n: usize, at: &DateTime<FixedOffset>) -> Option<String> {
    let hour12 = i64::from((at.hour() + 11) % 12 + 1);
    Some(match c {
        'y' | 'u' | 'Y' if n == 2 => pad(i64::from(at.year().rem_euclid(100)), 2),
        'y' | 'u' | 'Y' => pad(i64::from(at.year()), n),
        'M' | 'L' if n >= 4 => at.format("%B").to_string(),
        'M' | 'L' if n == 3 => at.format("%b").to_string(),
        'M' | 'L' => pad(i64::from(at.month()), n),
        'd' => pad(i64::from(at.day()), n),
        'D' => pad(i64::from(at.ordinal()), n),
        'E' if n >= 4 => at.format("%A").to_string(),
        'E' => at.format("%a").to_string(),
        'a' => at.format("%p").to_string(),
        'H' => pad(i64::from(at.hour()), n),
        'k' => pad(i64::from(if at.hour() == 0 { 24 } else { at.hour() }), n),
        'h' => pad(hour12, n),
        'K' => pad(i64::from(at.hour() % 12), n),
        'm' => pad(i64::from(at.minute()), n),
        's' => pad(i64::from(at.second()), n),
        'S' => format!("{:09}", at.nanosecond() % 1_000_000_000)
            .chars()
            .take(n.min(9))
            .collect(),
        'Z' => at.format("%z").to_string(),
        'X' if at.offset().local_minus_utc() == 0 => "Z".into(),
        'X' | 'x' | 'z' | 'O' => offset(n, at),
        _ => return None,
    })
}

fn offset(n: usize, at: &DateTime<FixedOffset>) -> String {
    match n {
        1 => at.format("%z").to_string().chars().take(3).collect(),
        2 => at.format("%z").to_string(),
        _ => at.format("%:z").to_string(),
    }
}

/// The chrono format string for a Java pattern, for callers that format
/// themselves. Fractions other than 3, 6 or 9 digits round up to the next.
pub fn java_to_chrono_format(pattern: &str) -> Result<String, DslError> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c == '\'' {
            let mut lit = String::new();
            i = quoted_literal(&chars, i + 1, &mut lit);
            out.push_str(&lit.replace('%', "%%"));
            continue;
        }
        let n = chars[i..].iter().take_while(|&&x| x == c).count();
        i += n;
        let spec = match chrono_spec(c, n) {
            Some(spec) => spec,
            None if c.is_ascii_alphabetic() => {
                return Err(pattern_error(
                    pattern,
                    format!("unsupported pattern letter '{c}'"),
                ));
            }
            None => {
                out.extend(std::iter::repeat_n(c, n));
                continue;
            }
        };
        for _ in 0..(if c == '%' { n } else { 1 }) {
            out.push_str(spec);
        }
    }
    Ok(out)
}

/// The chrono specifier for a run of `n` pattern letters `c`.
fn chrono_spec(c: char, n: usize) -> Option<&'static str> {
    Some(match (c, n) {
        ('y' | 'u', 2) => "%y",
        ('y' | 'u', _) => "%Y",
        ('M', 1) => "%-m",
        ('M', 2) => "%m",
        ('M', 3) => "%b",
        ('M', _) => "%B",
        ('d', 1) => "%-d",
        ('d', _) => "%d",
        ('D', _) => "%j",
        ('E', 1..=3) => "%a",
        ('E', _) => "%A",
        ('a', _) => "%p",
        ('H', 1) => "%-H",
        ('H', _) => "%H",
        ('h', 1) => "%-I",
        ('h', _) => "%I",
        ('m', 1) => "%-M",
        ('m', _) => "%M",
        ('s', 1) => "%-S",
        ('s', _) => "%S",
        ('S', 1..=3) => "%3f",
        ('S', 4..=6) => "%6f",
        ('S', _) => "%9f",
        ('Z', _) | ('X' | 'x', 1..=2) => "%z",
        ('X' | 'x' | 'z', _) => "%:z",
        ('%', _) => "%%",
        _ => return None,
    })
}
