//! The verifier against the reference provider of `accord-fixtures`, on loopback.

mod a2a_attribute_pairs;
mod a2a_attribute_pairs_more;
mod a2a_attribute_pairs_repeat;
mod a2a_attributes;
mod a2a_capabilities;
mod a2a_card;
mod a2a_follow_up;
mod a2a_hostile;
mod a2a_origin;
mod a2a_task;
mod a2a_task_cases;
mod expectations;
mod hostile;
mod http;
mod mcp;
mod mcp_attribute_pairs;
mod mcp_attributes;
mod mcp_contract;
mod mcp_listing;
mod mcp_tasks;
mod messages;
mod side_effects;
mod state_equality;
mod states;
mod support;
mod walk;
