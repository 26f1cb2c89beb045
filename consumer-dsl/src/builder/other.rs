//! Builders of `MCP/ToolCall`, `Synchronous/HTTP` and message interactions.

use serde_json::Value;

use super::a2a::ErrorBuilder;
use super::common::Common;
use super::{ErrorSlot, spec_part, template};
use crate::spec::OneOrMany;
use crate::spec::ast::{
    CommonSpec, HttpRequestSpec, HttpResponseSpec, InteractionSpec, Kind, McpExpectSpec,
    MessageBodySpec,
};

macro_rules! common_builder {
    ($name:ident) => {
        impl Common for $name {
            fn common(&mut self) -> &mut CommonSpec {
                &mut self.spec.common
            }
        }

        impl $name {
            pub(crate) fn new(kind: Kind) -> Self {
                $name {
                    spec: InteractionSpec {
                        kind,
                        ..InteractionSpec::default()
                    },
                    errors: Vec::new(),
                }
            }
        }
    };
}

/// Builds an `MCP/ToolCall` interaction.
#[derive(Debug)]
pub struct McpCallBuilder {
    pub(crate) spec: InteractionSpec,
    pub(crate) errors: Vec<ErrorSlot>,
}
common_builder!(McpCallBuilder);

impl McpCallBuilder {
    fn expect(&mut self) -> &mut McpExpectSpec {
        self.spec
            .mcp
            .expect
            .get_or_insert_with(McpExpectSpec::default)
    }

    /// The tool called.
    pub fn tool(mut self, name: impl Into<String>) -> Self {
        self.spec.mcp.tool = Some(name.into());
        self
    }

    /// The arguments (inline matchers allowed).
    pub fn arguments(mut self, arguments: Value) -> Self {
        self.spec.mcp.arguments = Some(template(&mut self.errors, "arguments", arguments));
        self
    }

    /// Expected `structuredContent`.
    pub fn expect_structured(mut self, structured: Value) -> Self {
        let t = template(&mut self.errors, "expect.structured", structured);
        self.expect().structured = Some(t);
        self
    }

    /// Expected single text block.
    pub fn expect_text(mut self, text: Value) -> Self {
        let t = template(&mut self.errors, "expect.text", text);
        self.expect().text = Some(t);
        self
    }

    /// Expected content blocks (`[{"type": "text", "text": …}]`).
    pub fn expect_content(mut self, blocks: Vec<Value>) -> Self {
        let t = blocks
            .into_iter()
            .map(|b| template(&mut self.errors, "expect.content", b))
            .collect();
        self.expect().content = Some(t);
        self
    }

    /// The consumer's own JSON Schema (2020-12) of `structuredContent`
    /// (inline; a schema file needs the spec language).
    pub fn expect_schema(mut self, schema: Value) -> Self {
        self.expect().schema = Some(crate::spec::ast::SchemaSpec::Inline(schema));
        self
    }

    /// A text block carries the same JSON as `structuredContent`.
    pub fn content_matches_structured(mut self) -> Self {
        self.expect().content_matches_structured = true;
        self
    }

    /// A tool execution error (`isError: true`), retryable or not.
    pub fn expect_tool_error(mut self, retryable: Option<bool>) -> Self {
        let e = self.expect();
        e.is_error = true;
        e.retryable = retryable;
        self
    }

    /// A `notifications/progress` relied on before the answer (the call
    /// is sent with a progress token); `progress` increases.
    pub fn progress(
        mut self,
        progress: impl Into<serde_json::Number>,
        total: Option<serde_json::Number>,
    ) -> Self {
        self.spec.mcp.progress.push(crate::spec::ast::ProgressSpec {
            progress: progress.into(),
            total,
            message: None,
        });
        self
    }

    /// A JSON-RPC protocol error instead of a result.
    pub fn protocol_error(mut self, f: impl FnOnce(ErrorBuilder) -> ErrorBuilder) -> Self {
        self.spec.mcp.error = Some(f(ErrorBuilder::default()).0);
        self
    }
}

