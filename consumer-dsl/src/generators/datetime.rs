//! Date and time generators: Java-style format patterns (`yyyy-MM-dd`) and
//! Pact's date/time expressions (`+ 1 day`, `tomorrow @ 10 o'clock`).

use chrono::{DateTime, Datelike, FixedOffset, Months, TimeDelta, Timelike, Weekday};

use crate::DslError;

fn expr_error(expression: &str, message: impl Into<String>) -> DslError {
    DslError::invalid("date/time expression", expression, message)
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
            let piece = field(c, run, at)
                .ok_or_else(|| expr_error(pattern, format!("unsupported pattern letter '{c}'")))?;
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
        let spec = match (c, n) {
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
            (c, _) if c.is_ascii_alphabetic() => {
                return Err(expr_error(
                    pattern,
                    format!("unsupported pattern letter '{c}'"),
                ));
            }
            (c, n) => {
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

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Plus,
    Minus,
    At,
    Num(u32),
    Word(String),
}

fn tokenize(expression: &str) -> Result<Vec<Token>, DslError> {
    let mut tokens = Vec::new();
    let mut chars = expression.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '+' | '-' | '@' => {
                chars.next();
                tokens.push(match c {
                    '+' => Token::Plus,
                    '-' => Token::Minus,
                    _ => Token::At,
                });
            }
            c if c.is_ascii_digit() => {
                let mut n: u32 = 0;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(d))
                        .ok_or_else(|| expr_error(expression, "number too large"))?;
                    chars.next();
                }
                tokens.push(Token::Num(n));
            }
            c if c.is_alphabetic() || c == '\'' => {
                let mut w = String::new();
                while let Some(&c) = chars.peek().filter(|c| c.is_alphabetic() || **c == '\'') {
                    w.push(c.to_ascii_lowercase());
                    chars.next();
                }
                tokens.push(Token::Word(w));
            }
            other => {
                return Err(expr_error(
                    expression,
                    format!("unexpected character '{other}'"),
                ));
            }
        }
    }
    Ok(tokens)
}

/// Evaluates a date or date-time expression (`now`, `today`, `tomorrow`,
/// `yesterday`, `+ 1 day`, `- 2 weeks`, `next month`, `last friday`, and an
/// optional `@ time` part such as `@ 10 o'clock`, `@ midnight`,
/// `@ now + 1 hour`) relative to `now`.
pub fn parse_date_expression(
    expression: &str,
    now: DateTime<FixedOffset>,
) -> Result<DateTime<FixedOffset>, DslError> {
    let tokens = tokenize(expression)?;
    let (date_part, time_part) = match tokens.iter().position(|t| *t == Token::At) {
        Some(i) => (&tokens[..i], Some(&tokens[i + 1..])),
        None => (&tokens[..], None),
    };
    let mut at = evaluate(date_part, now, expression, Part::Date)?;
    if let Some(time) = time_part {
        at = evaluate(time, at, expression, Part::Time)?;
    }
    Ok(at)
}

/// Evaluates a time expression (`now`, `midnight`, `noon`, `2 o'clock pm`,
/// `+ 1 hour`, `- 30 minutes`, `next hour`) relative to `now`.
pub fn parse_time_expression(
    expression: &str,
    now: DateTime<FixedOffset>,
) -> Result<DateTime<FixedOffset>, DslError> {
    let tokens = tokenize(expression)?;
    evaluate(&tokens, now, expression, Part::Time)
}

#[derive(Clone, Copy, PartialEq)]
enum Part {
    Date,
    Time,
}

fn evaluate(
    tokens: &[Token],
    start: DateTime<FixedOffset>,
    expression: &str,
    part: Part,
) -> Result<DateTime<FixedOffset>, DslError> {
    let err = |m: &str| expr_error(expression, m.to_string());
    let (mut at, mut i) = match base(tokens, start, part) {
        Some((based, used)) => (based, used),
        None => (start, 0),
    };
    while i < tokens.len() {
        let (sign, amount, unit) = match (&tokens[i], tokens.get(i + 1), tokens.get(i + 2)) {
            (Token::Plus, Some(Token::Num(n)), Some(Token::Word(u))) => (1, *n, u),
            (Token::Minus, Some(Token::Num(n)), Some(Token::Word(u))) => (-1, *n, u),
            (Token::Word(w), Some(Token::Word(u)), _) if w == "next" || w == "last" => {
                let sign = if w == "next" { 1 } else { -1 };
                at =
                    next_or_last(at, sign, u).ok_or_else(|| err("unknown unit after next/last"))?;
                i += 2;
                continue;
            }
            _ => {
                return Err(err(
                    "expected '+ N unit', '- N unit', 'next unit' or 'last unit'",
                ));
            }
        };
        at = shift(at, sign, amount, unit).ok_or_else(|| err("unknown unit or out of range"))?;
        i += 3;
    }
    Ok(at)
}

