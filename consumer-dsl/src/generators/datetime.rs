//! Pact's date/time expressions (`+ 1 day`, `tomorrow @ 10 o'clock`),
//! evaluated relative to a clock.

use chrono::{DateTime, Datelike, FixedOffset, Months, TimeDelta, Timelike, Weekday};

use crate::DslError;

fn expr_error(expression: &str, message: impl Into<String>) -> DslError {
    DslError::invalid("date/time expression", expression, message)
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
    if let Some(month) = month_number(unit) {
        let current = i64::from(at.month());
        let distance = if sign > 0 {
            month - current
        } else {
            current - month
        };
        let months = match distance.rem_euclid(12) {
            0 => 12,
            d => d,
        };
        return shift(at, sign, u32::try_from(months).ok()?, "month");
    }
    shift(at, sign, 1, unit)
}

fn month_number(name: &str) -> Option<i64> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let i = MONTHS.iter().position(|m| *m == name)?;
    i64::try_from(i + 1).ok()
}

/// Handles `N o'clock [am|pm]` at the start of a time part.
fn hour_of_day(
    tokens: &[Token],
    at: DateTime<FixedOffset>,
) -> Option<(DateTime<FixedOffset>, usize)> {
    let (Some(Token::Num(h)), Some(Token::Word(w))) = (tokens.first(), tokens.get(1)) else {
        return None;
    };
    let (meridiem, used) = match (w.as_str(), tokens.get(2)) {
        ("o'clock", Some(Token::Word(m))) if m == "am" || m == "pm" => (Some(m.as_str()), 3),
        ("o'clock", _) => (None, 2),
        ("am" | "pm", _) => (Some(w.as_str()), 2),
        _ => return None,
    };
    let hour = match meridiem {
        Some("am") => *h % 12,
        Some(_) => *h % 12 + 12,
        None => *h,
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
