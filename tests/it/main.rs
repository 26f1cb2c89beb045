//! End-to-end tests of the `accord` binary: one test binary, one module
//! per command.

mod match_cmd;
