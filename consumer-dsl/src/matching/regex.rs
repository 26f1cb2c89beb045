//! Pact regexes: Java-style patterns that must match the whole value.
//!
//! Compiled once when the rule is read. `fancy-regex` accepts look-around
//! and back-references (Java has them) and hands plain patterns to the
//! fast `regex` engine.
//!
//! Hostile patterns are bounded: backtracking stops after
//! [`BACKTRACK_LIMIT`] steps (the value then counts as not matching), the
//! backtracking program and the delegated automata have size caps, and a
//! pattern must be valid on its own before it is anchored, so `a)|(b`
//! cannot escape the full-match anchors.

use std::sync::Arc;

/// Backtracking steps one match may take (fancy-regex's own default,
/// pinned here so an upgrade cannot silently lift it).
pub const BACKTRACK_LIMIT: usize = 1_000_000;
/// Instructions of the backtracking program.
const MAX_PROG_SIZE: usize = 1 << 16;
/// Bytes of a compiled delegate (plain-regex) automaton.
const DELEGATE_SIZE_LIMIT: usize = 1 << 22;

/// A Pact regex that does not compile (or exceeds the size limits).
#[derive(Debug, thiserror::Error)]
#[error("invalid regex '{pattern}': {source}")]
pub struct RegexError {
    /// The pattern as written.
    pub pattern: String,
    #[source]
    source: fancy_regex::Error,
}

/// A compiled full-match pattern; equality and display use the source.
#[derive(Debug, Clone)]
pub struct PactRegex {
    source: String,
    compiled: Arc<fancy_regex::Regex>,
}

impl PactRegex {
    /// Compiles `pattern` anchored at both ends.
    pub fn new(pattern: &str) -> Result<Self, RegexError> {
        let rust = from_java(pattern);
        let invalid = |source| RegexError {
            pattern: pattern.to_string(),
            source,
        };
        // Alone first: `a)|(b` would otherwise close our group early.
        build(&rust).map_err(invalid)?;
        let compiled = build(&format!(r"\A(?:{rust})\z")).map_err(invalid)?;
        Ok(PactRegex {
            source: pattern.to_string(),
            compiled: Arc::new(compiled),
        })
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// True when the whole of `text` matches. A pattern that exceeds the
    /// backtracking limit counts as not matching.
    pub fn is_full_match(&self, text: &str) -> bool {
        self.compiled.is_match(text).unwrap_or(false)
    }
}

/// A pattern searched for anywhere in a text (an expected error's
/// `message`): the same dialect, engine and bounds as a full-match rule.
#[derive(Debug, Clone)]
pub struct SearchRegex(Arc<fancy_regex::Regex>);

impl SearchRegex {
    /// Compiles `pattern` unanchored.
    pub fn new(pattern: &str) -> Result<Self, RegexError> {
        build(&from_java(pattern))
            .map(|r| SearchRegex(Arc::new(r)))
            .map_err(|source| RegexError {
                pattern: pattern.to_string(),
                source,
            })
    }

