//! The builder of an `A2A/Task`'s delegation record: the spec's
//! `delegation:` block, key for key.

use super::a2a::A2aTaskBuilder;
use crate::spec::ast::{
    AgentsFields, BudgetFields, Checked, CredentialName, DelegationFields, ToolsFields, TraceName,
};

impl A2aTaskBuilder {
    /// What the agent may do downstream on the consumer's behalf (the
    /// spec's `delegation:`); the record also travels in the send's
    /// `message.metadata.delegation`.
    pub fn delegation(mut self, f: impl FnOnce(DelegationBuilder) -> DelegationBuilder) -> Self {
        self.spec.a2a.delegation = Some(Checked(f(DelegationBuilder::default()).0));
        self
    }
}

/// Builds a delegation record (`delegation:`).
#[derive(Debug, Default)]
pub struct DelegationBuilder(DelegationFields);

impl DelegationBuilder {
    fn tools(&mut self) -> &mut ToolsFields {
        &mut self.0.tools.get_or_insert_with(Checked::default).0
    }

    fn budget(&mut self) -> &mut BudgetFields {
        &mut self.0.budget.get_or_insert_with(Checked::default).0
    }

    /// The policy's name (`mode`, e.g. `DRAFT_ONLY`).
    pub fn mode(mut self, mode: impl Into<String>) -> Self {
        self.0.mode = Some(mode.into());
        self
    }

    /// The only MCP tools the agent may call (`tools.allowed`).
    pub fn allowed_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.tools().allowed = Some(tools.into_iter().map(Into::into).collect());
        self
    }

    /// MCP tools the agent must not call (`tools.forbidden`).
    pub fn forbidden_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.tools().forbidden = tools.into_iter().map(Into::into).collect();
        self
    }

    /// Agents the agent must not delegate to (`agents.forbidden`).
    pub fn forbidden_agents<S: Into<String>>(
        mut self,
        agents: impl IntoIterator<Item = S>,
    ) -> Self {
        self.0.agents = Some(Checked(AgentsFields {
            forbidden: agents.into_iter().map(Into::into).collect(),
        }));
        self
    }

    /// The most tool calls (`budget.tool_calls`).
    pub fn tool_calls(mut self, n: u32) -> Self {
        self.budget().tool_calls = Some(n);
        self
    }

    /// The most cost units (`budget.cost_units`).
    pub fn cost_units(mut self, n: u64) -> Self {
        self.budget().cost_units = Some(n);
        self
    }

    /// One call of `tool` costs `units` (`budget.costs`).
    pub fn cost(mut self, tool: impl Into<String>, units: u64) -> Self {
        self.budget().costs.insert(tool.into(), units);
        self
    }

    /// How many agent hops the chain may go below the agent (`max_depth`).
    pub fn max_depth(mut self, n: u32) -> Self {
        self.0.max_depth = Some(n);
        self
    }

    /// How many tasks it may delegate in one interaction (`max_fan_out`).
    pub fn max_fan_out(mut self, n: u32) -> Self {
        self.0.max_fan_out = Some(n);
        self
    }

    /// No downstream call later than this after the send (`deadline_ms`).
    pub fn deadline_ms(mut self, ms: u64) -> Self {
        self.0.deadline_ms = Some(ms);
        self
    }

    /// Every downstream call continues the trace (`trace: propagate`).
    pub fn propagate_trace(mut self) -> Self {
        self.0.trace = Some(TraceName::Propagate);
        self
    }

    /// The consumer's credential never reaches a dependency
    /// (`credential: not_forwarded`).
    pub fn credential_not_forwarded(mut self) -> Self {
        self.0.credential = Some(CredentialName::NotForwarded);
        self
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::{Common, ContractBuilder};
    use crate::spec::{NoSchemaFiles, compile_spec};

    #[test]
    fn the_builder_states_a_delegation_like_the_spec() {
        let built = ContractBuilder::new("orchestrator", "planning-agent")
            .principal("alice", "tenant-a")
            .a2a_task("draft only", |t| {
                t.as_principal("alice").send_text("plan").delegation(|d| {
                    d.mode("DRAFT_ONLY")
                        .allowed_tools(["meeting.search", "policy.check"])
                        .forbidden_tools(["ticket.create"])
                        .forbidden_agents(["billing-agent"])
                        .tool_calls(5)
                        .cost_units(10)
                        .cost("meeting.search", 2)
                        .max_depth(1)
                        .max_fan_out(2)
                        .deadline_ms(30000)
                        .propagate_trace()
                        .credential_not_forwarded()
                })
            })
            .build()
            .expect("valid");
        let spec = r#"
consumer: orchestrator
provider: planning-agent
principals: { alice: { tenant: tenant-a } }
interactions:
  - a2a: draft only
    as: alice
    send: { text: plan }
    delegation:
      mode: DRAFT_ONLY
      tools: { allowed: [meeting.search, policy.check], forbidden: [ticket.create] }
      agents: { forbidden: [billing-agent] }
      budget: { tool_calls: 5, cost_units: 10, costs: { meeting.search: 2 } }
      max_depth: 1
      max_fan_out: 2
      deadline_ms: 30000
      trace: propagate
      credential: not_forwarded
"#;
        let from_spec = compile_spec(spec, "t.yaml", &NoSchemaFiles).expect("compiles");
        assert_eq!(built, from_spec);
    }
}
