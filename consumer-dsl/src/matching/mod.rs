//! The Pact matching engine.
//!
//! PLACEHOLDER: being written (issue 2, matching part).

mod rules;

pub use rules::MatchingRules;
