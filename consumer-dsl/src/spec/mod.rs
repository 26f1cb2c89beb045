//! The hand-written spec language (YAML, or JSON of the same shape),
//! compiled into a contract.
//!
//! PLACEHOLDER: being written (issue 2, DSL part).
