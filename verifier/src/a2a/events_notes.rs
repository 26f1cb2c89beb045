//! What the record notes as not the task's own: repeats, events of
//! another task or context, the user's role on the agent's messages,
//! artifacts an ended task lost; and the task an update names when its
//! stream did not start with it.

use serde_json::Value;

use super::{Event, Record};

impl Record {
    /// Notes an exact repeat of an earlier frame: an artifact update, or a
    /// terminal status (progress updates may repeat honestly).
    pub(super) fn note_repeat(&mut self, response: &Value, source: &str, comparable: bool) {
        let digest = accord_dsl::canonical::digest(response);
        if comparable && self.seen.contains(&digest) {
            let what = response
                .as_object()
                .and_then(|o| o.keys().next())
                .cloned()
                .unwrap_or_default();
            self.duplicates.push((source.to_owned(), what));
        }
        self.seen.push(digest);
    }

    /// An update before any task was seen (a stream that did not start
    /// with it) names the task: it is followed from there.
    pub(super) fn adopt(&mut self, update: &Value) {
        if self.task_id.is_none() {
            let named = |k: &str| update.get(k).and_then(Value::as_str).map(str::to_owned);
            self.task_id = named("taskId");
            self.context_id = named("contextId");
        }
    }

    /// A message the agent sends (its reply, a status update's) is the
    /// agent's: a `ROLE_USER` one is noted once per source.
    pub(super) fn note_user_role(&mut self, message: Option<&Value>, source: &str) {
        let role = message.and_then(|m| m.get("role")).and_then(Value::as_str);
        if role == Some("ROLE_USER") {
            self.note_once(
                source,
                "a message from the agent with role ROLE_USER".to_owned(),
            );
        }
    }

    /// An event of the task names its id and its context (both required
    /// in A2A v1.0); each way it does not is noted once per source.
    pub(super) fn same_task(&mut self, value: &Value, key: &str, source: &str) {
        let Some(known) = &self.task_id else { return };
        let mut why = None;
        if let Some(got) = value.get(key).and_then(Value::as_str)
            && known != got
        {
            why = Some(format!(
                "an event of task {got} in the stream of task {known}"
            ));
        } else if let Some(context) = &self.context_id {
            why = match value.get("contextId").and_then(Value::as_str) {
                None => Some(format!(
                    "an event of task {known} without its contextId ({context})"
                )),
                Some(got) if got != context => Some(format!(
                    "an event of task {known} names context {got}, the task's is {context}"
                )),
                Some(_) => None,
            };
        }
        if let Some(why) = why {
            self.note_once(source, why);
        }
    }

    /// A terminal task keeps every artifact it made: the ones seen before
    /// that its snapshot `task` lacks are noted.
    pub(super) fn note_lost(&mut self, task: &Value, source: &str) {
        let kept: Vec<&str> = task
            .get("artifacts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|a| a.get("artifactId").and_then(Value::as_str))
            .collect();
        let lost: Vec<String> = self
            .events
            .iter()
            .filter_map(|o| match &o.event {
                Event::Artifact { id, .. } if !id.is_empty() && !kept.contains(&id.as_str()) => {
                    Some(id.clone())
                }
                _ => None,
            })
            .collect();
        if !lost.is_empty() {
            self.lost.push((source.to_owned(), lost));
        }
    }

    /// Notes what is not A2A once per source and cause.
    fn note_once(&mut self, source: &str, why: String) {
        let noted = (source.to_owned(), why);
        if !self.malformed.contains(&noted) {
            self.malformed.push(noted);
        }
    }
}
