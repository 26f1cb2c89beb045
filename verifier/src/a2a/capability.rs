//! What a refusal or a served operation means for the card's capabilities
//! and for who asked: the code of a follow-up that was served where it had
//! to be refused, a declared capability refused as unsupported, another
//! principal refused otherwise than for an unknown task.

use accord_dsl::model::accord::{
    A2aErrorReason, A2aOperation, Credential, ErrorExpectation, FollowUp,
};

use super::flow::Run;
use super::refusal::Served;
use super::wire::{Answer, Outcome};
use crate::finding::{Finding, Layer, codes};

/// Whether the card declares `capability` (`capabilities.<name>: true`).
pub(super) fn declares(card: &serde_json::Value, capability: &str) -> bool {
    card["capabilities"][capability].as_bool() == Some(true)
}

/// `op` refused as unsupported (its capability's reason, or
/// UNSUPPORTED_OPERATION) though the card declares what it needs:
/// DECLARED_CAPABILITY_BROKEN.
pub(super) fn broken(
    card: &serde_json::Value,
    op: A2aOperation,
    answer: &Answer,
    path: &str,
) -> Option<Finding> {
    let (cap, reason) = op.required_capability()?;
    let Outcome::Error(e) = &answer.outcome else {
        return None;
    };
    let unsupported = [reason, A2aErrorReason::UnsupportedOperation]
        .iter()
        .any(|r| e.reason.as_deref() == Some(r.as_str()));
    (declares(card, cap) && unsupported).then(|| {
        let detail = format!(
            "the card declares {cap}, but {} was refused: {}",
            op.as_str(),
            e.message
        );
        Finding::new(
            Layer::Protocol,
            codes::DECLARED_CAPABILITY_BROKEN,
            path,
            detail,
        )
    })
}

impl Run<'_> {
    /// What a served follow-up that had to be refused is.
    pub(super) fn served_code(
        &self,
        f: &FollowUp,
        expected: &ErrorExpectation,
        on_terminal: bool,
    ) -> Served {
        let own = self
            .meta
            .expectations
            .auth
            .as_ref()
            .and_then(|a| a.principal.as_ref());
        if let Some(auth) = &f.auth {
            let code = match auth.credential {
                Credential::None | Credential::Invalid => Some(codes::UNAUTHENTICATED_ACCESS),
                Credential::Expired => Some(codes::EXPIRED_CREDENTIAL_ACCEPTED),
                Credential::Valid if auth.principal.is_some() && auth.principal.as_ref() != own => {
                    Some(codes::CROSS_TENANT_ACCESS)
                }
                Credential::Valid => None,
            };
            if let Some(code) = code {
                return Served {
                    layer: Layer::Authorization,
                    code,
                };
            }
        }
        if on_terminal {
            return Served {
                layer: Layer::Protocol,
                code: codes::TERMINAL_TASK_ACCEPTED_MESSAGE,
            };
        }
        if let Some((cap, reason)) = f.operation.required_capability()
            && !self.declares(cap)
            && expected.reason.is_none_or(|r| r == reason)
        {
            return Served {
                layer: Layer::Protocol,
                code: codes::UNDECLARED_CAPABILITY_ACCEPTED,
            };
        }
        Served::MISMATCH
    }

    /// Whether the card declares a capability.
    pub fn declares(&self, capability: &str) -> bool {
        declares(self.card, capability)
    }

    /// A declared capability refused as unsupported.
    pub(super) fn broken_capability(
        &self,
        op: A2aOperation,
        answer: &Answer,
        path: &str,
    ) -> Option<Finding> {
        broken(self.card, op, answer, path)
    }

    /// A send refused as unsupported though the card declares what it
    /// uses: streaming, or the push config registered with it.
    pub fn broken_send(&self, answer: &Answer) -> Option<Finding> {
        let Outcome::Error(e) = &answer.outcome else {
            return None;
        };
        let reason = e.reason.as_deref();
        let (capability, what) = if self.task.streaming
            && reason == Some(A2aErrorReason::UnsupportedOperation.as_str())
        {
            ("streaming", "SendStreamingMessage")
        } else if self.receiver.is_some()
            && reason == Some(A2aErrorReason::PushNotificationNotSupported.as_str())
        {
            ("pushNotifications", "a push config with the send")
        } else {
            return None;
        };
        self.declares(capability).then(|| {
            let detail = format!(
                "the card declares {capability}, but {what} was refused: {}",
                e.message
            );
            Finding::new(
                Layer::Protocol,
                codes::DECLARED_CAPABILITY_BROKEN,
                "response",
                detail,
            )
        })
    }
}

/// Another principal expected to get "task not found" got another refusal.
pub(super) fn leaks(expected: &ErrorExpectation, found: &[Finding]) -> bool {
    let not_found = expected.reason == Some(A2aErrorReason::TaskNotFound)
        || expected.code == Some(A2aErrorReason::TaskNotFound.json_rpc_code());
    not_found
        && !found.is_empty()
        && found
            .iter()
            .all(|f| f.reason_code == codes::ERROR_CODE_MISMATCH)
}
