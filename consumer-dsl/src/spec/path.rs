//! Pact paths (`$.a.b`, `$.items[*].title`, `$['odd key']`) built while
//! walking a template.

use std::fmt;

/// A Pact matching-rule path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PactPath(String);

impl PactPath {
    /// The root, `$`.
    pub fn root() -> Self {
        PactPath("$".into())
    }

    /// The path of a field of this object.
    pub fn field(&self, name: &str) -> Self {
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            && !name.starts_with(|c: char| c.is_ascii_digit() || c == '-');
        if plain {
            PactPath(format!("{}.{name}", self.0))
        } else {
            PactPath(format!("{}['{}']", self.0, name.replace('\'', "\\'")))
        }
    }

    /// The path of an element of this array.
    pub fn index(&self, i: usize) -> Self {
        PactPath(format!("{}[{i}]", self.0))
    }

    /// The path of every element of this array.
    pub fn each(&self) -> Self {
        PactPath(format!("{}[*]", self.0))
    }

    /// The path as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PactPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_use_dots_and_odd_names_use_brackets() {
        let p = PactPath::root();
        assert_eq!(p.field("plan_id").as_str(), "$.plan_id");
        assert_eq!(
            p.field("items").each().field("title").as_str(),
            "$.items[*].title"
        );
        assert_eq!(p.field("odd key").as_str(), "$['odd key']");
        assert_eq!(p.field("1st").as_str(), "$['1st']");
        assert_eq!(p.field("parts").index(0).as_str(), "$.parts[0]");
    }
}