/// The base a part starts from (`now`, `tomorrow`, `noon`, `10 o'clock`),
/// with the number of tokens it used.
fn base(
    tokens: &[Token],
    at: DateTime<FixedOffset>,
    part: Part,
) -> Option<(DateTime<FixedOffset>, usize)> {
    if part == Part::Time
        && let Some(found) = hour_of_day(tokens, at)
    {
        return Some(found);
    }
    let Some(Token::Word(word)) = tokens.first() else {
        return None;
    };
    let day = |d: i64| at.checked_add_signed(TimeDelta::days(d));
    let time = |h: u32| {
        at.with_hour(h)?
            .with_minute(0)?
            .with_second(0)?
            .with_nanosecond(0)
    };
    let based = match (part, word.as_str()) {
        (_, "now") => Some(at),
        (Part::Date, "today") => Some(at),
        (Part::Date, "tomorrow") => day(1),
        (Part::Date, "yesterday") => day(-1),
        (Part::Time, "midnight") => time(0),
        (Part::Time, "noon") => time(12),
        _ => return None,
    };
    based.map(|b| (b, 1))
}

fn shift(
    at: DateTime<FixedOffset>,
    sign: i64,
    amount: u32,
    unit: &str,
) -> Option<DateTime<FixedOffset>> {
    let n = i64::from(amount) * sign;
    let unit = unit.strip_suffix('s').unwrap_or(unit);
    let months = |m: u32| {
        if sign > 0 {
            at.checked_add_months(Months::new(m))
        } else {
            at.checked_sub_months(Months::new(m))
        }
    };
    match unit {
        "day" => at.checked_add_signed(TimeDelta::try_days(n)?),
        "week" => at.checked_add_signed(TimeDelta::try_weeks(n)?),
        "fortnight" => at.checked_add_signed(TimeDelta::try_weeks(n.checked_mul(2)?)?),
        "month" => months(amount),
        "year" => months(amount.checked_mul(12)?),
        "hour" => at.checked_add_signed(TimeDelta::try_hours(n)?),
        "minute" => at.checked_add_signed(TimeDelta::try_minutes(n)?),
        "second" => at.checked_add_signed(TimeDelta::try_seconds(n)?),
        "millisecond" | "milli" => at.checked_add_signed(TimeDelta::try_milliseconds(n)?),
        _ => None,
    }
}

fn next_or_last(at: DateTime<FixedOffset>, sign: i64, unit: &str) -> Option<DateTime<FixedOffset>> {
    if let Ok(weekday) = unit.parse::<Weekday>() {
        let today = i64::from(at.weekday().num_days_from_monday());
        let target = i64::from(weekday.num_days_from_monday());
        let mut delta = (target - today).rem_euclid(7);
        if sign > 0 && delta == 0 {
            delta = 7;
        }
        if sign < 0 {
            delta = if delta == 0 { -7 } else { delta - 7 };
        }
        return at.checked_add_signed(TimeDelta::days(delta));
    }
    shift(at, sign, 1, unit)
}

/// Handles `N o'clock [am|pm]` at the start of a time part.
fn hour_of_day(
    tokens: &[Token],
    at: DateTime<FixedOffset>,
) -> Option<(DateTime<FixedOffset>, usize)> {
    let (Some(Token::Num(h)), Some(Token::Word(w))) = (tokens.first(), tokens.get(1)) else {
        return None;
    };
    if w != "o'clock" {
        return None;
    }
    let (hour, used) = match tokens.get(2) {
        Some(Token::Word(m)) if m == "am" => (*h % 12, 3),
        Some(Token::Word(m)) if m == "pm" => (*h % 12 + 12, 3),
        _ => (*h, 2),
    };
    let t = at
        .with_hour(hour)?
        .with_minute(0)?
        .with_second(0)?
        .with_nanosecond(0)?;
    Some((t, used))
}

#[cfg(test)]
#[path = "datetime_tests.rs"]
mod tests;
