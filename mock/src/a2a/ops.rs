//! The operations, shared by both bindings: a send is matched against the
//! interactions; every other operation addresses a task and is matched
//! against that task's interaction (its `cancel`, its `followUps`). The
//! version, the capability and the caller's credential are checked first,
//! as an agent does.

use std::collections::VecDeque;

use accord_dsl::matching::{Mismatch, MismatchKind, match_json};
use accord_dsl::model::accord::{
    A2aErrorReason, A2aOperation, A2aTaskInteraction, FollowUp, ResponseKind, SendRequest,
    TaskState, TaskStep,
};
use actix_web::{HttpRequest, web};
use serde_json::{Value, json};

use super::A2aSurface;
use super::error::A2aError;
use super::store::{self, Part, Stream};
use super::task::{self, MockTask, Planned};
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
            let mut mismatches = request_mismatches(&i.task.request, params);
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
                .is_none_or(|(_, m)| mismatches.len() < m.len())
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

    async fn send(&self, params: &Value, streaming: bool) -> Result<Reply, A2aError> {
        let Some(message) = params.get("message").filter(|m| m.is_object()) else {
            return self.unexpected(
                "no 'message' object".into(),
                A2aError::invalid_params("'message' is required"),
            );
        };
        if message["parts"].as_array().is_none_or(Vec::is_empty) {
            let why = "'message.parts' must be a non-empty list".to_owned();
            return self.unexpected(why.clone(), A2aError::invalid_params(why));
        }
        if let Some(id) = message["taskId"].as_str().filter(|s| !s.is_empty()) {
            return self.continue_task(id, params, streaming).await;
        }
        let slot = match self.find_send(params, None) {
            SendMatch::Matched(slot) => slot,
            SendMatch::Mismatched(slot, mismatches) => {
                let (index, i) = &self.surface.interactions[slot];
                let m = MockMismatch::RequestMismatch {
                    interaction: *index,
                    description: i.meta.description.clone(),
                    method: self.op.as_str().into(),
                    path: self.path.into(),
                    mismatches,
                };
                let line = m.line();
                self.progress(&format!("refused ({line})"));
                self.shared.unexpected(m);
                return Err(A2aError::invalid_params(format!(
                    "no interaction of the contract expects this message: {line}"
                )));
            }
            SendMatch::Nothing => {
                if let Some(reply) = self.new_task_in_context(params, streaming).await {
                    return reply;
                }
                let why = "no A2A/Task interaction of the contract expects a message".to_owned();
                return self.unexpected(why.clone(), A2aError::invalid_params(why));
            }
        };
        self.credential(slot)?;
        let i = self.interaction(slot);
        if let Some(error) = &i.task.error {
            self.exercise(slot, "refused as the contract expects");
            return Err(A2aError::Expected(error.clone()));
        }
        self.exercise(slot, "answered");
        if i.task.response == ResponseKind::Message {
            let parts = i.task.steps.iter().find_map(|s| match s {
                TaskStep::Message(m) => Some(task::parts(&m.parts, self.shared.base_url())),
                _ => None,
            });
            let reply = json!({"message": {"messageId": task::new_id(),
                "contextId": message["contextId"].as_str().map_or_else(task::new_id, str::to_owned),
                "role": "ROLE_AGENT", "parts": parts.unwrap_or_default()}});
            return Ok(if streaming {
                Reply::Stream(Stream {
                    first: vec![reply],
                    follow: None,
                    what: (self.op.as_str().into(), self.path.into()),
                })
            } else {
                Reply::Json(reply)
            });
        }
        let (plan, holds) = task::plan_of(i, self.shared.base_url());
        let mut t = MockTask::new(slot, message, self.token.clone(), plan, holds);
        if let Some(config) = params["configuration"]
            .get("taskPushNotificationConfig")
            .filter(|c| c.is_object())
        {
            if let Some(error) = i.task.push.as_ref().and_then(|p| p.error.clone()) {
                return Err(A2aError::Expected(error));
            }
            t.push.push(stored_config(config, &t.id));
        }
        self.start(t, params, streaming).await
    }

    /// Stores and runs a new task, and answers as the send asks.
    async fn start(
        &self,
        mut t: MockTask,
        params: &Value,
        streaming: bool,
    ) -> Result<Reply, A2aError> {
        let id = t.id.clone();
        let created = t.created.clone();
        let events = t.run();
        self.surface.store.insert(t);
        self.surface.store.changed(&id, events);
        if streaming {
            return Ok(Reply::Stream(Stream {
                first: vec![store::wrapped_task(created)],
                follow: Some((id, 0)),
                what: (self.op.as_str().into(), self.path.into()),
            }));
        }
        let config = &params["configuration"];
        if config["returnImmediately"] == json!(true) {
            return Ok(Reply::Json(store::wrapped_task(created)));
        }
        self.surface.store.settled(&id).await;
        let history = config["historyLength"].as_u64().map(|n| n as usize);
        let snapshot = self
            .surface
            .store
            .tasks()
            .get(&id)
            .map(|t| t.snapshot(history, true));
        Ok(Reply::Json(store::wrapped_task(
            snapshot.unwrap_or(created),
        )))
    }

    /// A message without `taskId` in the context of an existing task that a
    /// follow-up with `expect.newTask` sends.
    async fn new_task_in_context(
        &self,
        params: &Value,
        streaming: bool,
    ) -> Option<Result<Reply, A2aError>> {
        let context = params["message"]["contextId"].as_str()?;
        let (slot, k, follow) = {
            let tasks = self.surface.store.tasks();
            let owner = tasks
                .values()
                .find(|t| t.context_id == context && t.owner == self.token)?;
            let slot = owner.slot;
            let (k, f) = self
                .interaction(slot)
                .task
                .follow_ups
                .iter()
                .enumerate()
                .find(|(_, f)| {
                    f.operation == self.op
                        && f.expect.as_ref().and_then(|e| e.new_task) == Some(true)
                        && f.request
                            .as_ref()
                            .is_none_or(|r| request_mismatches(r, params).is_empty())
                })?;
            (slot, k, f.clone())
        };
        self.surface.store.exercised(slot, Part::FollowUp(k));
        self.progress(&format!(
            "new task in context {context} (follow-up of {})",
            self.interaction(slot).meta.description
        ));
        if let Some(error) = follow.error {
            return Some(Err(A2aError::Expected(error)));
        }
        let plan = outcome_plan(&follow, self.shared.base_url());
        let t = MockTask::new(
            slot,
            &params["message"],
            self.token.clone(),
            plan,
            Vec::new(),
        );
        Some(self.start(t, params, streaming).await)
    }

    /// A message for an existing task (`taskId`): a follow-up's.
    async fn continue_task(
        &self,
        id: &str,
        params: &Value,
        streaming: bool,
    ) -> Result<Reply, A2aError> {
        let (slot, state) = self.task_of(&json!({"id": id}))?;
        let found = self
            .interaction(slot)
            .task
            .follow_ups
            .iter()
            .enumerate()
            .find(|(_, f)| {
                matches!(
                    f.operation,
                    A2aOperation::SendMessage | A2aOperation::SendStreamingMessage
                ) && f.expect.as_ref().and_then(|e| e.new_task) != Some(true)
                    && f.request
                        .as_ref()
                        .is_none_or(|r| request_mismatches(r, params).is_empty())
            });
        let Some((k, follow)) = found else {
            let why = format!(
                "a message for task {id} ({}), which no follow-up of the contract sends",
                self.interaction(slot).meta.description
            );
            return self.unexpected(why.clone(), A2aError::invalid_params(why));
        };
        self.surface.store.exercised(slot, Part::FollowUp(k));
        if let Some(error) = &follow.error {
            self.progress("refused as the contract expects");
            return Err(A2aError::Expected(error.clone()));
        }
        if state.is_terminal() {
            return Err(A2aError::unsupported(format!(
                "task {id} is in a terminal state ({state})"
            )));
        }
        self.progress(&format!("continued task {id}"));
        let more = outcome_plan(follow, self.shared.base_url());
        let (cursor, events) = {
            let mut tasks = self.surface.store.tasks();
            let t = tasks
                .get_mut(id)
                .ok_or_else(|| A2aError::task_not_found(id))?;
            let cursor = t.log.len();
            (cursor, t.resume(&params["message"], more))
        };
        self.surface.store.changed(id, events);
        if streaming {
            let snapshot = self
                .surface
                .store
                .tasks()
                .get(id)
                .map(|t| t.snapshot(None, true));
            return Ok(Reply::Stream(Stream {
                first: vec![store::wrapped_task(snapshot.unwrap_or_default())],
                follow: Some((id.to_owned(), cursor)),
                what: (self.op.as_str().into(), self.path.into()),
            }));
        }
        self.surface.store.settled(id).await;
        let snapshot = self
            .surface
            .store
            .tasks()
            .get(id)
            .map(|t| t.snapshot(None, true));
        Ok(Reply::Json(store::wrapped_task(
            snapshot.unwrap_or_default(),
        )))
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

    fn get(&self, params: &Value) -> Result<Value, A2aError> {
        let (slot, _) = self.task_of(params)?;
        let id = params["id"].as_str().unwrap_or_default();
        let followed = self.follow(slot)?;
        let history = count(params, "historyLength")?;
        self.progress(&format!("task {id}"));
        let snapshot = self
            .surface
            .store
            .tasks()
            .get(id)
            .map(|t| t.snapshot(history, true))
            .ok_or_else(|| A2aError::task_not_found(id))?;
        self.released(id, followed);
        Ok(snapshot)
    }

    fn list(&self, params: &Value) -> Result<Value, A2aError> {
        let page_size = count(params, "pageSize")?.unwrap_or(50);
        if !(1..=100).contains(&page_size) {
            return Err(A2aError::invalid_params(
                "'pageSize' must be between 1 and 100",
            ));
        }
        let offset: usize = match params["pageToken"].as_str().filter(|s| !s.is_empty()) {
            Some(token) => token.parse().map_err(|_| {
                A2aError::invalid_params("'pageToken' is not a token this agent gave")
            })?,
            None => 0,
        };
        let history = count(params, "historyLength")?;
        let artifacts = params["includeArtifacts"] == json!(true);
        let status = params["status"].as_str();
        let context = params["contextId"].as_str();
        let after = params["statusTimestampAfter"]
            .as_str()
            .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok());
        let mut visible: Vec<MockTask> = self
            .surface
            .store
            .tasks()
            .values()
            .filter(|t| t.owner == self.token)
            .filter(|t| context.is_none_or(|c| t.context_id == c))
            .filter(|t| status.is_none_or(|s| t.state.as_str() == s))
            .filter(|t| after.is_none_or(|a| t.changed >= a))
            .cloned()
            .collect();
        visible.sort_by_key(|t| std::cmp::Reverse(t.changed));
        let slots: Vec<(usize, String)> = visible.iter().map(|t| (t.slot, t.id.clone())).collect();
        for (slot, id) in slots {
            if let Some(after) = self.follow(slot)? {
                store::release(&self.surface.store, &id, after);
                break;
            }
        }
        let total = visible.len();
        let page: Vec<Value> = visible
            .iter()
            .skip(offset)
            .take(page_size)
            .map(|t| t.snapshot(Some(history.unwrap_or(0)), artifacts))
            .collect();
        let next = if offset + page.len() < total {
            (offset + page.len()).to_string()
        } else {
            String::new()
        };
        self.progress(&format!("{} task(s)", page.len()));
        Ok(json!({"tasks": page, "nextPageToken": next, "pageSize": page_size, "totalSize": total}))
    }

    fn cancel(&self, params: &Value) -> Result<Value, A2aError> {
        let (slot, state) = self.task_of(params)?;
        let id = params["id"].as_str().unwrap_or_default().to_owned();
        let scenario = self.interaction(slot).task.cancel.clone();
        let followed = self.follow(slot)?.is_some();
        if let Some(c) = &scenario {
            self.surface.store.exercised(slot, Part::Cancel);
            if let Some(error) = &c.error {
                self.progress("refused as the contract expects");
                return Err(A2aError::Expected(error.clone()));
            }
        } else if !followed {
            let why = format!(
                "CancelTask of task {id} ({}), which the contract does not cancel",
                self.interaction(slot).meta.description
            );
            self.shared.unexpected(MockMismatch::RequestNotFound {
                method: self.op.as_str().into(),
                path: self.path.into(),
                query: None,
                reason: Some(why),
            });
        }
        if state.is_terminal() {
            return Err(A2aError::A2a(
                A2aErrorReason::TaskNotCancelable,
                format!("Task cannot be canceled: it is {state}"),
            ));
        }
        let target = scenario
            .and_then(|c| c.expect_state)
            .unwrap_or(TaskState::Canceled);
        let (event, snapshot) = {
            let mut tasks = self.surface.store.tasks();
            let t = tasks
                .get_mut(&id)
                .ok_or_else(|| A2aError::task_not_found(&id))?;
            (t.finish_in(target), t.snapshot(None, true))
        };
        self.surface.store.changed(&id, vec![event]);
        self.progress(&format!("task {id} {target}"));
        Ok(snapshot)
    }

    fn subscribe(&self, params: &Value) -> Result<Stream, A2aError> {
        let (slot, state) = self.task_of(params)?;
        let id = params["id"].as_str().unwrap_or_default().to_owned();
        let followed = self.follow(slot)?;
        if state.is_terminal() {
            return Err(A2aError::unsupported(format!(
                "task {id} is in a terminal state ({state})"
            )));
        }
        let (snapshot, cursor) = {
            let tasks = self.surface.store.tasks();
            let t = tasks
                .get(&id)
                .ok_or_else(|| A2aError::task_not_found(&id))?;
            (t.snapshot(None, true), t.log.len())
        };
        self.released(&id, followed);
        self.progress(&format!("subscribed to task {id}"));
        Ok(Stream {
            first: vec![store::wrapped_task(snapshot)],
            follow: Some((id, cursor)),
            what: (self.op.as_str().into(), self.path.into()),
        })
    }

    fn push(&self, params: &Value) -> Result<Value, A2aError> {
        let (slot, _) = self.task_of(params)?;
        let id = params["taskId"].as_str().unwrap_or_default().to_owned();
        let followed = self.follow(slot)?;
        let scenario = self.interaction(slot).task.push.clone();
        let mut tasks = self.surface.store.tasks();
        let t = tasks
            .get_mut(&id)
            .ok_or_else(|| A2aError::task_not_found(&id))?;
        let config_id = params["id"].as_str().unwrap_or_default();
        let not_found = || {
            A2aError::A2a(
                A2aErrorReason::TaskNotFound,
                format!("no push config {config_id} for task {id}"),
            )
        };
        let answer = match self.op {
            A2aOperation::CreateTaskPushNotificationConfig => {
                if let Some(error) = scenario.as_ref().and_then(|p| p.error.clone()) {
                    return Err(A2aError::Expected(error));
                }
                if scenario.is_none() && followed.is_none() {
                    drop(tasks);
                    return self.unexpected(
                        format!(
                            "a push config for task {id}, which the contract does not register"
                        ),
                        A2aError::unsupported(
                            "the contract registers no push config for this task",
                        ),
                    );
                }
                let config = stored_config(params, &id);
                if config["url"].as_str().is_none_or(str::is_empty) {
                    return Err(A2aError::invalid_params("'url' is required"));
                }
                t.push.retain(|c| c["id"] != config["id"]);
                t.push.push(config.clone());
                config
            }
            A2aOperation::GetTaskPushNotificationConfig => t
                .push
                .iter()
                .find(|c| c["id"] == config_id)
                .cloned()
                .ok_or_else(not_found)?,
            A2aOperation::ListTaskPushNotificationConfigs => {
                json!({"configs": t.push, "nextPageToken": ""})
            }
            _ => {
                t.push.retain(|c| c["id"] != config_id);
                json!({})
            }
        };
        drop(tasks);
        self.released(&id, followed);
        self.progress(&format!("push config of task {id}"));
        Ok(answer)
    }
}

