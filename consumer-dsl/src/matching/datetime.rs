//! Java date/time patterns (`yyyy-MM-dd'T'HH:mm:ss.SSSX`, as Pact's
//! datetime, date and time rules use) checked with chrono.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use chrono::format::{Item, Parsed, StrftimeItems, parse};

/// What kind of value a rule without a pattern expects (ISO 8601).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Temporal {
    DateTime,
    Date,
    Time,
}

/// True when `text` is a valid value for the Java `pattern`, or, without a
/// pattern, an ISO 8601 date-time, date or time.
pub fn is_valid(text: &str, pattern: Option<&str>, kind: Temporal) -> bool {
    match pattern {
        Some(p) => {
            let compiled = compiled(p);
            let Some((items, zulu)) = compiled.as_ref() else {
                return false; // a pattern chrono cannot read matches nothing
            };
            let text = if *zulu {
                normalise_zulu(text)
            } else {
                text.into()
            };
            parse(&mut Parsed::new(), &text, items.iter()).is_ok()
        }
        None => match kind {
            Temporal::DateTime => {
                chrono::DateTime::parse_from_rfc3339(text).is_ok()
                    || parses(text, "%Y-%m-%dT%H:%M:%S%.f")
                    || parses(&normalise_zulu(text), "%Y-%m-%dT%H:%M:%S%.f%:z")
            }
            Temporal::Date => parses(text, "%Y-%m-%d"),
            Temporal::Time => parses(text, "%H:%M:%S%.f") || parses(text, "%H:%M"),
        },
    }
}

/// A Java pattern translated and parsed, with its `X` flag; `None` when
/// chrono cannot read the translation.
type Compiled = Option<(Vec<Item<'static>>, bool)>;

/// Patterns longer than this are translated at each use, not kept.
const MAX_KEPT_PATTERN: usize = 256;
/// Patterns kept per thread; past it the cache starts over.
const MAX_KEPT_PATTERNS: usize = 256;

thread_local! {
    /// A rule checks every value of a list with one pattern: it is
    /// translated and parsed once per thread, not once per value.
    static COMPILED: RefCell<HashMap<String, Rc<Compiled>>> = RefCell::new(HashMap::new());
}

fn compiled(pattern: &str) -> Rc<Compiled> {
    let compile = || {
        let (fmt, zulu) = translate(pattern);
        let items = StrftimeItems::new(&fmt).parse_to_owned().ok();
        Rc::new(items.map(|items| (items, zulu)))
    };
    if pattern.len() > MAX_KEPT_PATTERN {
        return compile();
    }
    COMPILED.with(|cache| {
        if let Some(kept) = cache.borrow().get(pattern) {
            return kept.clone();
        }
        let made = compile();
        let mut cache = cache.borrow_mut();
        if cache.len() >= MAX_KEPT_PATTERNS {
            cache.clear();
        }
        cache.insert(pattern.to_string(), made.clone());
        made
    })
}

fn parses(text: &str, fmt: &str) -> bool {
    let mut parsed = Parsed::new();
    parse(&mut parsed, text, StrftimeItems::new(fmt)).is_ok()
}

/// `Z` as an offset is `+00:00` for chrono.
fn normalise_zulu(text: &str) -> Cow<'_, str> {
    match text.strip_suffix('Z') {
        Some(head) => format!("{head}+00:00").into(),
        None => text.into(),
    }
}

/// Translates a Java pattern to a chrono format. The flag says whether an
/// ISO offset (`X`) that may be written `Z` is present.
fn translate(pattern: &str) -> (String, bool) {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut zulu = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let run = chars
            .get(i..)
            .map_or(0, |r| r.iter().take_while(|&&x| x == c).count());
        if c == '\'' {
            i += quoted(&chars, i, &mut out);
            continue;
        }
        if c.is_ascii_alphabetic() {
            if c == 'X' || c == 'x' {
                zulu |= c == 'X';
            }
            match field(c, run) {
                Some(f) => out.push_str(f),
                // Java refuses unknown letters; here they must appear as written.
                None => (0..run).for_each(|_| out.push(c)),
            }
            i += run;
            continue;
        }
        if c == '%' {
            out.push_str("%%");
        } else {
            out.push(c);
        }
        i += 1;
    }
    (out, zulu)
}

/// Copies a quoted literal starting at `start`; returns chars consumed.
fn quoted(chars: &[char], start: usize, out: &mut String) -> usize {
    if chars.get(start + 1) == Some(&'\'') {
        out.push('\'');
        return 2;
    }
    let mut i = start + 1;
    while let Some(&c) = chars.get(i) {
        i += 1;
        if c == '\'' {
            if chars.get(i) == Some(&'\'') {
                out.push('\'');
                i += 1;
                continue;
            }
            return i - start;
        }
        if c == '%' {
            out.push_str("%%");
        } else {
            out.push(c);
        }
    }
    i - start
}

