//! A Rust builder API with the reach of the spec language.
//!
//! The builder fills the same document types the spec parser produces
//! ([`crate::spec::ast`]) and lowers them with the same code, so a builder
//! and a spec file with the same content yield identical contracts. Values
//! take the spec's inline matcher syntax as JSON (see [`m`] for helpers):
//!
//! ```
//! use accord_dsl::builder::{Common, ContractBuilder, m};
//! use accord_dsl::model::accord::TaskState;
//! use serde_json::json;
//!
//! let contract = ContractBuilder::new("orchestrator", "planning-agent")
//!     .principal("alice", "tenant-a")
//!     .a2a_task("create a draft plan", |t| {
//!         t.as_principal("alice")
//!             .given("reset")
//!             .send_data(json!({"tenant_id": "tenant-a", "items": [{"title": "x"}]}))
//!             .expect_state(TaskState::Working)
//!             .expect_artifact(|a| a.media_type("application/json").data(json!({"plan_id": m::like("plan-1")})))
//!             .expect_state(TaskState::Completed)
//!             .side_effect("records", 1)
//!     })
//!     .build()
//!     .expect("a valid contract");
//! assert_eq!(contract.interactions.len(), 1);
//! ```

mod a2a;
mod a2a_delegation;
mod a2a_follow_up;
mod a2a_parts;
mod common;
mod decl;
pub mod m;
mod other;

/// Everything a builder user needs in scope.
pub mod prelude {
    pub use super::{Common, ContractBuilder, m};
    pub use crate::model::accord::{A2aErrorReason, A2aOperation, Credential, JsonType, TaskState};
    pub use crate::spec::ast::TypeName;
}

pub use a2a::{
    A2aTaskBuilder, ArtifactBuilder, CancelBuilder, ErrorBuilder, FollowUpBuilder, PushBuilder,
};
pub use a2a_delegation::DelegationBuilder;
pub use common::Common;
pub use decl::{AgentCardBuilder, McpToolBuilder};
pub use other::{HttpBuilder, McpCallBuilder, MessageBuilder};

use serde_json::Value;

use crate::spec::ast::{InteractionSpec, Kind, SpecDocument};
use crate::spec::{NoSchemaFiles, PrincipalSpec, SchemaResolver, Template, lower};
use crate::{Contract, DslError};

/// Builds a contract in Rust.
#[derive(Debug, Default)]
pub struct ContractBuilder {
    doc: SpecDocument,
    errors: Vec<ErrorSlot>,
}

/// A deferred error from converting a builder value (reported by `build`).
#[derive(Debug)]
pub(crate) struct ErrorSlot {
    context: String,
    source: serde_json::Error,
}

/// A piece of the spec document from JSON of the spec's shape (the
/// builder's escape hatch: every spec key is reachable this way).
pub(crate) fn spec_part<T: serde::de::DeserializeOwned>(
    errors: &mut Vec<ErrorSlot>,
    context: &str,
    v: Value,
) -> Option<T> {
    serde_json::from_value(v)
        .map_err(|e| {
            errors.push(ErrorSlot {
                context: context.to_string(),
                source: e,
            })
        })
        .ok()
}

pub(crate) fn template(errors: &mut Vec<ErrorSlot>, context: &str, v: Value) -> Template {
    Template::from_json(v).unwrap_or_else(|e| {
        errors.push(ErrorSlot {
            context: context.to_string(),
            source: e,
        });
        Template::Literal(Value::Null)
    })
}

impl ContractBuilder {
    /// A contract between `consumer` and `provider`.
    pub fn new(consumer: impl Into<String>, provider: impl Into<String>) -> Self {
        let doc = SpecDocument {
            consumer: consumer.into(),
            provider: provider.into(),
            ..SpecDocument::default()
        };
        ContractBuilder {
            doc,
            errors: Vec::new(),
        }
    }

    /// Pins the MCP protocol version (default `2026-07-28`).
    pub fn mcp_version(mut self, version: impl Into<String>) -> Self {
        self.doc.protocols.mcp = Some(version.into());
        self
    }

    /// Declares a principal and its tenant.
    pub fn principal(mut self, name: impl Into<String>, tenant: impl Into<String>) -> Self {
        self.doc.principals.insert(
            name.into(),
            PrincipalSpec {
                tenant: Some(tenant.into()),
            },
        );
        self
    }

    /// What the consumer relies on in the Agent Card.
    pub fn agent_card(mut self, f: impl FnOnce(AgentCardBuilder) -> AgentCardBuilder) -> Self {
        self.doc.agent_card = Some(f(AgentCardBuilder::default()).0);
        self
    }

    /// An MCP tool the consumer depends on.
    pub fn mcp_tool(
        mut self,
        name: impl Into<String>,
        f: impl FnOnce(McpToolBuilder) -> McpToolBuilder,
    ) -> Self {
        self.doc
            .mcp_tools
            .push(f(McpToolBuilder::new(name.into())).0);
        self
    }

    fn push(mut self, spec: InteractionSpec, errors: Vec<ErrorSlot>) -> Self {
        self.doc.interactions.push(spec);
        self.errors.extend(errors);
        self
    }

    /// An `A2A/Task` interaction.
    pub fn a2a_task(
        self,
        description: impl Into<String>,
        f: impl FnOnce(A2aTaskBuilder) -> A2aTaskBuilder,
    ) -> Self {
        let b = f(A2aTaskBuilder::new(Kind::A2a(description.into())));
        self.push(b.spec, b.errors)
    }

    /// An `MCP/ToolCall` interaction.
    pub fn mcp_tool_call(
        self,
        description: impl Into<String>,
        f: impl FnOnce(McpCallBuilder) -> McpCallBuilder,
    ) -> Self {
        let b = f(McpCallBuilder::new(Kind::Mcp(description.into())));
        self.push(b.spec, b.errors)
    }

    /// A `Synchronous/HTTP` interaction.
    pub fn http(
        self,
        description: impl Into<String>,
        f: impl FnOnce(HttpBuilder) -> HttpBuilder,
    ) -> Self {
        let b = f(HttpBuilder::new(Kind::Http(description.into())));
        self.push(b.spec, b.errors)
    }

    /// An `Asynchronous/Messages` interaction.
    pub fn message(
        self,
        description: impl Into<String>,
        f: impl FnOnce(MessageBuilder) -> MessageBuilder,
    ) -> Self {
        let b = f(MessageBuilder::new(Kind::Message(description.into())));
        self.push(b.spec, b.errors)
    }

    /// A `Synchronous/Messages` interaction.
    pub fn sync_message(
        self,
        description: impl Into<String>,
        f: impl FnOnce(MessageBuilder) -> MessageBuilder,
    ) -> Self {
        let b = f(MessageBuilder::new(Kind::SyncMessage(description.into())));
        self.push(b.spec, b.errors)
    }

    /// The contract; schemas must be inline.
    pub fn build(self) -> Result<Contract, DslError> {
        self.build_with(&NoSchemaFiles)
    }

    /// The contract, loading schema files through `resolver`.
    pub fn build_with(self, resolver: &dyn SchemaResolver) -> Result<Contract, DslError> {
        if let Some(e) = self.errors.into_iter().next() {
            return Err(DslError::BuilderValue {
                context: e.context,
                source: e.source,
            });
        }
        lower(&self.doc, "builder", resolver)
    }

    /// The document built so far (what a spec file with the same content parses to).
    pub fn document(&self) -> &SpecDocument {
        &self.doc
    }
}
