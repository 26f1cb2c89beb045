//! Finding where a field path (`interactions[3].cancel.at`) is written in
//! the spec text, for errors found after parsing.
//!
//! The parser has no spans, but its errors carry the position of the node
//! being read. So the text is read again by a walker that follows the path
//! and fails on purpose at the node it names: the error's position is the
//! node's position. A path that does not exist as written (a part the
//! compiler synthesised) falls back to its nearest written ancestor.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

const MARKER: &str = "accord-locate-marker";

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

fn parse_path(path: &str) -> Vec<Seg> {
    let mut segs = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let mut rest = part;
        if let Some(i) = rest.find('[') {
            if i > 0 {
                segs.push(Seg::Key(rest.get(..i).unwrap_or_default().to_string()));
            }
            rest = rest.get(i..).unwrap_or_default();
            while let Some(end) = rest.find(']') {
                // `get` rather than slicing: a path such as `a]]` or `x[]` must not panic.
                if let Some(n) = rest.get(1..end).and_then(|d| d.parse().ok()) {
                    segs.push(Seg::Index(n));
                }
                rest = rest.get(end + 1..).unwrap_or_default();
            }
        } else {
            segs.push(Seg::Key(rest.to_string()));
        }
    }
    segs
}

/// The 1-based line and column where `path` (or its nearest written
/// ancestor) starts in `text`.
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    let segs = parse_path(path);
    (0..=segs.len())
        .rev()
        .find_map(|n| probe(text, segs.get(..n).unwrap_or_default()))
}

fn probe(text: &str, segs: &[Seg]) -> Option<(usize, usize)> {
    let de = yaml_serde::Deserializer::from_str(text);
    match Walker(segs).deserialize(de) {
        Err(e) if e.to_string().contains(MARKER) => e.location().map(|l| (l.line(), l.column())),
        _ => None,
    }
}

struct Walker<'a>(&'a [Seg]);

impl<'de> DeserializeSeed<'de> for Walker<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walker<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Some((first, rest)) = self.0.split_first() else {
            return Err(de::Error::custom(MARKER));
        };
        while let Some(key) = map.next_key::<String>()? {
            if matches!(first, Seg::Key(k) if *k == key) {
                map.next_value_seed(Walker(rest))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Some((first, rest)) = self.0.split_first() else {
            return Err(de::Error::custom(MARKER));
        };
        let mut i = 0;
        loop {
            let found = if matches!(first, Seg::Index(n) if *n == i) {
                seq.next_element_seed(Walker(rest))?
            } else {
                seq.next_element::<IgnoredAny>()?.map(|_| ())
            };
            if found.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.leaf()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.leaf()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.leaf()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.leaf()
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.leaf()
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.leaf()
    }
}

impl Walker<'_> {
    fn leaf<E: de::Error>(&self) -> Result<(), E> {
        if self.0.is_empty() {
            Err(E::custom(MARKER))
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "consumer: a\nprovider: b\ninteractions:\n  - a2a: x\n    send: { text: hi }\n    cancel:\n      at: COMPLETED\n  - mcp: y\n    tool: t\n";

    #[test]
    fn finds_the_line_and_column_of_a_nested_field() {
        assert_eq!(locate(TEXT, "interactions[0].cancel.at"), Some((7, 11)));
        assert_eq!(locate(TEXT, "interactions[1].tool"), Some((9, 11)));
    }

    #[test]
    fn a_path_that_is_not_written_falls_back_to_its_ancestor() {
        assert_eq!(
            locate(TEXT, "interactions[0].send.parts[0]"),
            locate(TEXT, "interactions[0].send")
        );
        assert!(locate(TEXT, "interactions[0].send").is_some());
    }

    #[test]
    fn parses_keys_and_indexes() {
        assert_eq!(
            parse_path("a[1][2].b"),
            [
                Seg::Key("a".into()),
                Seg::Index(1),
                Seg::Index(2),
                Seg::Key("b".into())
            ]
        );
    }

    #[test]
    fn malformed_paths_parse_without_panicking() {
        assert_eq!(
            parse_path("a[1]]"),
            vec![Seg::Key("a".into()), Seg::Index(1)]
        );
        assert_eq!(parse_path("x[]"), vec![Seg::Key("x".into())]);
        assert_eq!(parse_path("]]["), vec![Seg::Key("]]".into())]);
        assert_eq!(
            parse_path("interactions[3].cancel.at"),
            vec![
                Seg::Key("interactions".into()),
                Seg::Index(3),
                Seg::Key("cancel".into()),
                Seg::Key("at".into()),
            ]
        );
    }
}
