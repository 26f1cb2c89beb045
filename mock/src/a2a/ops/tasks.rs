//! The operations on a task: GetTask, ListTasks, CancelTask,
//! SubscribeToTask and the push configs, each consistent with the task's
//! interaction (its `cancel`, its `followUps`).

use accord_dsl::model::accord::{A2aErrorReason, A2aOperation, TaskState};
use serde_json::{Value, json};

use super::Call;
use crate::a2a::error::A2aError;
use crate::a2a::store::{self, Part, Stream};
use crate::a2a::task::{self, MockTask};
use crate::report::MockMismatch;

impl Call<'_> {
    pub(super) fn get(&self, params: &Value) -> Result<Value, A2aError> {
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

    pub(super) fn list(&self, params: &Value) -> Result<Value, A2aError> {
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

    pub(super) fn cancel(&self, params: &Value) -> Result<Value, A2aError> {
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

    pub(super) fn subscribe(&self, params: &Value) -> Result<Stream, A2aError> {
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

    pub(super) fn push(&self, params: &Value) -> Result<Value, A2aError> {
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
                if t.push.len() >= task::MAX_PUSH_CONFIGS {
                    t.push.remove(0);
                }
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

/// A push config as stored: its id (given or new), the task, the url, the
/// token and authentication when given.
pub(super) fn stored_config(params: &Value, task_id: &str) -> Value {
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
