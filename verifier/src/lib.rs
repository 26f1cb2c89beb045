//! Replays contracts against a running provider (lands with the verifier issue).
//!
//! This crate is an empty library until its issue lands: nothing here pretends to work.
