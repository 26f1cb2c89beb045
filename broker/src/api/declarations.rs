//! What a provider declared during a verification run — its Agent Card, its
//! MCP `tools/list` — by canonical digest, as Accord's verifier publishes it
//! (`declarations` in a verification result, an Accord extension). Stored
//! with the result, so a release manager sees which card or tool list each
//! verdict was reached against, and when it changed.

use serde::{Deserialize, Serialize};

use crate::error::{BrokerError, FieldError};

/// At most this many declarations in one result.
pub const MAX_DECLARATIONS: usize = 64;

/// One declaration as sent and as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Declaration {
    /// `a2a/agent-card`, `mcp/tools/list`, …
    pub kind: String,
    /// Who it was read as: a principal's name, never a credential.
    pub profile: String,
    pub protocol_version: String,
    /// `sha256:` and 64 lower-case hex digits.
    pub digest: String,
    /// How many entries (skills, tools) it lists.
    pub entries: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// What of it the run used (interfaces: binding and URL).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub used: Vec<String>,
}

/// Checks what serde cannot: the count, each digest's shape, bounded texts.
pub fn validate(declarations: &[Declaration]) -> Result<(), BrokerError> {
    if declarations.len() > MAX_DECLARATIONS {
        return Err(BrokerError::bad_field(
            "$.declarations",
            format!("at most {MAX_DECLARATIONS} declarations"),
        ));
    }
    let mut errors = Vec::new();
    for (i, d) in declarations.iter().enumerate() {
        if !is_digest(&d.digest) {
            errors.push(FieldError::new(
                format!("$.declarations[{i}].digest"),
                "must be sha256: and 64 lower-case hex digits",
            ));
        }
        let texts = [&d.kind, &d.profile, &d.protocol_version]
            .into_iter()
            .chain(d.etag.as_ref())
            .chain(d.used.iter());
        if texts.clone().any(|t| t.len() > 512) || d.used.len() > 32 {
            errors.push(FieldError::new(
                format!("$.declarations[{i}]"),
                "texts are at most 512 bytes, `used` at most 32 entries",
            ));
        }
    }
    match errors.first() {
        None => Ok(()),
        Some(first) => Err(BrokerError::BadRequest {
            detail: format!("{}: {}", first.field, first.message),
            errors,
        }),
    }
}

/// True for `sha256:` and 64 lower-case hex digits.
pub fn is_digest(text: &str) -> bool {
    text.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declaration(digest: &str) -> Declaration {
        Declaration {
            kind: "mcp/tools/list".into(),
            profile: "alice".into(),
            protocol_version: "2025-11-25".into(),
            digest: digest.into(),
            entries: 3,
            etag: None,
            used: Vec::new(),
        }
    }

    #[test]
    fn a_digest_must_be_sha256_hex() {
        assert!(validate(&[declaration(&format!("sha256:{}", "a".repeat(64)))]).is_ok());
        let err = validate(&[declaration("sha256:xyz")]).expect_err("refused");
        assert!(err.body()["errors"]["$.declarations[0].digest"].is_array());
    }

    #[test]
    fn too_many_declarations_are_refused() {
        let many = vec![declaration(&format!("sha256:{}", "b".repeat(64))); MAX_DECLARATIONS + 1];
        assert!(validate(&many).is_err());
    }
}
