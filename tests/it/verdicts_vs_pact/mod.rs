//! Differential tests of `accord verify`'s verdicts against the official
//! Pact verifier (`pact verifier`, found through `ACCORD_PACT_CLI`).
//!
//! Each case is one interaction plus what the provider serves for it (and,
//! for request cases, what the provider insists on receiving). A table of
//! cases becomes one pact file, so both verifiers start once per table.
//! Per interaction the test asserts that Accord's verdict is the expected
//! one (for a failure: layer, reason code and path) and that Pact's agrees,
//! unless the case records why Pact is wrong.

mod bodies;
mod bodies_v4;
mod edges;
mod harness;
mod http;
mod messages;
mod requests;
mod runs;
mod states;
