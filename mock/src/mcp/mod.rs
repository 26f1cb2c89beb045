//! The MCP server built from the contract's `MCP/ToolCall` interactions
//! and `mcpTools`: Streamable HTTP at [`PATH`], both eras on one endpoint.
//! (Being written.)

use accord_dsl::Contract;
use actix_web::{HttpRequest, HttpResponse};

use crate::Shared;
use crate::report::Wanted;

/// The endpoint.
pub(crate) const PATH: &str = "/mcp";

/// What the MCP surface answers with.
#[derive(Debug)]
pub(crate) struct McpSurface {}

impl McpSurface {
    /// The surface of `contract`, if it has MCP interactions or `mcpTools`
    /// (none yet: the surface is being written).
    pub(crate) fn of(_contract: &Contract) -> Option<McpSurface> {
        None
    }

    /// Whether it answers `path`.
    pub(crate) fn serves(&self, path: &str) -> bool {
        path == PATH
    }

    /// The expected interactions, for the report.
    pub(crate) fn wanted(&self) -> Vec<Wanted> {
        Vec::new()
    }

    /// Answers one request to the endpoint (`body` read within the limit).
    pub(crate) async fn answer(
        &self,
        _shared: &Shared,
        _req: &HttpRequest,
        _body: Vec<u8>,
    ) -> HttpResponse {
        HttpResponse::NotImplemented().finish()
    }
}
