//! The hand-written spec language (YAML, or JSON of the same shape),
//! compiled into a contract.

pub mod matcher;
mod matcher_kinds;
pub mod path;
pub mod template;

pub use path::PactPath;
pub use template::{Compiled, Template};

#[cfg(test)]
mod matcher_tests;
