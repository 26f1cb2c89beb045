//! Pact document paths (`$.a.b`, `$['a b']`, `$.a[2]`, `$.a[*]`, `$.a.*`,
//! `$.a['@attr']`, `$.a['#text']`) and how a rule path is weighed against
//! the location of a value.
//!
//! A rule path selects a value when it is a prefix of the value's location
//! (rules of a parent apply to its children, as Pact's type matchers do).
//! Each matching token weighs 2 (a name or an index) or 1 (a wildcard); the
//! weight of a path is the product, so the most specific path wins.

use std::fmt;

/// One token of a rule path after the root `$`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathToken {
    /// `.name` or `['name']`.
    Field(String),
    /// `[2]`.
    Index(usize),
    /// `.*` or `['*']`: any field or index.
    Star,
    /// `[*]`: any index.
    StarIndex,
}

/// A parsed rule path. The root `$` is implied.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct DocPath {
    tokens: Vec<PathToken>,
}

/// One step of the location of a value being matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seg<'a> {
    /// An object key, XML element name, `@attribute` or `#text`.
    Key(&'a str),
    /// An array index.
    Index(usize),
    /// An XML attribute (`['@name']` in rule paths).
    Attr(&'a str),
    /// The text of an XML element (`['#text']` in rule paths).
    Text,
}

/// Why a path expression was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid path '{path}' at character {position}: {reason}")]
pub struct PathError {
    pub path: String,
    pub position: usize,
    pub reason: &'static str,
}

impl DocPath {
    /// The root path `$`.
    pub fn root() -> Self {
        DocPath::default()
    }

    /// The tokens after `$`.
    pub fn tokens(&self) -> &[PathToken] {
        &self.tokens
    }

    /// This path with one more token.
    pub fn join(mut self, token: PathToken) -> Self {
        self.tokens.push(token);
        self
    }

    /// Parses a path expression. A string not starting with `$` is read as
    /// a single field name (as header and query rule keys are written).
    pub fn parse(text: &str) -> Result<Self, PathError> {
        let Some(rest) = text.strip_prefix('$') else {
            return Ok(DocPath {
                tokens: vec![PathToken::Field(text.to_string())],
            });
        };
        Parser {
            text,
            pos: text.len() - rest.len(),
            tokens: Vec::new(),
        }
        .run()
    }

    /// Weight of this path against a location: 0 when it does not select
    /// it, otherwise the product of token weights (root counts 2).
    pub fn weight(&self, location: &[Seg<'_>]) -> u64 {
        if self.tokens.len() > location.len() {
            return 0;
        }
        let mut weight = 2u64;
        // From the deepest token up: sibling paths (`$.items[*].id`,
        // `$.items[*].title`) differ last, so most are refused at once.
        for (token, seg) in self.tokens.iter().zip(location).rev() {
            let w = token_weight(token, *seg);
            if w == 0 {
                return 0;
            }
            weight = weight.saturating_mul(w);
        }
        weight
    }

    /// True when this path names exactly the location (same length and
    /// every token matches).
    pub fn matches_exactly(&self, location: &[Seg<'_>]) -> bool {
        self.tokens.len() == location.len() && self.weight(location) > 0
    }
}

fn token_weight(token: &PathToken, seg: Seg<'_>) -> u64 {
    match (token, seg) {
        (PathToken::Field(name), Seg::Key(key)) if same(name, key) => 2,
        (PathToken::Field(name), Seg::Attr(attr)) if name.strip_prefix('@') == Some(attr) => 2,
        (PathToken::Field(name), Seg::Text) if name == "#text" => 2,
        (PathToken::Field(name), Seg::Index(i)) if name.parse() == Ok(i) => 2,
        (PathToken::Index(n), Seg::Index(i)) if *n == i => 2,
        (PathToken::Index(n), Seg::Key(key)) if key.parse() == Ok(*n) => 2,
        (PathToken::StarIndex, Seg::Index(_)) => 1,
        (PathToken::Star, _) => 1,
        _ => 0,
    }
}

/// String equality without a call to `memcmp` for the short names rule
/// paths hold: the matcher weighs every rule path at every value, and on a
/// wide list that comparison was a third of its time.
#[inline]
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len()
        && if a.len() > 16 {
            a == b
        } else {
            a.iter().zip(b).all(|(x, y)| x == y)
        }
}

struct Parser<'t> {
    text: &'t str,
    pos: usize,
    tokens: Vec<PathToken>,
}

impl Parser<'_> {
    fn fail(&self, reason: &'static str) -> PathError {
        PathError {
            path: self.text.to_string(),
            position: self.pos,
            reason,
        }
    }

    fn rest(&self) -> &str {
        self.text.get(self.pos..).unwrap_or_default()
    }

    fn run(mut self) -> Result<DocPath, PathError> {
        while let Some(c) = self.rest().chars().next() {
            match c {
                '.' => self.field()?,
                '[' => self.bracket()?,
                _ => return Err(self.fail("expected '.' or '['")),
            }
        }
        Ok(DocPath {
            tokens: self.tokens,
        })
    }

    fn field(&mut self) -> Result<(), PathError> {
        self.pos += 1;
        let rest = self.rest();
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let name = rest.get(..end).unwrap_or_default();
        if name.is_empty() {
            return Err(self.fail("expected a field name after '.'"));
        }
        self.tokens.push(if name == "*" {
            PathToken::Star
        } else {
            PathToken::Field(name.to_string())
        });
        self.pos += end;
        Ok(())
    }

    fn bracket(&mut self) -> Result<(), PathError> {
        self.pos += 1;
        let rest = self.rest();
        if let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') {
            let inner = rest.get(1..).unwrap_or_default();
            let close = inner
                .find(quote)
                .ok_or_else(|| self.fail("unterminated quoted name"))?;
            let name = inner.get(..close).unwrap_or_default();
            let after = inner.get(close + 1..).unwrap_or_default();
            if !after.starts_with(']') {
                return Err(self.fail("expected ']' after a quoted name"));
            }
            self.tokens.push(if name == "*" {
                PathToken::Star
            } else {
                PathToken::Field(name.to_string())
            });
            self.pos += close + 3;
            return Ok(());
        }
        let close = rest.find(']').ok_or_else(|| self.fail("missing ']'"))?;
        let inside = rest.get(..close).unwrap_or_default().trim();
        let token = if inside == "*" {
            PathToken::StarIndex
        } else {
            PathToken::Index(
                inside
                    .parse()
                    .map_err(|_| self.fail("expected an index, '*' or a quoted name"))?,
            )
        };
        self.tokens.push(token);
        self.pos += close + 1;
        Ok(())
    }
}