/// The events a follow-up's `expect` adds to its task.
fn outcome_plan(f: &FollowUp, base_url: &str) -> VecDeque<Planned> {
    match &f.expect {
        Some(e) => {
            let terminal = e
                .state
                .or_else(|| (e.steps.is_empty()).then_some(TaskState::Completed));
            task::plan(&e.steps, terminal, base_url)
        }
        None => task::plan(&[], Some(TaskState::Completed), base_url),
    }
}

/// How a sent request differs from the expected one: the expected
/// message, configuration and metadata under the request's rules; the ids
/// a client generates (`messageId`, `taskId`, `contextId`) and what it
/// adds are not judged.
fn request_mismatches(expected: &SendRequest, actual: &Value) -> Vec<Mismatch> {
    let mut want = json!({"message": serde_json::to_value(&expected.message).unwrap_or_default()});
    if let Some(m) = want["message"].as_object_mut() {
        for key in ["messageId", "taskId", "contextId"] {
            m.remove(key);
        }
    }
    if let Some(c) = &expected.configuration {
        want["configuration"] = serde_json::to_value(c).unwrap_or_default();
    }
    if let Some(m) = &expected.metadata {
        want["metadata"] = json!(m);
    }
    let rules = expected
        .rules
        .matching_rules
        .category("body")
        .cloned()
        .unwrap_or_default();
    match_json(&want, actual, &rules, true)
}

