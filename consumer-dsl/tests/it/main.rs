//! The integration tests of `accord-dsl`: one binary, one module per area.

mod conformance;
mod throughput;
