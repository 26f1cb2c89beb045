//! The Pact matching engine.

mod content_type;
mod rules;

pub use content_type::{ContentKind, MediaType, content_kind};
pub use rules::MatchingRules;