/// A push config as stored: its id (given or new), the task, the url, the
/// token and authentication when given.
fn stored_config(params: &Value, task_id: &str) -> Value {
    let id = params["id"]
        .as_str()
        .filter(|s| !s.is_empty())
        .map_or_else(task::new_id, str::to_owned);
    let mut config = json!({"id": id, "taskId": task_id, "url": params["url"]});
    for key in ["token", "authentication"] {
        if let Some(v) = params.get(key).filter(|v| !v.is_null()) {
            config[key] = v.clone();
        }
    }
    config
}

/// An optional non-negative integer parameter.
fn count(params: &Value, name: &str) -> Result<Option<usize>, A2aError> {
    match params.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(|n| Some(usize::try_from(n).unwrap_or(usize::MAX)))
            .ok_or_else(|| {
                A2aError::invalid_params(format!("'{name}' must be a non-negative integer"))
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_a_client_generates_and_fields_it_adds_are_not_judged() {
        let expected: SendRequest = serde_json::from_value(json!({
            "message": {"role": "ROLE_USER", "messageId": "m-1", "parts": [{"text": "plan a review"}]}}))
            .expect("a request");
        let sent = json!({"message": {"role": "ROLE_USER", "messageId": "uuid", "parts": [{"text": "plan a review"}],
            "metadata": {}}, "configuration": {}});
        assert!(request_mismatches(&expected, &sent).is_empty());
        let other =
            json!({"message": {"role": "ROLE_USER", "parts": [{"text": "something else"}]}});
        assert_eq!(request_mismatches(&expected, &other).len(), 1);
    }
}
