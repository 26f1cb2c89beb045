//! MCP verification: the `MCP/ToolCall` driver over Streamable HTTP, in the
//! era the contract pins (`metadata.accord.mcp`): 2026-07-28, or
//! 2025-11-25 / 2025-06-18.

mod canon;
mod claims;
mod contract;
pub mod diff;
mod digest;
pub mod driver;
mod enums;
mod follow;
mod headers;
pub mod hints;
pub mod judge;
mod list;
pub mod listing;
pub mod logs;
mod outgoing;
mod page;
mod plug;
mod probe;
pub mod progress;
pub mod read;
mod resend;
pub(crate) mod schemas;
mod sent;
mod sse;
pub mod surface;
pub mod task;
#[cfg(test)]
mod test_reply;
mod variants;
pub mod wire;
#[cfg(test)]
mod wire_tests;

pub use driver::McpDriver;
pub use wire::Era;
