//! The `/metadata/{m}` URL segment of a pact permalink handed out by
//! "pacts for verification": which consumer versions and selectors led to
//! the pact, and whether it was pending (`p`) or work in progress (`w`).
//! The verifier echoes it back when it publishes results, so the broker can
//! store those facts on the verification. The pact document's own
//! `pb:publish-verification-results` link adds `pv` when the document was
//! the Pact view of a contract with Accord-only parts: the result covers
//! only that view.
//!
//! Encoding: base64url without padding of a small JSON object with short
//! keys (Pact uses a Rack nested query; JSON is simpler and equally short).
//! Decoding never panics: garbage is a typed error the API turns into a 400.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

/// The longest segment accepted (a pact selected by hundreds of consumer
/// versions stays far below this).
const MAX_ENCODED: usize = 16 * 1024;

/// What the segment says. Unknown keys are ignored, so a replica that does
/// not know a key a newer replica added still accepts the segment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PactMetadata {
    /// Ids of the consumer versions whose content this is.
    #[serde(rename = "cv", default, skip_serializing_if = "Vec::is_empty")]
    pub consumer_version_ids: Vec<i64>,
    /// Their numbers, for people reading a stored verification.
    #[serde(rename = "cvn", default, skip_serializing_if = "Vec::is_empty")]
    pub consumer_version_numbers: Vec<String>,
    /// The short description of every selector that matched.
    #[serde(rename = "s", default, skip_serializing_if = "Vec::is_empty")]
    pub selectors: Vec<String>,
    /// The pact was pending for the provider when it was handed out.
    #[serde(rename = "p", default, skip_serializing_if = "std::ops::Not::not")]
    pub pending: bool,
    /// The pact was handed out as work in progress.
    #[serde(rename = "w", default, skip_serializing_if = "std::ops::Not::not")]
    pub wip: bool,
    /// The results are of the Pact view, which left Accord-only parts out.
    #[serde(rename = "pv", default, skip_serializing_if = "std::ops::Not::not")]
    pub pact_view: bool,
}

/// Why a metadata segment could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MetadataError {
    #[error("is longer than {MAX_ENCODED} characters")]
    TooLong,
    #[error("is not base64url")]
    NotBase64(#[source] base64::DecodeError),
    #[error("is not the metadata this broker hands out")]
    NotMetadata(#[source] serde_json::Error),
}

impl PactMetadata {
    /// The URL segment (base64url, no padding; safe in a path as is).
    pub fn encode(&self) -> String {
        let json = serde_json::to_vec(self).unwrap_or_else(|_| b"{}".to_vec());
        URL_SAFE_NO_PAD.encode(json)
    }

    /// Reads a segment; tolerates `=` padding that a client may have added.
    pub fn decode(segment: &str) -> Result<PactMetadata, MetadataError> {
        if segment.len() > MAX_ENCODED {
            return Err(MetadataError::TooLong);
        }
        let bytes = URL_SAFE_NO_PAD
            .decode(segment.trim_end_matches('='))
            .map_err(MetadataError::NotBase64)?;
        serde_json::from_slice(&bytes).map_err(MetadataError::NotMetadata)
    }

    /// The JSON stored on a verification.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_survives_a_round_trip_through_the_url_segment() {
        let m = PactMetadata {
            consumer_version_ids: vec![3, 7],
            consumer_version_numbers: vec!["1.0 beta".into()],
            selectors: vec!["latest from main branch".into()],
            pending: true,
            wip: false,
            pact_view: true,
        };
        let segment = m.encode();
        assert!(
            segment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(PactMetadata::decode(&segment).expect("decodes"), m);
    }

    #[test]
    fn empty_metadata_encodes_to_an_empty_object() {
        let segment = PactMetadata::default().encode();
        assert_eq!(
            PactMetadata::decode(&segment).expect("decodes"),
            PactMetadata::default()
        );
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(matches!(
            PactMetadata::decode("!!!"),
            Err(MetadataError::NotBase64(_))
        ));
        let not_json = URL_SAFE_NO_PAD.encode(b"c[]=1&w=true");
        assert!(matches!(
            PactMetadata::decode(&not_json),
            Err(MetadataError::NotMetadata(_))
        ));
        let wrong_type = URL_SAFE_NO_PAD.encode(br#"{"w":"yes"}"#);
        assert!(PactMetadata::decode(&wrong_type).is_err());
        let not_object = URL_SAFE_NO_PAD.encode(b"[1]");
        assert!(PactMetadata::decode(&not_object).is_err());
        let newer = URL_SAFE_NO_PAD.encode(br#"{"w":true,"zz":1}"#);
        assert!(
            PactMetadata::decode(&newer)
                .expect("unknown keys are ignored")
                .wip
        );
        assert!(matches!(
            PactMetadata::decode(&"A".repeat(MAX_ENCODED + 1)),
            Err(MetadataError::TooLong)
        ));
    }
}
