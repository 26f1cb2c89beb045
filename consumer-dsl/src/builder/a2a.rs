//! Builders of `A2A/Task` interactions and their parts.

use serde_json::Value;

pub use super::a2a_follow_up::FollowUpBuilder;
pub use super::a2a_parts::{CancelBuilder, ErrorBuilder, PushBuilder};
use super::common::Common;
use super::{ErrorSlot, spec_part, template};
use crate::model::accord::{A2aOperation, TaskState};
use crate::spec::StateName;
use crate::spec::ast::{
    ArtifactSpec, CommonSpec, InteractionSpec, Kind, PartSpec, ResponseName, SchemaSpec, SendSpec,
    StepSpec,
};

/// Builds an `A2A/Task` interaction.
#[derive(Debug)]
pub struct A2aTaskBuilder {
    pub(crate) spec: InteractionSpec,
    pub(crate) errors: Vec<ErrorSlot>,
}

impl Common for A2aTaskBuilder {
    fn common(&mut self) -> &mut CommonSpec {
        &mut self.spec.common
    }
}

impl A2aTaskBuilder {
    pub(crate) fn new(kind: Kind) -> Self {
        A2aTaskBuilder {
            spec: InteractionSpec {
                kind,
                ..InteractionSpec::default()
            },
            errors: Vec::new(),
        }
    }

    fn send(&mut self) -> &mut SendSpec {
        self.spec.a2a.send.get_or_insert_with(SendSpec::default)
    }

    /// The skill addressed.
    pub fn skill(mut self, skill: impl Into<String>) -> Self {
        self.spec.a2a.skill = Some(skill.into());
        self
    }

    /// A data part (inline matchers allowed).
    pub fn send_data(mut self, data: Value) -> Self {
        let t = template(&mut self.errors, "send.data", data);
        self.send().data = Some(t);
        self
    }

    /// A text part.
    pub fn send_text(mut self, text: impl Into<Value>) -> Self {
        let t = template(&mut self.errors, "send.text", text.into());
        self.send().text = Some(t);
        self
    }

    /// The media type of the data part.
    pub fn send_media_type(mut self, media_type: impl Into<String>) -> Self {
        self.send().media_type = Some(media_type.into());
        self
    }

    /// Another part, in the spec's shape: `{"url": …, "media_type": …}`.
    pub fn send_part(mut self, part: Value) -> Self {
        if let Some(p) = spec_part::<PartSpec>(&mut self.errors, "send.parts", part) {
            self.send().parts.push(p);
        }
        self
    }

    /// Any other `send` key, in the spec's shape (`context_id`, `task_id`,
    /// `message_id`, `reference_task_ids`, `extensions`, `metadata`,
    /// `history_length`): merged over what is set so far.
    pub fn send_with(mut self, keys: Value) -> Self {
        let base = std::mem::take(self.send());
        let mut merged = spec_part::<SendSpec>(&mut self.errors, "send", keys).unwrap_or_default();
        merged.stream |= base.stream;
        merged.return_immediately |= base.return_immediately;
        merged.text = merged.text.or(base.text);
        merged.data = merged.data.or(base.data);
        merged.media_type = merged.media_type.or(base.media_type);
        merged.parts = [base.parts, merged.parts].concat();
        merged.a2a_version = merged.a2a_version.or(base.a2a_version);
        if merged.accepted_output_modes.is_empty() {
            merged.accepted_output_modes = base.accepted_output_modes;
        }
        *self.send() = merged;
        self
    }

    /// `SendStreamingMessage` instead of `SendMessage`.
    pub fn streaming(mut self) -> Self {
        self.send().stream = true;
        self
    }

    /// Send with this `A2A-Version` header instead of the pinned `1.0`
    /// (`""`: none, read as 0.3); anything but 1.x must be expected to fail
    /// with `VERSION_NOT_SUPPORTED`.
    pub fn a2a_version(mut self, version: impl Into<String>) -> Self {
        self.send().a2a_version = Some(version.into());
        self
    }

    /// `configuration.returnImmediately`.
    pub fn return_immediately(mut self) -> Self {
        self.send().return_immediately = true;
        self
    }

    /// `configuration.acceptedOutputModes`.
    pub fn accepted_output_modes<S: Into<String>>(
        mut self,
        modes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.send().accepted_output_modes = modes.into_iter().map(Into::into).collect();
        self
    }

    /// The agent answers with a direct message instead of a task.
    pub fn returns_message(mut self) -> Self {
        self.spec.a2a.returns = Some(ResponseName::Message);
        self
    }

    /// An expected status update.
    pub fn expect_state(mut self, state: TaskState) -> Self {
        self.spec.a2a.expect.push(StepSpec {
            state: Some(StateName(state)),
            ..StepSpec::default()
        });
        self
    }

    /// A status update that may be skipped.
    pub fn expect_optional_state(mut self, state: TaskState) -> Self {
        self.spec.a2a.expect.push(StepSpec {
            state: Some(StateName(state)),
            optional: true,
            ..StepSpec::default()
        });
        self
    }

    /// A status update whose message has this text.
    pub fn expect_state_with_text(mut self, state: TaskState, text: Value) -> Self {
        let t = template(&mut self.errors, "expect.message.text", text);
        let message = Some(PartSpec {
            text: Some(t),
            ..PartSpec::default()
        });
        self.spec.a2a.expect.push(StepSpec {
            state: Some(StateName(state)),
            message,
            ..StepSpec::default()
        });
        self
    }

