//! `accord-dsl`: the contract model Accord's broker, verifier and mock share.
//!
//! - [`model`]: the contract document — Pact V4 interactions plus Accord's
//!   `A2A/Task` and `MCP/ToolCall` — as plain domain types.
//! - [`pact`]: reading Pact files of specification V1–V4 (upgraded to the V4
//!   model in memory) and writing V4, keeping unknown attributes.
//! - [`matching`]: the Pact matching engine (every V4 rule), producing
//!   mismatches as data.
//! - [`generators`]: values generated at replay time.
//! - [`canonical`]: RFC 8785 canonical JSON and the contract digest.
//! - [`spec`]: the hand-written YAML/JSON spec language, compiled to a contract.
//! - [`builder`]: the same reach as a Rust builder API.
//!
//! This crate is pure: no I/O beyond what callers hand it, no async runtime.

pub mod builder;
pub mod canonical;
pub mod error;
pub mod generators;
pub mod matching;
pub mod model;
pub mod objects;
pub mod pact;
pub mod schema;
pub mod spec;
mod suggest;

pub use error::DslError;
pub use model::{Contract, Interaction, PactSpec};
