//! End-to-end tests of the `accord` binary: one test binary, one module per command.

mod contract_cmd;
mod match_cmd;
mod support;
