//! The Pact matching engine.
//!
//! - [`rule`]: the rules ([`MatchingRule`]), [`rules`]: rule lists and
//!   categories ([`MatchingRules`]), [`path`]: rule paths and their weights.
//! - Comparators: JSON ([`match_json`]), XML, text and bytes bodies;
//!   headers, query, path, method, status; message metadata. They return
//!   [`Mismatch`]es: data, never errors.

mod check;
mod content_type;
mod datetime;
mod json;
mod mismatch;
mod regex;

pub mod path;
pub mod rule;
pub mod rules;

pub use content_type::{ContentKind, MediaType, content_kind};
pub use json::{MAX_DEPTH, match_json};
pub use mismatch::{Mismatch, MismatchKind};
pub use path::{DocPath, PathError, PathToken};
pub use regex::PactRegex;
pub use rule::{ArrayContainsVariant, MatchingRule, StatusClass};
pub use rules::{Category, Combine, MatchingRules, PathRules, RuleError, RuleList};
