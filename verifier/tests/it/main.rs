//! The verifier against the reference provider of `accord-fixtures`, on loopback.

mod hostile;
mod http;
mod mcp;
mod mcp_attributes;
mod messages;
mod side_effects;
mod states;
mod support;
