//! Pact-Broker-compatible contract broker (lands with the broker issue).
//!
//! This crate is an empty library until its issue lands: nothing here pretends to work.
