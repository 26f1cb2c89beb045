//! End-to-end tests of the `accord` binary: one test binary, one module per command.

mod broker;
mod broker_cmd;
mod contract_cmd;
mod match_cmd;
mod publish_cmd;
mod support;