impl fmt::Display for DocPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for token in &self.tokens {
            match token {
                PathToken::Field(name) => write_key(f, name)?,
                PathToken::Index(i) => write!(f, "[{i}]")?,
                PathToken::Star => f.write_str(".*")?,
                PathToken::StarIndex => f.write_str("[*]")?,
            }
        }
        Ok(())
    }
}

fn write_key(f: &mut impl fmt::Write, name: &str) -> fmt::Result {
    // pact-reference writes all-digit keys in brackets (`$[100]`).
    if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
        return write!(f, "[{name}]");
    }
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '#' | '@'))
        && !name.starts_with('@')
        && !name.starts_with('#');
    if plain {
        write!(f, ".{name}")
    } else {
        write!(f, "['{}']", name.replace('\'', "\\'"))
    }
}

/// Renders a location as a path string (`$.items[0].id`), for mismatches.
pub fn render_location(location: &[Seg<'_>]) -> String {
    let mut out = String::from("$");
    for seg in location {
        match seg {
            Seg::Key(k) => {
                let _ = write_key(&mut out, k);
            }
            Seg::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            Seg::Attr(a) => {
                out.push_str("['@");
                out.push_str(a);
                out.push_str("']");
            }
            Seg::Text => out.push_str("['#text']"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::PathToken::*;
    use super::*;

    fn field(s: &str) -> PathToken {
        Field(s.to_string())
    }

    #[test]
    fn parses_every_path_form() {
        let table: &[(&str, Vec<PathToken>)] = &[
            ("$", vec![]),
            ("$.a.b", vec![field("a"), field("b")]),
            ("$['a b']", vec![field("a b")]),
            ("$[\"x\"]", vec![field("x")]),
            ("$.a[2]", vec![field("a"), Index(2)]),
            ("$.a[*]", vec![field("a"), StarIndex]),
            ("$.a.*", vec![field("a"), Star]),
            ("$.a['@attr']", vec![field("a"), field("@attr")]),
            ("$.a.#text", vec![field("a"), field("#text")]),
            ("$[*].*", vec![StarIndex, Star]),
            ("Accept", vec![field("Accept")]),
        ];
        for (text, tokens) in table {
            let parsed = DocPath::parse(text).expect(text);
            assert_eq!(parsed.tokens(), tokens.as_slice(), "{text}");
        }
    }

    #[test]
    fn malformed_paths_are_refused_with_a_position() {
        for bad in ["$.", "$[", "$['a'", "$[x]", "$a", "$['a'x]"] {
            let err = DocPath::parse(bad).expect_err(bad);
            assert!(err.position <= bad.len(), "{bad}: {err}");
        }
    }

    #[test]
    fn more_specific_paths_weigh_more() {
        let loc = [Seg::Key("a"), Seg::Index(0), Seg::Key("b")];
        let w = |p: &str| DocPath::parse(p).expect("valid").weight(&loc);
        assert_eq!(w("$.x"), 0);
        assert!(w("$.a") > 0, "a parent path selects its children");
        assert!(w("$.a[0].b") > w("$.a[*].b"));
        assert!(w("$.a[*].b") > w("$.a[*].*"));
        assert_eq!(w("$.a[1].b"), 0);
        assert_eq!(w("$.a[0].b.c"), 0, "a longer path never selects");
    }

    #[test]
    fn display_round_trips_through_parse() {
        for text in [
            "$",
            "$.a.b",
            "$['a b']",
            "$.a[2]",
            "$.a[*]",
            "$.a.*",
            "$.a['@x']",
        ] {
            let p = DocPath::parse(text).expect(text);
            assert_eq!(p.to_string(), text);
        }
    }

    #[test]
    fn locations_render_with_brackets_where_needed() {
        let loc = [Seg::Key("a b"), Seg::Index(3), Seg::Key("id")];
        assert_eq!(render_location(&loc), "$['a b'][3].id");
    }
}
