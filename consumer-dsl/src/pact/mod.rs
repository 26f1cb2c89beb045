//! Reading Pact files (V1–V4, upgraded to the V4 model) and writing V4.
//!
//! - [`read_contract`] / [`from_value`]: a Pact file of any specification
//!   version, or an Accord contract, into a [`crate::Contract`];
//! - [`to_v4_json`] / [`write_contract`]: the contract as Pact V4 with
//!   Accord's extensions; a round trip keeps unknown attributes;
//! - [`lint`]: problems beyond shape (duplicates, missing protocol pins)
//!   and a summary by interaction type;
//! - [`parts`]: one request, response or message of any specification
//!   version (the shapes the pact-specification test cases use).

mod json;
mod lint;
mod lint_accord;
mod lint_delegation;
mod lint_expectations;
mod lint_generators;
mod lint_keys;
pub mod parts;
mod read;
mod read_interaction;
mod read_parallel;
mod read_typed;
mod write;
mod write_parts;

pub use lint::{
    BLOCKING, LintProblem, Severity, Summary, blocking, blocking_among, lint, summarize,
};
pub use read::{
    A2A_VERSION, JSON_SCHEMA_VERSION, MCP_VERSIONS, detect_spec, from_value, parse_json,
    read_contract,
};
pub use read_interaction::INTERACTION_TYPES;
pub use read_parallel::{PARALLEL_FROM_BYTES, read_contract_parallel};
pub use write::{accord_metadata, contract_digest, interaction_to_v4, to_v4_json, write_contract};
pub use write_parts::{body_to_v4, message_to_v4, request_to_v4, response_to_v4};

#[cfg(test)]
mod round_trip_tests;
