//! `Synchronous/HTTP` interactions.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::{Body, InteractionMeta};
use crate::generators::Generators;
use crate::matching::MatchingRules;

/// Query parameters: name → values, in the order written.
pub type Query = IndexMap<String, Vec<String>>;
/// Headers: name (as written) → values, in the order written.
pub type Headers = IndexMap<String, Vec<String>>;

/// An HTTP request as expected by the consumer (or as actually received).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HttpRequest {
    pub method: String,
    pub path: String,
    /// `None` when the document has no `query` attribute.
    pub query: Option<Query>,
    /// `None` when the document has no `headers` attribute.
    pub headers: Option<Headers>,
    pub body: Body,
    pub matching_rules: MatchingRules,
    pub generators: Generators,
    /// Attributes this version of Accord does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

/// An HTTP response as expected by the consumer (or as actually returned).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Option<Headers>,
    pub body: Body,
    pub matching_rules: MatchingRules,
    pub generators: Generators,
    pub extra: Map<String, Value>,
}

/// One request/response pair.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HttpInteraction {
    pub meta: InteractionMeta,
    pub request: HttpRequest,
    pub response: HttpResponse,
}