    /// True when the pattern occurs in `text` (a pattern that exceeds the
    /// backtracking limit counts as not occurring).
    pub fn is_found(&self, text: &str) -> bool {
        self.0.is_match(text).unwrap_or(false)
    }
}

fn build(pattern: &str) -> Result<fancy_regex::Regex, fancy_regex::Error> {
    fancy_regex::RegexBuilder::new(pattern)
        .backtrack_limit(BACKTRACK_LIMIT)
        .max_prog_size(MAX_PROG_SIZE)
        .delegate_size_limit(DELEGATE_SIZE_LIMIT)
        .build()
}

/// Java's POSIX classes (ASCII-only in Java) as Rust classes.
const POSIX: &[(&str, &str)] = &[
    ("Lower", "a-z"),
    ("Upper", "A-Z"),
    ("ASCII", r"\x00-\x7F"),
    ("Alpha", "a-zA-Z"),
    ("Digit", "0-9"),
    ("Alnum", "a-zA-Z0-9"),
    ("Punct", r"!-/:-@\[-`{-~"),
    ("Graph", r"!-~"),
    ("Print", r" -~"),
    ("Blank", r" \t"),
    ("Cntrl", r"\x00-\x1F\x7F"),
    ("XDigit", "0-9a-fA-F"),
    ("Space", r" \t\n\x0B\f\r"),
];

/// Rewrites the Java-only parts of a pattern: POSIX classes
/// (`\p{Alpha}`, `\P{Digit}`) and `\Q…\E` quoting. Everything else is
/// the same in both dialects, or left for the compiler to refuse. Used by
/// every place that reads a Pact regex (rules, Regex and MockServerURL
/// generators).
pub fn from_java(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(i) = rest.find('\\') {
        out.push_str(rest.get(..i).unwrap_or_default());
        let tail = rest.get(i..).unwrap_or_default();
        if let Some(quoted) = tail.strip_prefix("\\Q") {
            let end = quoted.find("\\E").unwrap_or(quoted.len());
            out.push_str(&fancy_regex::escape(quoted.get(..end).unwrap_or_default()));
            rest = quoted.get(end + 2..).unwrap_or_default();
            continue;
        }
        if let Some((class, used)) = posix(tail) {
            out.push_str(&class);
            rest = tail.get(used..).unwrap_or_default();
            continue;
        }
        // Keep the escape and the character it escapes together.
        let len = tail.chars().take(2).map(char::len_utf8).sum();
        out.push_str(tail.get(..len).unwrap_or(tail));
        rest = tail.get(len..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// `\p{Alpha}` → `[a-zA-Z]`, `\P{Alpha}` → `[^a-zA-Z]`, with the length used.
fn posix(tail: &str) -> Option<(String, usize)> {
    let negated = tail.starts_with("\\P{");
    if !negated && !tail.starts_with("\\p{") {
        return None;
    }
    let close = tail.find('}')?;
    let name = tail.get(3..close)?;
    let (_, set) = POSIX.iter().find(|(n, _)| *n == name)?;
    let class = if negated {
        format!("[^{set}]")
    } else {
        format!("[{set}]")
    };
    Some((class, close + 1))
}

impl PartialEq for PactRegex {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_must_match_the_whole_value() {
        let table = [
            (r"\d+", "123", true),
            (r"\d+", "a123", false),
            (r"\d+", "123a", false),
            ("red|blue", "blue", true),
            ("red|blue", "redblue", false),
            (r"(?=\w{3})abc", "abc", true),
            ("", "", true),
            (r"\p{Alpha}+\p{Digit}", "abc1", true),
            (r"\p{Alpha}+", "ab1", false),
            (r"\P{Digit}+", "ab", true),
            (r"\Qa.b\E", "a.b", true),
            (r"\Qa.b\E", "axb", false),
            (r"\d+\.\d+", "1.5", true),
            (r"é\wx", "éax", true),
        ];
        for (pattern, text, expected) in table {
            let r = PactRegex::new(pattern).expect(pattern);
            assert_eq!(r.is_full_match(text), expected, "{pattern} ~ {text}");
        }
    }

    #[test]
    fn invalid_patterns_are_refused() {
        assert!(PactRegex::new("(").is_err());
    }

    #[test]
    fn a_pattern_cannot_escape_the_full_match_anchors() {
        // `\A(?:a)|(?:b)\z` would match any text starting with "a".
        assert!(PactRegex::new("a)|(?:b").is_err());
        assert!(PactRegex::new("a)|(b").is_err());
    }

    #[test]
    fn catastrophic_backtracking_gives_up_quickly_and_does_not_match() {
        // A back-reference forces the backtracking engine.
        let r = PactRegex::new(r"(a|aa)+\1b").expect("valid");
        let text = "a".repeat(40);
        assert!(!r.is_full_match(&text));
        // Plain patterns run on the linear engine: no blow-up at all.
        let plain = PactRegex::new("(a+)+b").expect("valid");
        assert!(!plain.is_full_match(&"a".repeat(100_000)));
    }

    #[test]
    fn huge_repetitions_are_refused_or_bounded() {
        // The plain engine refuses automata over its size limit.
        assert!(PactRegex::new("((a{1000}){1000}){1000}").is_err());
        // The backtracking engine loops instead of unrolling: it compiles,
        // and a match attempt stays within the backtrack limit.
        let r = PactRegex::new("(a)\\1{1000000}").expect("a loop, not an unrolled program");
        assert!(!r.is_full_match(&"a".repeat(1000)));
    }
}
