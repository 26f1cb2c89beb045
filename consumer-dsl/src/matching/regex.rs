//! Pact regexes: Java-style patterns that must match the whole value.
//!
//! Compiled once when the rule is read. `fancy-regex` accepts look-around
//! and back-references (Java has them) and hands plain patterns to the
//! fast `regex` engine.

use std::sync::Arc;

/// A compiled full-match pattern; equality and display use the source.
#[derive(Debug, Clone)]
pub struct PactRegex {
    source: String,
    compiled: Arc<fancy_regex::Regex>,
}

impl PactRegex {
    /// Compiles `pattern` anchored at both ends.
    pub fn new(pattern: &str) -> Result<Self, String> {
        let anchored = format!(r"\A(?:{pattern})\z");
        let compiled = fancy_regex::Regex::new(&anchored)
            .map_err(|e| format!("invalid regex '{pattern}': {e}"))?;
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
}
