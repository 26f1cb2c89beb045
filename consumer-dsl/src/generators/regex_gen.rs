//! The `Regex` generator: a random string matching a regular expression.
//!
//! Pact regexes come from Java as often as from Rust, so the generator
//! accepts Java's `\Q…\E` quoting, ignores anchors and word boundaries (a
//! generated string is whole anyway), and prefers printable ASCII for
//! classes such as `\d`, `\w` and `.` — what Java's default (non-Unicode)
//! classes match — falling back to the full class when it has no ASCII
//! member.

use std::string::FromUtf8Error;

use rand::Rng;

use crate::matching::java_regex_to_rust;
use regex_syntax::hir::{
    Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Repetition,
};

/// Longest repetition the generator unrolls for `*`, `+` and `{n,}`.
const MAX_REPEAT: u32 = 10;

/// Longest string (in bytes) the generator agrees to produce: nested
/// counted repetitions (`((a{1000}){1000}){1000}`) must not exhaust memory.
const MAX_LENGTH: usize = 1 << 20;

/// A string matching `regex`; `None` when the regex is not supported or
/// could produce a string longer than 1 MiB.
pub(super) fn random_regex(regex: &str, rng: &mut impl Rng) -> Option<String> {
    let pattern = java_regex_to_rust(regex);
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(&pattern)
        .ok()?;
    let compiled = rand_regex::Regex::with_hir(prefer_ascii(hir), MAX_REPEAT).ok()?;
    if compiled.capacity() > MAX_LENGTH {
        return None;
    }
    rng.sample::<Result<String, FromUtf8Error>, _>(&compiled)
        .ok()
}

/// Narrows every Unicode class to its printable ASCII members (when it has
/// any) and drops look-arounds, which the generator cannot produce.
/// Recursion is bounded by the parser's nesting limit.
fn prefer_ascii(hir: Hir) -> Hir {
    match hir.into_kind() {
        HirKind::Class(Class::Unicode(class)) => {
            let mut ascii = class.clone();
            ascii.intersect(&ClassUnicode::new([ClassUnicodeRange::new(' ', '~')]));
            let chosen = if ascii.ranges().is_empty() {
                class
            } else {
                ascii
            };
            Hir::class(Class::Unicode(chosen))
        }
        HirKind::Class(other) => Hir::class(other),
        HirKind::Look(_) | HirKind::Empty => Hir::empty(),
        HirKind::Literal(lit) => Hir::literal(lit.0),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            sub: Box::new(prefer_ascii(*r.sub)),
            ..r
        }),
        HirKind::Capture(c) => Hir::capture(Capture {
            sub: Box::new(prefer_ascii(*c.sub)),
            ..c
        }),
        HirKind::Concat(items) => Hir::concat(items.into_iter().map(prefer_ascii).collect()),
        HirKind::Alternation(items) => {
            Hir::alternation(items.into_iter().map(prefer_ascii).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    proptest! {
        #[test]
        fn any_regex_text_gives_a_matching_string_or_nothing(regex in "[-a-c0-9.*+?|(){}\\[\\]^$\\\\dws,]{0,24}") {
            let mut rng = StdRng::seed_from_u64(5);
            if let Some(s) = random_regex(&regex, &mut rng)
                && let Ok(check) = regex::Regex::new(&format!("^(?:{})$", java_regex_to_rust(&regex)))
                && !regex.contains(['^', '$'])
                && !regex.contains("\\b")
            {
                prop_assert!(check.is_match(&s), "{} gave {:?}", regex, s);
            }
        }
    }

    #[test]
    fn generated_strings_match_their_regex_and_prefer_ascii() {
        let mut rng = StdRng::seed_from_u64(3);
        let table = [
            (r"\d{1,8}", r"^[0-9]{1,8}$"),
            (r"^\w+@\w+\.com$", r"^[A-Za-z0-9_]+@[A-Za-z0-9_]+\.com$"),
            (r".*(/a)", r"^[ -~]*/a$"),
            (r"\bplan-[a-f0-9]{4}\b", r"^plan-[a-f0-9]{4}$"),
            (r"(?<state>draft|ready)", r"^(draft|ready)$"),
            (r"é+", r"^é+$"),
            (
                r".*\/(\Qpacts\E\/\Q{provider}\E)$",
                r"^[ -~]*/pacts/\{provider\}$",
            ),
        ];
        for (regex, shape) in table {
            let check = regex::Regex::new(shape).expect("test regex");
            for _ in 0..20 {
                let s = random_regex(regex, &mut rng);
                assert!(
                    s.as_deref().is_some_and(|s| check.is_match(s)),
                    "{regex} gave {s:?}"
                );
            }
        }
    }

    #[test]
    fn java_quoting_generates_the_literal_text() {
        let mut rng = StdRng::seed_from_u64(5);
        assert_eq!(random_regex(r"a\Q.*\Eb", &mut rng).as_deref(), Some("a.*b"));
        assert_eq!(random_regex(r"\Q(open", &mut rng).as_deref(), Some("(open"));
    }

    #[test]
    fn unsupported_or_hostile_regexes_give_nothing_instead_of_panicking() {
        let mut rng = StdRng::seed_from_u64(3);
        let deep = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
        let huge = "((a{1000}){1000}){1000}";
        for regex in ["(unclosed", "a{5,2}", deep.as_str(), "\\", huge] {
            assert_eq!(random_regex(regex, &mut rng), None, "{regex}");
        }
    }
}
