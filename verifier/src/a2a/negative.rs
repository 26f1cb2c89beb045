//! A served send the contract says must be refused (`negative`): what it
//! is reported as, from what the live card and the request tell.
//!
//! | `negative` | the request | finding |
//! | --- | --- | --- |
//! | a kind, or `true` with no, an invalid or an expired credential, or an approval not granted | — | the engine's (the kind's code, else the credential's or the approval's) |
//! | `undeclared_capability` | uses a capability the card does not declare (streaming, push with the send) | UNDECLARED_CAPABILITY_ACCEPTED (protocol) |
//! | `undeclared_capability` | uses only what the card declares | EXPECTATION_UNCHECKED (protocol): the expectation cannot apply to this card |
//! | `true` | in an A2A version other than 1.x | VERSION_NOT_REJECTED (protocol) |
//! | `true` | uses a capability the card does not declare | UNDECLARED_CAPABILITY_ACCEPTED (protocol) |
//! | `true` | addresses an existing task or context (`taskId`, `contextId`, `referenceTaskIds`) | CROSS_TENANT_ACCESS (authorization) |
//! | `true` | the principal's own new task, with what the card declares | EXPECTATION_UNCHECKED (protocol): nothing tells why it had to be refused |

use accord_dsl::model::accord::RefusalKind;

use super::flow::Run;
use crate::finding::{Finding, Layer, codes};

impl Run<'_> {
    /// The capabilities the send uses that the card does not declare.
    pub(super) fn undeclared_used(&self) -> Vec<&'static str> {
        let mut used = Vec::new();
        if self.task.streaming {
            used.push("streaming");
        }
        if self.task.push.is_some() {
            used.push("pushNotifications");
        }
        used.retain(|c| !self.declares(c));
        used
    }

    /// Judges a send that was served where `negative` wants a refusal:
    /// hands the engine its code, or says why the expectation cannot be
    /// judged on this card (`old_version`: the send's `a2aVersion` is not 1.x).
    pub(super) fn served_negative(&mut self, old_version: bool) {
        let e = &self.meta.expectations;
        let credential = e.auth.as_ref().map(|a| a.credential).unwrap_or_default();
        let unapproved = e.approval.as_ref().is_some_and(|a| !a.granted);
        let undeclared = !self.undeclared_used().is_empty();
        let because = |code| Some((Layer::Protocol, code));
        match e.negative.kind() {
            Some(RefusalKind::UndeclaredCapability) if !undeclared => {
                let detail = "`negative: undeclared_capability`, but the card declares every capability this request uses (it was served, as the card says): the expectation cannot apply to this agent";
                return self.negative_unchecked(detail);
            }
            Some(_) => {}
            None if !credential.is_valid() || unapproved => {}
            None if old_version => self.out.refused_because = because(codes::VERSION_NOT_REJECTED),
            None if undeclared => {
                self.out.refused_because = because(codes::UNDECLARED_CAPABILITY_ACCEPTED);
            }
            None if self.addresses_existing() => {} // another's task: the engine's
            None => {
                let detail = "`negative: true`, but nothing tells why this request had to be refused: a new task of the principal's own, with a valid credential, using only what the card declares; name the kind of refusal (`negative: cross_tenant`, …)";
                return self.negative_unchecked(detail);
            }
        }
        self.out.served_unexpectedly = true;
    }

    fn negative_unchecked(&mut self, detail: &str) {
        let f = Finding::new(
            Layer::Protocol,
            codes::EXPECTATION_UNCHECKED,
            "negative",
            detail,
        );
        self.out.findings.push(f);
    }

    /// The request names a task or context it did not create (written, or
    /// generated from a provider state).
    fn addresses_existing(&self) -> bool {
        let text = serde_json::to_string(&self.task.request).unwrap_or_default();
        ["taskId", "contextId", "referenceTaskIds"]
            .iter()
            .any(|k| text.contains(k))
    }
}
