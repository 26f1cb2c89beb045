//! A Rust builder API with the reach of the spec language.
//!
//! PLACEHOLDER: being written (issue 2, DSL part).
