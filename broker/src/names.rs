//! Names and numbers parsed once at the edge (parse, don't validate): after
//! construction an invalid pacticipant name, version number, branch, tag,
//! environment name or content sha cannot exist.

use std::fmt;

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("must not be blank")]
    Blank,
    #[error("must be at most {max} characters")]
    TooLong { max: usize },
    #[error("must not contain control characters")]
    Control,
    #[error("must not contain spaces")]
    Space,
    #[error("must be 64 lowercase hexadecimal characters (a sha256)")]
    NotSha,
    #[error("must not contain ':' (it separates the user from the password in HTTP Basic)")]
    Colon,
    #[error(
        "must not be only dots (a URL path cannot name '.' or '..': clients remove such segments)"
    )]
    Dots,
}

const MAX_NAME: usize = 255;

fn check_text(text: &str, spaces_allowed: bool) -> Result<(), NameError> {
    if text.trim().is_empty() {
        return Err(NameError::Blank);
    }
    if text.chars().count() > MAX_NAME {
        return Err(NameError::TooLong { max: MAX_NAME });
    }
    if text.chars().any(char::is_control) {
        return Err(NameError::Control);
    }
    if !spaces_allowed && text.contains(' ') {
        return Err(NameError::Space);
    }
    if text.chars().all(|c| c == '.') {
        return Err(NameError::Dots);
    }
    Ok(())
}

macro_rules! name_type {
    ($(#[$doc:meta])* $name:ident, spaces: $spaces:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// Parses `text`, refusing blank, over-long or control-character names.
            pub fn parse(text: &str) -> Result<Self, NameError> {
                check_text(text, $spaces)?;
                Ok($name(text.to_owned()))
            }

            /// The name as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }
    };
}

name_type!(
    /// A consumer's or provider's name (case-sensitive, spaces allowed).
    PacticipantName, spaces: true
);
name_type!(
    /// A pacticipant version number (any non-blank text: a semver, a git sha).
    VersionNumber, spaces: true
);
name_type!(
    /// A branch name.
    BranchName, spaces: true
);
name_type!(
    /// A tag name.
    TagName, spaces: true
);
name_type!(
    /// An environment name (no spaces, as in the Pact Broker).
    EnvironmentName, spaces: false
);

name_type!(
    /// An API token's name (it doubles as an HTTP Basic user name).
    TokenName, spaces: true
);

impl TokenName {
    /// Parses a token name: a name without control characters or `:` (the Basic
    /// separator), so that every stored token can be used and revoked.
    pub fn parse_token(text: &str) -> Result<Self, NameError> {
        if text.contains(':') {
            return Err(NameError::Colon);
        }
        TokenName::parse(text)
    }
}

/// Longest free text a client may store (display names, URLs).
pub const MAX_FREE_TEXT: usize = 4096;

/// Free text a client sets — a display name, a repository or build URL:
/// anything but control characters other than tab and line breaks (NUL in
/// particular, which PostgreSQL cannot store in text), at most
/// [`MAX_FREE_TEXT`] characters. Deserialising refuses bad text, so a body
/// field names itself by JSON path.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct FreeText(String);

impl FreeText {
    /// Parses `text`.
    pub fn parse(text: &str) -> Result<Self, NameError> {
        if text.chars().count() > MAX_FREE_TEXT {
            return Err(NameError::TooLong { max: MAX_FREE_TEXT });
        }
        if text
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        {
            return Err(NameError::Control);
        }
        Ok(FreeText(text.to_owned()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl<'de> serde::Deserialize<'de> for FreeText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        FreeText::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// The sha256 (hex) of a contract's canonical content.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct ContentSha(String);

impl ContentSha {
    /// Parses a 64-character lowercase hex digest.
    pub fn parse(text: &str) -> Result<Self, NameError> {
        let is_hex = text.len() == 64
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if is_hex {
            Ok(ContentSha(text.to_owned()))
        } else {
            Err(NameError::NotSha)
        }
    }

    /// The digest as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ContentSha {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_of_dots_only_is_refused() {
        assert_eq!(PacticipantName::parse(".."), Err(NameError::Dots));
        assert_eq!(VersionNumber::parse("."), Err(NameError::Dots));
        assert!(VersionNumber::parse("1.0").is_ok());
        assert!(PacticipantName::parse(".web").is_ok());
    }

    #[test]
    fn blank_and_control_names_are_refused() {
        assert_eq!(PacticipantName::parse("  "), Err(NameError::Blank));
        assert_eq!(PacticipantName::parse("a\nb"), Err(NameError::Control));
        assert!(PacticipantName::parse("Order Service").is_ok());
    }

    #[test]
    fn environment_names_have_no_spaces() {
        assert_eq!(EnvironmentName::parse("prod eu"), Err(NameError::Space));
        assert!(EnvironmentName::parse("production").is_ok());
    }

    #[test]
    fn a_sha_is_64_lowercase_hex_characters() {
        assert!(ContentSha::parse(&"a".repeat(64)).is_ok());
        assert_eq!(ContentSha::parse(&"A".repeat(64)), Err(NameError::NotSha));
        assert_eq!(ContentSha::parse("abc"), Err(NameError::NotSha));
    }

    #[test]
    fn nul_del_and_line_breaks_are_refused_in_names() {
        for bad in ["a\0b", "a\u{7f}", "a\nb", "a\u{85}b"] {
            assert_eq!(
                VersionNumber::parse(bad),
                Err(NameError::Control),
                "{bad:?}"
            );
            assert_eq!(
                TokenName::parse_token(bad),
                Err(NameError::Control),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn token_names_have_no_colon() {
        assert_eq!(TokenName::parse_token("ci:bot"), Err(NameError::Colon));
        assert!(TokenName::parse_token("ci bot").is_ok());
    }

    #[test]
    fn free_text_keeps_line_breaks_and_refuses_nul() {
        assert!(FreeText::parse("Order service\nsecond line\t!").is_ok());
        assert_eq!(FreeText::parse("a\0"), Err(NameError::Control));
        let err = serde_json::from_str::<FreeText>("\"x\\u0000y\"").expect_err("refused");
        assert!(err.to_string().contains("control characters"), "{err}");
        let long = "x".repeat(MAX_FREE_TEXT + 1);
        assert_eq!(
            FreeText::parse(&long),
            Err(NameError::TooLong { max: MAX_FREE_TEXT })
        );
    }

    #[test]
    fn names_longer_than_255_characters_are_refused() {
        let long = "x".repeat(256);
        assert_eq!(
            VersionNumber::parse(&long),
            Err(NameError::TooLong { max: 255 })
        );
    }
}
