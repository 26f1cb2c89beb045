//! The integration tests of `accord-dsl`: one binary, one module per area.

mod conformance;
mod no_panic;
mod pact_files;
mod spec_files;
mod support;
