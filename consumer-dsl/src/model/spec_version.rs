//! Pact specification versions.

use std::fmt;
use std::str::FromStr;

/// A Pact specification version. Files of V1–V3 are upgraded to the V4
/// model when read; Accord always writes V4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PactSpec {
    V1,
    V1_1,
    V2,
    V3,
    V4,
}

impl PactSpec {
    /// The version string as written in `metadata.pactSpecification.version`.
    pub fn as_str(self) -> &'static str {
        match self {
            PactSpec::V1 => "1.0.0",
            PactSpec::V1_1 => "1.1.0",
            PactSpec::V2 => "2.0.0",
            PactSpec::V3 => "3.0.0",
            PactSpec::V4 => "4.0",
        }
    }
}

impl fmt::Display for PactSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a version string that names no known specification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown Pact specification version '{0}' (expected 1, 1.1, 2, 3 or 4)")]
pub struct UnknownPactSpec(pub String);

impl FromStr for PactSpec {
    type Err = UnknownPactSpec;

    /// Accepts `1`, `1.0`, `1.0.0`, `1.1`, `1.1.0`, `2`, `2.0.0`, `3`, `3.0.0`, `4`, `4.0`, …
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().trim_start_matches(['v', 'V']);
        let mut parts = t.split('.');
        let major = parts.next().unwrap_or_default();
        let minor = parts.next().unwrap_or("0");
        match (major, minor) {
            ("1", "0") => Ok(PactSpec::V1),
            ("1", "1") => Ok(PactSpec::V1_1),
            ("2", _) => Ok(PactSpec::V2),
            ("3", _) => Ok(PactSpec::V3),
            ("4", _) => Ok(PactSpec::V4),
            _ => Err(UnknownPactSpec(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_spelling_of_each_version() {
        assert_eq!("1".parse(), Ok(PactSpec::V1));
        assert_eq!("1.0.0".parse(), Ok(PactSpec::V1));
        assert_eq!("1.1".parse(), Ok(PactSpec::V1_1));
        assert_eq!("2.0.0".parse(), Ok(PactSpec::V2));
        assert_eq!("3".parse(), Ok(PactSpec::V3));
        assert_eq!("4.0".parse(), Ok(PactSpec::V4));
        assert!("5".parse::<PactSpec>().is_err());
        assert!("".parse::<PactSpec>().is_err());
    }
}
