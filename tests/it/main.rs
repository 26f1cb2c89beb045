//! End-to-end tests of the `accord` binary: one test binary, one module per command.

mod broker;
mod broker_cmd;
mod broker_crash;
mod can_i_deploy_cmd;
mod contract_cmd;
mod fake_broker;
mod match_cmd;
mod mock_a2a;
mod mock_cmd;
mod pact_cli;
mod peers;
mod peers_a2a;
mod peers_mcp;
mod publish_cmd;
mod resources_cmd;
mod support;
mod token_cmd;
mod verdicts_vs_pact;
mod verify_a2a;
mod verify_broker;
mod verify_cmd;
mod verify_legacy;
mod verify_mcp;
mod verify_tags;
mod walkthrough;