    /// An expected artifact.
    pub fn expect_artifact(mut self, f: impl FnOnce(ArtifactBuilder) -> ArtifactBuilder) -> Self {
        let b = f(ArtifactBuilder::default());
        self.errors.extend(b.errors);
        self.spec.a2a.expect.push(StepSpec {
            artifact: Some(b.spec),
            ..StepSpec::default()
        });
        self
    }

    /// Any expected step in the spec's shape:
    /// `{"state": "WORKING", "message": {"data": …}}`, `{"artifact": {"parts": […]}}`,
    /// `{"reply": {"data": …}}`.
    pub fn expect_step(mut self, step: Value) -> Self {
        if let Some(s) = spec_part::<StepSpec>(&mut self.errors, "expect", step) {
            self.spec.a2a.expect.push(s);
        }
        self
    }

    /// An expected direct reply with this text.
    pub fn expect_reply_text(mut self, text: Value) -> Self {
        let t = template(&mut self.errors, "expect.reply.text", text);
        let reply = Some(PartSpec {
            text: Some(t),
            ..PartSpec::default()
        });
        self.spec.a2a.expect.push(StepSpec {
            reply,
            ..StepSpec::default()
        });
        self
    }

    /// The required terminal state (default: the last state expected, if terminal).
    pub fn terminal(mut self, state: TaskState) -> Self {
        self.spec.a2a.terminal = Some(StateName(state));
        self
    }

    /// The send must fail with this error.
    pub fn fails_with(mut self, f: impl FnOnce(ErrorBuilder) -> ErrorBuilder) -> Self {
        self.spec.a2a.error = Some(f(ErrorBuilder::default()).0);
        self
    }

    /// Cancel once the task reached `at` (`None`: right after creation).
    pub fn cancel(
        mut self,
        at: Option<TaskState>,
        f: impl FnOnce(CancelBuilder) -> CancelBuilder,
    ) -> Self {
        let mut c = f(CancelBuilder::default()).0;
        c.at = at.map(StateName);
        self.spec.a2a.cancel = Some(c);
        self
    }

    /// Push-notification delivery.
    pub fn push(mut self, f: impl FnOnce(PushBuilder) -> PushBuilder) -> Self {
        self.spec.a2a.push = Some(f(PushBuilder::default()).0);
        self
    }

    /// An operation on the created task.
    pub fn follow_up(
        mut self,
        op: A2aOperation,
        f: impl FnOnce(FollowUpBuilder) -> FollowUpBuilder,
    ) -> Self {
        let b = f(FollowUpBuilder::new(op));
        self.errors.extend(b.errors);
        self.spec.a2a.follow_ups.push(b.spec);
        self
    }
}

/// Builds an expected artifact (one part).
#[derive(Debug, Default)]
pub struct ArtifactBuilder {
    spec: ArtifactSpec,
    errors: Vec<ErrorSlot>,
}

impl ArtifactBuilder {
    /// The artifact name.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.spec.name = Some(name.into());
        self
    }

    /// The part's media type.
    pub fn media_type(mut self, media_type: impl Into<String>) -> Self {
        self.spec.media_type = Some(media_type.into());
        self
    }

    /// An inline JSON Schema for the data.
    pub fn schema(mut self, schema: Value) -> Self {
        self.spec.schema = Some(SchemaSpec::Inline(schema));
        self
    }

    /// A JSON Schema file, loaded by the resolver given to `build_with`.
    pub fn schema_file(mut self, reference: impl Into<String>) -> Self {
        self.spec.schema = Some(SchemaSpec::File(reference.into()));
        self
    }

    /// The data (inline matchers allowed).
    pub fn data(mut self, data: Value) -> Self {
        self.spec.data = Some(template(&mut self.errors, "artifact.data", data));
        self
    }

    /// The text (inline matchers allowed).
    pub fn text(mut self, text: Value) -> Self {
        self.spec.text = Some(template(&mut self.errors, "artifact.text", text));
        self
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::ContractBuilder;
    use crate::model::accord::A2aErrorReason;
    use crate::{Interaction, spec::NoSchemaFiles, spec::compile_spec};

    #[test]
    fn the_builder_sends_another_a2a_version_like_the_spec() {
        let built = ContractBuilder::new("c", "p")
            .a2a_task("old client", |t| {
                t.a2a_version("0.3")
                    .send_with(serde_json::json!({"context_id": "ctx"}))
                    .send_text("hi")
                    .fails_with(|e| e.reason(A2aErrorReason::VersionNotSupported))
            })
            .build()
            .expect("valid");
        let spec = "consumer: c\nprovider: p\ninteractions:\n  - a2a: old client\n    send: { context_id: ctx, text: hi, a2a_version: \"0.3\" }\n    error: { reason: VERSION_NOT_SUPPORTED }\n";
        let from_spec = compile_spec(spec, "t.yaml", &NoSchemaFiles).expect("compiles");
        assert_eq!(built, from_spec);
        let Some(Interaction::A2aTask(t)) = built.interactions.first() else {
            panic!("an A2A task")
        };
        assert_eq!(t.task.a2a_version.as_deref(), Some("0.3"));
    }
}
