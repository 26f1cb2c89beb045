//! The operations, shared by both bindings: a send is matched against the
//! interactions; every other operation addresses a task and is matched
//! against that task's interaction (its `cancel`, its `followUps`). The
//! version, the capability and the caller's credential are checked first,
//! as an agent does.

use accord_dsl::matching::{Mismatch, MismatchKind};
use accord_dsl::model::accord::{
    A2aErrorReason, A2aOperation, A2aTaskInteraction, FollowUp, TaskState,
};
use actix_web::{HttpRequest, web};
use serde_json::Value;

mod delegation;
mod send;
mod tasks;

use super::A2aSurface;
use super::error::A2aError;
use super::store::{self, Part, Stream};
use crate::Shared;
use crate::auth::{self, Demand};
use crate::report::MockMismatch;

/// A successful answer.
#[derive(Debug)]
pub(crate) enum Reply {
    Json(Value),
    Stream(Stream),
}

/// One operation as a caller sent it.
pub(crate) struct Call<'a> {
    surface: &'a A2aSurface,
    shared: web::Data<Shared>,
    token: Option<String>,
    /// The `A2A-Version` header (or query parameter), if any.
    version: Option<String>,
    path: &'static str,
    op: A2aOperation,
}

/// How a send relates to the interactions.
enum SendMatch {
    Matched(usize),
    Mismatched(usize, Vec<Mismatch>),
    Nothing,
}

