//! The one error type of this crate.

use std::path::PathBuf;

/// Everything that can go wrong reading, compiling or writing a contract.
///
/// Mismatches found by the matching engine are *not* errors: they are data
/// (see [`crate::matching::Mismatch`]).
#[derive(Debug, thiserror::Error)]
pub enum DslError {
    /// A JSON document is not valid JSON.
    #[error("{origin}: invalid JSON at line {line}, column {column}: {source}")]
    Json {
        origin: String,
        line: usize,
        column: usize,
        #[source]
        source: serde_json::Error,
    },
    /// A document is valid JSON/YAML but a field has the wrong shape.
    #[error("{origin}: {path}: {message}")]
    Invalid {
        /// The file name or other origin of the document.
        origin: String,
        /// JSON path of the offending field, e.g. `$.interactions[2].request.method`.
        path: String,
        /// Why the value is refused.
        message: String,
    },
    /// A part of a document has the wrong shape for its typed model (an
    /// A2A task, an MCP tool call, a provider state, …).
    #[error("{origin}: {path}: {source}")]
    Shape {
        origin: String,
        /// JSON path of the offending field.
        path: String,
        #[source]
        source: serde_json::Error,
    },
    /// Reading a file failed.
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl DslError {
    /// Shorthand for [`DslError::Invalid`].
    pub fn invalid(
        origin: impl Into<String>,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        DslError::Invalid {
            origin: origin.into(),
            path: path.into(),
            message: message.into(),
        }
    }
}
