//! The answer view of an A2A send that `repeat.sameFields` paths point
//! into: the task as the events left it, whatever way they came (a stream,
//! a blocking answer, `GetTask` polls).
//!
//! `{id, contextId, status: {state}, artifacts: [{artifactId, name, parts}], message}`
//! — artifacts with their chunks joined, in the order first seen; `message`
//! is the agent's last direct message. Numbers as sent.

use serde_json::{Map, Value, json};

use super::events::{Event, Record};

impl Record {
    /// The task as the events left it.
    pub fn answer_view(&self) -> Value {
        let mut view = Map::new();
        if let Some(id) = &self.task_id {
            view.insert("id".into(), json!(id));
        }
        if let Some(c) = &self.context_id {
            view.insert("contextId".into(), json!(c));
        }
        let mut artifacts: Vec<(String, Value)> = Vec::new();
        for o in &self.events {
            match &o.event {
                Event::Status { wire, .. } => {
                    view.insert("status".into(), json!({"state": wire}));
                }
                Event::Artifact { id, name, parts } => {
                    let a = json!({"artifactId": id, "name": name, "parts": parts});
                    match artifacts.iter_mut().find(|(seen, _)| seen == id) {
                        Some((_, was)) => *was = a,
                        None => artifacts.push((id.clone(), a)),
                    }
                }
                Event::Message(m) => {
                    view.insert("message".into(), m.clone());
                }
            }
        }
        if !artifacts.is_empty() {
            let list = artifacts.into_iter().map(|(_, a)| a).collect();
            view.insert("artifacts".into(), Value::Array(list));
        }
        Value::Object(view)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_view_holds_the_last_state_and_each_artifact_once() {
        let mut r = Record::default();
        let at = Duration::ZERO;
        r.take_response(
            &json!({"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}),
            at,
            "stream",
        );
        let artifact =
            json!({"artifactId": "a-1", "name": "plan", "parts": [{"data": {"plan_id": "p-1"}}]});
        r.take_response(
            &json!({"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "artifact": artifact}}),
            at,
            "stream",
        );
        r.take_response(
            &json!({"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}),
            at,
            "stream",
        );
        let v = r.answer_view();
        assert_eq!(v["id"], "t-1");
        assert_eq!(v["status"]["state"], "TASK_STATE_COMPLETED");
        assert_eq!(v["artifacts"][0]["parts"][0]["data"]["plan_id"], "p-1");
        assert_eq!(v["artifacts"].as_array().map(Vec::len), Some(1));
    }
}
