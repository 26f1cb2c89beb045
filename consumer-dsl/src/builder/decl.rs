//! Builders of the declarations a consumer relies on: the Agent Card and
//! the MCP tools.

use crate::spec::ast::{
    AgentCardSpec, AnnotationsSpec, CapabilitiesSpec, ExtensionSpec, FieldSpec, InterfaceSpec,
    McpToolSpec, SkillSpec, ToolApprovalSpec, TypeName,
};

/// Builds agent-card expectations.
#[derive(Debug, Default)]
pub struct AgentCardBuilder(pub(crate) AgentCardSpec);

impl AgentCardBuilder {
    fn caps(&mut self) -> &mut CapabilitiesSpec {
        self.0
            .capabilities
            .get_or_insert_with(CapabilitiesSpec::default)
    }

    /// A skill used, by id.
    pub fn skill(mut self, id: impl Into<String>) -> Self {
        self.0.skills.push(SkillSpec {
            id: id.into(),
            ..SkillSpec::default()
        });
        self
    }

    /// A skill with the modes and tags relied on.
    pub fn skill_with(mut self, skill: SkillSpec) -> Self {
        self.0.skills.push(skill);
        self
    }

    /// A default input mode relied on.
    pub fn input_mode(mut self, mode: impl Into<String>) -> Self {
        self.0.input_modes.push(mode.into());
        self
    }

    /// A default output mode relied on.
    pub fn output_mode(mut self, mode: impl Into<String>) -> Self {
        self.0.output_modes.push(mode.into());
        self
    }

    /// Streaming must be declared (or not).
    pub fn streaming(mut self, on: bool) -> Self {
        self.caps().streaming = Some(on);
        self
    }

    /// Push notifications must be declared (or not).
    pub fn push_notifications(mut self, on: bool) -> Self {
        self.caps().push_notifications = Some(on);
        self
    }

    /// The extended card must be declared (or not).
    pub fn extended_agent_card(mut self, on: bool) -> Self {
        self.caps().extended_agent_card = Some(on);
        self
    }

    /// An interface the consumer can use.
    pub fn interface(mut self, binding: impl Into<String>, version: impl Into<String>) -> Self {
        self.0.interfaces.push(InterfaceSpec {
            binding: binding.into(),
            version: version.into(),
        });
        self
    }

    /// An extension used or tolerated.
    pub fn extension(mut self, uri: impl Into<String>, required: Option<bool>) -> Self {
        self.0.extensions.push(ExtensionSpec {
            uri: uri.into(),
            required,
        });
        self
    }

    /// A security scheme the consumer can satisfy.
    pub fn security_scheme(mut self, name: impl Into<String>) -> Self {
        self.0.security_schemes.push(name.into());
        self
    }

    /// The card must be signed by a key the consumer trusts.
    pub fn signed(mut self) -> Self {
        self.0.signed = true;
        self
    }
}

/// Builds one MCP tool expectation.
#[derive(Debug)]
pub struct McpToolBuilder(pub(crate) McpToolSpec);

impl McpToolBuilder {
    pub(crate) fn new(name: String) -> Self {
        McpToolBuilder(McpToolSpec {
            name,
            ..McpToolSpec::default()
        })
    }

    fn ann(&mut self) -> &mut AnnotationsSpec {
        self.0
            .annotations
            .get_or_insert_with(AnnotationsSpec::default)
    }

    /// The tool's display name, as the server lists it (`title`).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.0.title = Some(title.into());
        self
    }

    /// The tool's description, as the server lists it (`description`).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.0.description = Some(description.into());
        self
    }

    /// The client/authorization profile.
    pub fn profile(mut self, profile: impl Into<String>) -> Self {
        self.0.profile = Some(profile.into());
        self
    }

    /// An argument always sent.
    pub fn argument(mut self, name: impl Into<String>, ty: impl Into<FieldSpec>) -> Self {
        self.0.arguments.insert(name.into(), ty.into());
        self
    }

    /// An argument sometimes sent.
    pub fn optional_argument(mut self, name: impl Into<String>, ty: impl Into<FieldSpec>) -> Self {
        self.0.optional_arguments.insert(name.into(), ty.into());
        self
    }

    /// A `structuredContent` field read (`plan_id`, `steps[*].title`).
    pub fn reads(mut self, path: impl Into<String>, ty: impl Into<FieldSpec>) -> Self {
        self.0.reads.insert(path.into(), ty.into());
        self
    }

    /// A `structuredContent` field read whose value the consumer switches
    /// on: the `outputSchema` must keep each of `values`, and a result
    /// must carry one of them.
    pub fn reads_one_of<V: Into<serde_json::Value>>(
        mut self,
        path: impl Into<String>,
        ty: impl Into<TypeName>,
        values: impl IntoIterator<Item = V>,
    ) -> Self {
        let field = FieldSpec {
            ty: ty.into(),
            values: values.into_iter().map(Into::into).collect(),
        };
        self.0.reads.insert(path.into(), field);
        self
    }

    /// The tool commits only with a granted approval; `counter` counts
    /// its commits.
    pub fn requires_approval(mut self, counter: impl Into<String>) -> Self {
        self.0.approval = Some(ToolApprovalSpec {
            counter: counter.into(),
        });
        self
    }

    /// Relies on `readOnlyHint`.
    pub fn read_only(mut self, v: bool) -> Self {
        self.ann().read_only = Some(v);
        self
    }

    /// Relies on `destructiveHint`.
    pub fn destructive(mut self, v: bool) -> Self {
        self.ann().destructive = Some(v);
        self
    }

    /// Relies on `idempotentHint`.
    pub fn idempotent(mut self, v: bool) -> Self {
        self.ann().idempotent = Some(v);
        self
    }

    /// Relies on `openWorldHint`.
    pub fn open_world(mut self, v: bool) -> Self {
        self.ann().open_world = Some(v);
        self
    }
}
