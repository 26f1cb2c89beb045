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
    /// A spec file (YAML, or JSON of the same shape) is malformed. The
    /// source names the field path, the reason, the line and the column.
    #[error("{origin}: {source}")]
    Spec {
        origin: String,
        #[source]
        source: yaml_serde::Error,
    },
    /// A spec is well-formed but says something impossible (an undeclared
    /// principal, a state after a terminal one, …); the position is where
    /// the field, or its nearest written ancestor, is in the file.
    #[error("{origin}: {path}: {message} at line {line} column {column}")]
    SpecField {
        origin: String,
        /// Field path, e.g. `interactions[3].cancel.at`.
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// A JSON Schema a spec refers to by path could not be loaded.
    #[error("{origin}: {path}: cannot load the schema `{reference}`: {source}")]
    SchemaRef {
        origin: String,
        /// Field path of the reference in the spec.
        path: String,
        /// The reference as written (a path relative to the spec).
        reference: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A value handed to the builder is not a valid template (a bad inline
    /// matcher).
    #[error("{context}: {source}")]
    BuilderValue {
        /// The interaction and field the value was given for.
        context: String,
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
    /// Line and column (1-based) of a spec error, when the parser knows them.
    pub fn location(&self) -> Option<(usize, usize)> {
        match self {
            DslError::Spec { source, .. } => source.location().map(|l| (l.line(), l.column())),
            DslError::Json { line, column, .. } | DslError::SpecField { line, column, .. } => {
                Some((*line, *column))
            }
            _ => None,
        }
    }

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
