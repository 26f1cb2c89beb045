//! The Pact matching engine.
//!
//! - [`rule`]: the rules ([`MatchingRule`]), [`rules`]: rule lists and
//!   categories ([`MatchingRules`]), [`path`]: rule paths and their weights.
//! - Comparators: JSON ([`match_json`]), XML, text and bytes bodies;
//!   headers, query, path, method, status; message metadata. They return
//!   [`Mismatch`]es: data, never errors.

mod body;
mod check;
mod content_type;
mod datetime;
mod http;
mod json;
mod message;
mod mismatch;
mod regex;
mod xml;

#[cfg(test)]
mod fuzz_tests;

pub mod path;
pub mod rule;
pub mod rules;

pub use body::match_body;
pub use content_type::{ContentKind, MediaType, content_kind};
pub use http::{match_headers, match_request, match_request_for, match_response};
pub use json::{MAX_DEPTH, match_json};
pub use message::{match_message, match_metadata};
pub use mismatch::{Mismatch, MismatchKind};
pub use path::{DocPath, PathError, PathToken};
pub use regex::PactRegex;
pub use rule::{ArrayContainsVariant, MatchingRule, StatusClass};
pub use rules::{Category, Combine, MatchingRules, PathRules, RuleError, RuleList};
pub use xml::match_xml;
