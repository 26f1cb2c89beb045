//! The Pact matching engine.
//!
//! - [`rule`]: the rules ([`MatchingRule`]), [`rules`]: rule lists and
//!   categories ([`MatchingRules`]), [`path`]: rule paths and their weights.
//! - Comparators: [`match_request`], [`match_response`], [`match_message`]
//!   for whole parts; [`match_json`] for any JSON (A2A artifact data, MCP
//!   `structuredContent`); [`match_xml`], [`match_body`], [`match_headers`],
//!   [`match_metadata`]. They return [`Mismatch`]es: data, never errors.
//!
//! Semantics follow the pact-specification cases (all 803 agree, see
//! `tests/it/conformance.rs`) and pact-reference's sentences. In short:
//! responses and messages may carry unexpected keys, requests may not; a
//! rule applies to its path and everything below it, and the most specific
//! path wins; type rules make lists compare item by item against the
//! example (within min/max); regexes must match the whole value.
//!
//! ```
//! use accord_dsl::PactSpec;
//! use accord_dsl::matching::{MatchingRules, match_json};
//! use serde_json::json;
//!
//! let rules = MatchingRules::from_pact_json(
//!     &json!({"body": {"$.items": {"matchers": [{"match": "type", "min": 1}]}}}),
//!     PactSpec::V4,
//! )?;
//! let body = rules.body().cloned().unwrap_or_default();
//! let expected = json!({"items": [{"id": 1}]});
//! assert!(match_json(&expected, &json!({"items": [{"id": 7}, {"id": 8}]}), &body, true).is_empty());
//! let mismatches = match_json(&expected, &json!({"items": [{"id": "7"}]}), &body, true);
//! assert_eq!(mismatches[0].path, "$.items[0].id");
//! # Ok::<(), accord_dsl::DslError>(())
//! ```

mod body;
mod check;
mod content_type;
mod datetime;
mod http;
mod json;
mod message;
mod mismatch;
mod multipart;
mod regex;
mod xml;
mod xml_guard;

#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod semantics_tests;
#[cfg(test)]
mod semantics_text_tests;
#[cfg(test)]
mod sentence_tests;

pub mod path;
pub mod rule;
mod rule_read;
pub mod rules;

pub use body::match_body;
pub use content_type::{ContentKind, MediaType, content_kind};
pub use http::{match_headers, match_request, match_request_for, match_response};
pub use json::{MAX_DEPTH, match_json};
pub use message::{match_message, match_metadata};
pub use mismatch::{KeyNames, Mismatch, MismatchKind};
pub use path::{DocPath, PathError, PathToken};
pub use regex::{PactRegex, RegexError, SearchRegex, from_java as java_regex_to_rust};
pub use rule::{ArrayContainsVariant, EachRules, MatchingRule, StatusClass};
pub use rules::{Category, Combine, MatchingRules, PathRules, RuleError, RuleList};
pub use xml::match_xml;