/// Builds a `Synchronous/HTTP` interaction.
#[derive(Debug)]
pub struct HttpBuilder {
    pub(crate) spec: InteractionSpec,
    pub(crate) errors: Vec<ErrorSlot>,
}
common_builder!(HttpBuilder);

impl HttpBuilder {
    fn req(&mut self) -> &mut HttpRequestSpec {
        self.spec
            .http
            .request
            .get_or_insert_with(HttpRequestSpec::default)
    }

    fn resp(&mut self) -> &mut HttpResponseSpec {
        self.spec
            .http
            .response
            .get_or_insert_with(|| HttpResponseSpec {
                status: crate::spec::Template::Literal(200.into()),
                ..HttpResponseSpec::default()
            })
    }

    /// Method and path (the path may be a matcher, e.g. `m::from_state`).
    pub fn request(mut self, method: impl Into<String>, path: impl Into<Value>) -> Self {
        let p = template(&mut self.errors, "request.path", path.into());
        let r = self.req();
        r.method = method.into();
        r.path = p;
        self
    }

    /// A query parameter.
    pub fn query(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        let t = template(&mut self.errors, "request.query", value.into());
        self.req().query.insert(name.into(), OneOrMany::One(t));
        self
    }

    /// A request header.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        let t = template(&mut self.errors, "request.headers", value.into());
        self.req().headers.insert(name.into(), t);
        self
    }

    /// The request body.
    pub fn body(mut self, body: Value) -> Self {
        let t = template(&mut self.errors, "request.body", body);
        self.req().body = Some(t);
        self
    }

    /// The request body's content type (default JSON).
    pub fn content_type(mut self, content_type: impl Into<String>) -> Self {
        self.req().content_type = Some(content_type.into());
        self
    }

    /// The response body's content type (default JSON).
    pub fn response_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.resp().content_type = Some(content_type.into());
        self
    }

    /// The response status (a number, or a `$statusCode` matcher).
    pub fn status(mut self, status: impl Into<Value>) -> Self {
        let t = template(&mut self.errors, "response.status", status.into());
        self.resp().status = t;
        self
    }

    /// A response header.
    pub fn response_header(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        let t = template(&mut self.errors, "response.headers", value.into());
        self.resp().headers.insert(name.into(), t);
        self
    }

    /// The response body.
    pub fn response_body(mut self, body: Value) -> Self {
        let t = template(&mut self.errors, "response.body", body);
        self.resp().body = Some(t);
        self
    }
}

/// Builds an `Asynchronous/Messages` or `Synchronous/Messages` interaction.
#[derive(Debug)]
pub struct MessageBuilder {
    pub(crate) spec: InteractionSpec,
    pub(crate) errors: Vec<ErrorSlot>,
}
common_builder!(MessageBuilder);

impl MessageBuilder {
    /// The contents (the request, for a synchronous message).
    pub fn contents(mut self, contents: Value) -> Self {
        self.spec.message.contents = Some(template(&mut self.errors, "contents", contents));
        self
    }

    /// The metadata.
    pub fn metadata(mut self, metadata: Value) -> Self {
        self.spec.message.metadata = Some(template(&mut self.errors, "metadata", metadata));
        self
    }

    /// The contents' content type (default JSON).
    pub fn content_type(mut self, content_type: impl Into<String>) -> Self {
        self.spec.message.content_type = Some(content_type.into());
        self
    }

    /// A response message with metadata and content type, in the spec's
    /// shape: `{"contents": …, "metadata": …, "content_type": …}`.
    pub fn response_with(mut self, response: Value) -> Self {
        if let Some(r) = spec_part::<MessageBodySpec>(&mut self.errors, "responses", response) {
            self.spec.message.responses.push(r);
        }
        self
    }

    /// A response message (synchronous messages).
    pub fn response(mut self, contents: Value) -> Self {
        let contents = template(&mut self.errors, "responses.contents", contents);
        self.spec.message.responses.push(MessageBodySpec {
            contents,
            metadata: None,
            content_type: None,
        });
        self
    }
}
