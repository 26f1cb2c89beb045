//! Loading JSON Schemas a spec refers to by path. The library does no
//! I/O: the caller (the CLI, a test) hands in a resolver.

use serde_json::Value;

/// The error a resolver returns.
pub type ResolveError = Box<dyn std::error::Error + Send + Sync>;

/// Loads the JSON Schema a spec refers to (`schema: schemas/work-plan.json`).
pub trait SchemaResolver {
    /// The schema at `reference` (as written in the spec; relative paths are
    /// relative to the spec file).
    fn resolve(&self, reference: &str) -> Result<Value, ResolveError>;
}

/// A resolver that refuses every reference: for specs with inline schemas
/// only.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoSchemaFiles;

/// Why [`NoSchemaFiles`] refused.
#[derive(Debug, thiserror::Error)]
#[error(
    "schema files cannot be loaded here; inline the schema or compile the spec with a file resolver"
)]
pub struct SchemaFilesUnavailable;

impl SchemaResolver for NoSchemaFiles {
    fn resolve(&self, _reference: &str) -> Result<Value, ResolveError> {
        Err(Box::new(SchemaFilesUnavailable))
    }
}

impl<F> SchemaResolver for F
where
    F: Fn(&str) -> Result<Value, ResolveError>,
{
    fn resolve(&self, reference: &str) -> Result<Value, ResolveError> {
        self(reference)
    }
}