fn field(c: char, run: usize) -> Option<&'static str> {
    Some(match (c, run) {
        ('y' | 'u' | 'Y', 2) => "%y",
        ('y' | 'u' | 'Y', _) => "%Y",
        ('M' | 'L', 1 | 2) => "%m",
        ('M' | 'L', 3) => "%b",
        ('M' | 'L', _) => "%B",
        ('d', _) => "%d",
        ('D', _) => "%j",
        ('H' | 'k', _) => "%H",
        ('h' | 'K', _) => "%I",
        ('m', _) => "%M",
        ('s', _) => "%S",
        ('S', _) => "%f",
        ('n', _) => "%f",
        ('a', _) => "%p",
        ('E', 1..=3) => "%a",
        ('E', _) => "%A",
        ('e', _) => "%u",
        ('z', _) => "%Z",
        ('Z', _) => "%z",
        ('X' | 'x', 1 | 2) => "%z",
        ('X' | 'x', _) => "%:z",
        ('V', _) => "%Z",
        ('w', _) => "%U",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_patterns_validate_like_pact() {
        let table = [
            ("2015-06-10T20:41:37", Some("yyyy-MM-dd'T'HH:mm:ss"), true),
            ("2015-06-10 20:41:37", Some("yyyy-MM-dd'T'HH:mm:ss"), false),
            (
                "2015-06-10T20:41:37.123Z",
                Some("yyyy-MM-dd'T'HH:mm:ss.SSSX"),
                true,
            ),
            (
                "2015-06-10T20:41:37.123+02:00",
                Some("yyyy-MM-dd'T'HH:mm:ss.SSSXXX"),
                true,
            ),
            ("10/06/2015", Some("dd/MM/yyyy"), true),
            ("31/13/2015", Some("dd/MM/yyyy"), false),
            ("12:30", Some("HH:mm"), true),
            ("25:30", Some("HH:mm"), false),
            ("Wed, 4 Jul 2001", Some("EEE, d MMM yyyy"), true),
            ("it's 2020", Some("'it''s' yyyy"), true),
            ("2020-01-02T10", Some("yyyy-MM-ddTHH"), true),
            ("2020-01-0210", Some("yyyy-MM-ddTHH"), false),
            // RFC 822 offsets (`Z`), fractions (`SSS`), day names (`EEE`),
            // zone names (`z`), 12-hour clocks (`hh a`): the patterns of
            // pact-jvm's and pact-reference's own tests.
            (
                "2015-06-10T20:41:37.123+0200",
                Some("yyyy-MM-dd'T'HH:mm:ss.SSSZ"),
                true,
            ),
            (
                "2015-06-10T20:41:37.123+02:00",
                Some("yyyy-MM-dd'T'HH:mm:ss.SSSXXX"),
                true,
            ),
            (
                "2015-06-10T20:41:37Z",
                Some("yyyy-MM-dd'T'HH:mm:ssXXX"),
                true,
            ),
            (
                "2015-06-10T20:41:37",
                Some("yyyy-MM-dd'T'HH:mm:ssXXX"),
                false,
            ),
            (
                "Wed Jun 10 20:41:37 PDT 2015",
                Some("EEE MMM dd HH:mm:ss z yyyy"),
                true,
            ),
            ("Wednesday, 10 June 2015", Some("EEEE, d MMMM yyyy"), true),
            ("08:41 PM", Some("hh:mm a"), true),
            ("20:41:37.123", Some("HH:mm:ss.SSS"), true),
            ("20:41:37.", Some("HH:mm:ss.SSS"), false),
        ];
        for (text, pattern, ok) in table {
            let kind = Temporal::DateTime;
            assert_eq!(is_valid(text, pattern, kind), ok, "{text} ~ {pattern:?}");
        }
    }

    #[test]
    fn iso_defaults_apply_without_a_pattern() {
        assert!(is_valid("2020-01-02T03:04:05Z", None, Temporal::DateTime));
        assert!(is_valid("2020-01-02T03:04:05.5", None, Temporal::DateTime));
        assert!(!is_valid("2020-01-02", None, Temporal::DateTime));
        assert!(is_valid("2020-01-02", None, Temporal::Date));
        assert!(!is_valid("2020-13-02", None, Temporal::Date));
        assert!(is_valid("03:04:05", None, Temporal::Time));
        assert!(!is_valid("3 o'clock", None, Temporal::Time));
    }

    #[test]
    fn patterns_past_the_kept_bounds_validate_as_the_first_ones() {
        // more patterns than a thread keeps: the cache starts over
        for n in 0..MAX_KEPT_PATTERNS + 10 {
            let pattern = format!("yyyy-MM-dd'-{n}'");
            assert!(is_valid(
                &format!("2024-01-02-{n}"),
                Some(&pattern),
                Temporal::Date
            ));
            assert!(!is_valid(
                &format!("2024-13-02-{n}"),
                Some(&pattern),
                Temporal::Date
            ));
        }
        // and a pattern too long to keep, used twice
        let literal = "a".repeat(MAX_KEPT_PATTERN + 1);
        let pattern = format!("'{literal}'yyyy");
        for _ in 0..2 {
            assert!(is_valid(
                &format!("{literal}2024"),
                Some(&pattern),
                Temporal::Date
            ));
            assert!(!is_valid("2024", Some(&pattern), Temporal::Date));
        }
    }
}
