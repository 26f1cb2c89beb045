//! Builder of follow-up operations on the task an A2A interaction created
//! (another message, GetTask, CancelTask, SubscribeToTask, ListTasks, …).

use serde_json::{Map, Value};

use super::a2a_parts::ErrorBuilder;
use super::{ErrorSlot, template};
use crate::model::accord::{A2aOperation, Credential, TaskState};
use crate::spec::ast::{FollowUpExpectSpec, FollowUpSpec, SendSpec, WithinSpec};
use crate::spec::{CounterSpec, StateName};

/// Builds a follow-up operation.
#[derive(Debug)]
pub struct FollowUpBuilder {
    pub(super) spec: FollowUpSpec,
    pub(super) errors: Vec<ErrorSlot>,
}

impl FollowUpBuilder {
    pub(super) fn new(op: A2aOperation) -> Self {
        let spec = FollowUpSpec {
            op,
            after: None,
            principal: None,
            credential: None,
            send: None,
            params: Map::new(),
            expect: None,
            error: None,
            side_effects: None,
            within: None,
        };
        FollowUpBuilder {
            spec,
            errors: Vec::new(),
        }
    }

    fn expect(&mut self) -> &mut FollowUpExpectSpec {
        self.spec
            .expect
            .get_or_insert_with(FollowUpExpectSpec::default)
    }

    /// Run once the task reached `state` (default: after the sequence).
    pub fn after(mut self, state: TaskState) -> Self {
        self.spec.after = Some(StateName(state));
        self
    }

    /// Sent as another declared principal.
    // `as_principal` reads as the spec's `as:` key; it consumes the builder like every step.
    #[allow(clippy::wrong_self_convention)]
    pub fn as_principal(mut self, principal: impl Into<String>) -> Self {
        self.spec.principal = Some(principal.into());
        self
    }

    /// Sent with this kind of credential.
    pub fn credential(mut self, credential: Credential) -> Self {
        self.spec.credential = Some(credential);
        self
    }

    /// SendMessage: a text part.
    pub fn send_text(mut self, text: impl Into<Value>) -> Self {
        let t = template(&mut self.errors, "follow_up.send.text", text.into());
        self.spec.send.get_or_insert_with(SendSpec::default).text = Some(t);
        self
    }

    /// SendMessage: a data part.
    pub fn send_data(mut self, data: Value) -> Self {
        let t = template(&mut self.errors, "follow_up.send.data", data);
        self.spec.send.get_or_insert_with(SendSpec::default).data = Some(t);
        self
    }

    /// A request parameter (`historyLength`, ListTasks filters, …).
    pub fn param(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        self.spec.params.insert(name.into(), value.into());
        self
    }

    /// The task's state in the answer.
    pub fn expect_state(mut self, state: TaskState) -> Self {
        self.expect().state = Some(StateName(state));
        self
    }

    /// ListTasks: the created task is (not) listed.
    pub fn contains_task(mut self, contains: bool) -> Self {
        self.expect().contains_task = Some(contains);
        self
    }

    /// SendMessage: a new task is (not) created.
    pub fn new_task(mut self, new: bool) -> Self {
        self.expect().new_task = Some(new);
        self
    }

    /// The operation must fail.
    pub fn fails_with(mut self, f: impl FnOnce(ErrorBuilder) -> ErrorBuilder) -> Self {
        self.spec.error = Some(f(ErrorBuilder::default()).0);
        self
    }

    /// This operation moves `counter` by exactly `delta` (read right before
    /// its request and right after its answer).
    pub fn side_effect(self, counter: impl Into<String>, delta: i64) -> Self {
        self.side_effect_between(counter, Some(delta), Some(delta))
    }

    /// This operation moves `counter` by a delta within bounds.
    pub fn side_effect_between(
        mut self,
        counter: impl Into<String>,
        min: Option<i64>,
        max: Option<i64>,
    ) -> Self {
        self.spec
            .side_effects
            .get_or_insert_with(Default::default)
            .insert(counter.into(), CounterSpec { min, max });
        self
    }

    /// This operation moves no counter at all (`side_effects: {}`).
    pub fn no_side_effects(mut self) -> Self {
        self.spec.side_effects.get_or_insert_with(Default::default);
        self
    }

    /// Its time limits: `acknowledge_ms` (first answer or event) and
    /// `completion_ms` (the whole operation); the other limits of
    /// [`WithinSpec`] belong to the interaction and are refused here.
    pub fn within(mut self, f: impl FnOnce(WithinSpec) -> WithinSpec) -> Self {
        let w = self.spec.within.take().unwrap_or_default();
        self.spec.within = Some(f(w));
        self
    }
}
