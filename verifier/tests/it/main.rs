//! The verifier against the reference provider of `accord-fixtures`, on loopback.

mod a2a_card;
mod hostile;
mod http;
mod mcp;
mod mcp_attributes;
mod messages;
mod side_effects;
mod states;
mod support;