impl<'a> Call<'a> {
    pub(crate) fn new(
        surface: &'a A2aSurface,
        shared: web::Data<Shared>,
        req: &HttpRequest,
        path: &'static str,
        op: A2aOperation,
    ) -> Call<'a> {
        let version = req
            .headers()
            .get("a2a-version")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .or_else(|| {
                web::Query::<Vec<(String, String)>>::from_query(req.query_string())
                    .ok()
                    .and_then(|q| {
                        q.iter()
                            .find(|(k, _)| k == "A2A-Version")
                            .map(|(_, v)| v.clone())
                    })
            });
        Call {
            surface,
            shared,
            token: auth::bearer(req).map(str::to_owned),
            version,
            path,
            op,
        }
    }

    fn progress(&self, outcome: &str) {
        let (op, path) = (self.op.as_str(), self.path);
        self.shared.progress(|| format!("{op} {path} -> {outcome}"));
    }

    /// Records what the contract does not expect, and answers `error`.
    fn unexpected<T>(&self, why: String, error: A2aError) -> Result<T, A2aError> {
        self.progress(&format!("refused ({why})"));
        self.shared.unexpected(MockMismatch::RequestNotFound {
            method: self.op.as_str().into(),
            path: self.path.into(),
            query: None,
            reason: Some(why),
        });
        Err(error)
    }

    /// Runs the operation.
    pub(crate) async fn run(&self, params: &Value) -> Result<Reply, A2aError> {
        let version = self.version.as_deref().unwrap_or("").trim();
        let major_one = version.split('.').next() == Some("1");
        let sends = matches!(
            self.op,
            A2aOperation::SendMessage | A2aOperation::SendStreamingMessage
        );
        if !major_one {
            let shown = if version.is_empty() { "0.3" } else { version };
            let error = A2aError::A2a(
                A2aErrorReason::VersionNotSupported,
                format!(
                    "A2A version '{shown}' is not supported by this handler. Expected version '1.0'."
                ),
            );
            if sends && let SendMatch::Matched(slot) = self.find_send(params, Some(version)) {
                self.exercise(slot, "refused: version");
                return Err(error);
            }
            let why = format!("A2A-Version '{shown}' (the mock speaks 1.0; send A2A-Version: 1.0)");
            return self.unexpected(why, error);
        }
        if let Some((capability, reason)) = self.op.required_capability()
            && !self.declares(capability)
        {
            let error = A2aError::A2a(reason, format!("the agent does not declare {capability}"));
            if sends && let SendMatch::Matched(slot) = self.find_send(params, None) {
                self.exercise(slot, "refused: capability");
                return Err(error);
            }
            if let Some((slot, Some(k))) = self
                .task_of(params)
                .ok()
                .map(|(s, _)| (s, self.follow_up_for(s)))
            {
                self.surface.store.exercised(slot, Part::FollowUp(k));
                return Err(error);
            }
            return self.unexpected(
                format!(
                    "{} needs {capability}, which the contract's card does not declare",
                    self.op.as_str()
                ),
                error,
            );
        }
        use A2aOperation::*;
        match self.op {
            SendMessage => self.send(params, false).await,
            SendStreamingMessage => self.send(params, true).await,
            GetTask => self.get(params).map(Reply::Json),
            ListTasks => self.list(params).map(Reply::Json),
            CancelTask => self.cancel(params).map(Reply::Json),
            SubscribeToTask => self.subscribe(params).map(Reply::Stream),
            CreateTaskPushNotificationConfig
            | GetTaskPushNotificationConfig
            | ListTaskPushNotificationConfigs
            | DeleteTaskPushNotificationConfig => self.push(params).map(Reply::Json),
            GetExtendedAgentCard => Ok(Reply::Json(
                self.surface.card.render(self.shared.base_url()),
            )),
        }
    }

    fn declares(&self, capability: &str) -> bool {
        let caps = self.surface.card.caps;
        match capability {
            "streaming" => caps.streaming,
            "pushNotifications" => caps.push,
            "extendedAgentCard" => caps.extended,
            _ => true,
        }
    }

    fn interaction(&self, slot: usize) -> &A2aTaskInteraction {
        &self.surface.interactions[slot].1
    }

    fn exercise(&self, slot: usize, outcome: &str) {
        let (index, i) = &self.surface.interactions[slot];
        self.shared.exercised(*index);
        self.progress(&format!("{outcome} ({})", i.meta.description));
    }

    /// The interaction whose send `params` are, or the closest one. With
    /// `version`, only interactions that send that `A2A-Version`.
    fn find_send(&self, params: &Value, version: Option<&str>) -> SendMatch {
        let streaming = self.op == A2aOperation::SendStreamingMessage;
        let mut closest: Option<(usize, Vec<Mismatch>)> = None;
        for (slot, (_, i)) in self.surface.interactions.iter().enumerate() {
            let sent_version = i.task.a2a_version.as_deref();
            let version_fits = match version {
                Some(v) => sent_version == Some(v),
                None => sent_version.is_none_or(|v| v.split('.').next() == Some("1")),
            };
            if !version_fits {
                continue;
            }
            let mut mismatches = send::request_mismatches(&i.task.request, params);
            if mismatches.is_empty() && i.task.streaming != streaming {
                let (want, got) = if i.task.streaming {
                    ("SendStreamingMessage", "SendMessage")
                } else {
                    ("SendMessage", "SendStreamingMessage")
                };
                mismatches.push(Mismatch::new(
                    MismatchKind::Method,
                    "$",
                    format!("the contract sends this message with {want}, not {got}"),
                ));
            }
            if mismatches.is_empty() {
                return SendMatch::Matched(slot);
            }
            if closest
                .as_ref()
                .is_none_or(|(_, m)| distance(&mismatches) < distance(m))
            {
                closest = Some((slot, mismatches));
            }
        }
        match closest {
            Some((slot, m)) => SendMatch::Mismatched(slot, m),
            None => SendMatch::Nothing,
        }
    }

    /// A credential check: why the caller may not act as the interaction's
    /// principal, or the refusal a negative interaction expects.
    fn credential(&self, slot: usize) -> Result<(), A2aError> {
        let i = self.interaction(slot);
        match Demand::of(&i.meta.expectations) {
            Demand::Open => Ok(()),
            Demand::Principal(p) => match self.shared.principals.refuses(&p, self.token.as_deref())
            {
                None => Ok(()),
                Some(why) => self.unexpected(
                    format!("{why} ({})", i.meta.description),
                    A2aError::Unauthenticated(why),
                ),
            },
            Demand::Refusal => {
                self.exercise(slot, "refused as the contract expects");
                Err(i.task.error.clone().map_or_else(
                    || A2aError::Unauthenticated("the credential is not valid".into()),
                    A2aError::Expected,
                ))
            }
        }
    }

    /// The task `params` address (`id`, or `taskId` for push configs): its
    /// interaction slot and state. Another caller's task is not found; a
    /// follow-up sent as another principal that expects it is exercised.
    fn task_of(&self, params: &Value) -> Result<(usize, TaskState), A2aError> {
        let key = if self.op.as_str().contains("PushNotificationConfig") {
            "taskId"
        } else {
            "id"
        };
        let Some(id) = params[key].as_str().filter(|s| !s.is_empty()) else {
            return Err(A2aError::invalid_params(format!("'{key}' is required")));
        };
        let found = self
            .surface
            .store
            .tasks()
            .get(id)
            .map(|t| (t.slot, t.state, t.owner.clone()));
        match found {
            None => self.unexpected(
                format!("task {id} is not a task of the mock"),
                A2aError::task_not_found(id),
            ),
            Some((slot, state, owner)) if owner == self.token => Ok((slot, state)),
            Some((slot, _, _)) => {
                let follow = self
                    .interaction(slot)
                    .task
                    .follow_ups
                    .iter()
                    .enumerate()
                    .find(|(_, f)| f.operation == self.op && f.auth.is_some());
                if let Some((k, f)) = follow {
                    self.surface.store.exercised(slot, Part::FollowUp(k));
                    self.progress("another caller's task: not found, as the contract expects");
                    return Err(f
                        .error
                        .clone()
                        .map_or_else(|| A2aError::task_not_found(id), A2aError::Expected));
                }
                self.unexpected(
                    format!("task {id} belongs to another caller"),
                    A2aError::task_not_found(id),
                )
            }
        }
    }

    /// The follow-up of interaction `slot` for this operation, if any (one
    /// not yet exercised first).
    fn follow_up_for(&self, slot: usize) -> Option<usize> {
        let candidates: Vec<usize> = self
            .interaction(slot)
            .task
            .follow_ups
            .iter()
            .enumerate()
            .filter(|(_, f)| f.operation == self.op && f.auth.is_none())
            .map(|(k, _)| k)
            .collect();
        candidates
            .iter()
            .copied()
            .find(|k| self.surface.store.times(slot, Part::FollowUp(*k)) == 0)
            .or(candidates.first().copied())
    }

    /// Counts the follow-up of this operation and answers the error it
    /// expects; `Some(after)` when there is one: the caller releases a
    /// hold at that state once it has its answer ([`Call::released`]), so
    /// a GetTask or a subscription at WORKING sees WORKING.
    fn follow(&self, slot: usize) -> Result<Option<Option<TaskState>>, A2aError> {
        let Some(k) = self.follow_up_for(slot) else {
            return Ok(None);
        };
        self.surface.store.exercised(slot, Part::FollowUp(k));
        let f: &FollowUp = &self.interaction(slot).task.follow_ups[k];
        if let Some(error) = &f.error {
            self.progress("refused as the contract expects");
            return Err(A2aError::Expected(error.clone()));
        }
        Ok(Some(f.after))
    }

    /// Releases task `id` held at the state a follow-up came for.
    fn released(&self, id: &str, followed: Option<Option<TaskState>>) {
        if let Some(after) = followed {
            store::release(&self.surface.store, id, after);
        }
    }
}

/// How far a send is from an interaction: its mismatches outside the
/// message's metadata first (a message whose parts match and whose
/// metadata — a delegation record — differs is the closer one), then all.
fn distance(mismatches: &[Mismatch]) -> (usize, usize) {
    let content = mismatches
        .iter()
        .filter(|m| !m.path.starts_with("$.message.metadata"))
        .count();
    (content, mismatches.len())
}
