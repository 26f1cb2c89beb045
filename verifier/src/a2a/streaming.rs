//! Once per interface and run, where the card does not declare streaming
//! (`capabilities.streaming` false or absent): streaming must be refused,
//! even where the contract never streams (a consumer that reads the card
//! and finds no streaming never writes an interaction expecting the
//! refusal). No second business send: a `SubscribeToTask` of a task the
//! run created, read to its first event and dropped.
//!
//! | the probe | answered | finding |
//! | --- | --- | --- |
//! | while the task runs (the first state seen that is not terminal) | an event stream with an event | UNDECLARED_CAPABILITY_ACCEPTED (protocol) |
//! | while the task runs | refused (any error), or not a stream | none: the capability is refused; not probed again |
//! | after an interaction whose task was never seen running: of the finished task | an event stream with an event | UNDECLARED_CAPABILITY_ACCEPTED (protocol) |
//! | of the finished task | refused | not judged (the spec refuses a subscription to a terminal task, whether streaming is served or not: a correct agent — a2a-sdk's `@validate(capabilities.streaming)` — and a faulty one answer alike); a later running task is still probed |
//!
//! An interaction that streams itself (its send, a `SubscribeToTask` or
//! `SendStreamingMessage` follow-up) is judged on its own expectations
//! instead. The answers are watched for leaked credentials.

use std::collections::HashSet;
use std::sync::Mutex;

use accord_dsl::model::accord::{A2aOperation, A2aTask};
use serde_json::{Map, json};

use super::flow::Run;
use super::probe::Watch;
use super::stream::{Next, Opened};
use super::wire::Client;
use crate::driver::Exchange;
use crate::finding::{Finding, Layer, codes};

const PATH: &str = "agentCard.capabilities.streaming";

/// The interfaces probed this run: while a task ran (settled), and of a
/// finished task (only a served stream settles it).
#[derive(Debug, Default)]
pub struct Probed {
    pub running: Mutex<HashSet<String>>,
    pub finished: Mutex<HashSet<String>>,
}

/// Whether the interaction streams itself (its own expectations judge it).
pub fn streams_itself(task: &A2aTask) -> bool {
    task.streaming
        || task.follow_ups.iter().any(|f| {
            matches!(
                f.operation,
                A2aOperation::SubscribeToTask | A2aOperation::SendStreamingMessage
            )
        })
}

/// Subscribes to `task_id` and reads the first frame: the finding of a
/// stream served where the card declares none (`when`: the task's state).
pub async fn subscribe(
    client: &Client<'_>,
    task_id: &str,
    watch: &mut Watch,
    when: &str,
) -> Option<Finding> {
    let mut params = Map::new();
    params.insert("id".into(), json!(task_id));
    let timeout = client.transport.limits().request_timeout;
    let opened = client
        .open_stream(A2aOperation::SubscribeToTask, params)
        .await
        .ok()?;
    let Opened::Events(mut stream) = opened else {
        if let Opened::Answer(answer) = &opened {
            watch.scan(Some(answer), PATH);
        }
        return None;
    };
    let first = stream.next(timeout).await;
    let served = matches!(first, Next::Event(_));
    let answer = super::stream::first_answer_of(&stream, first);
    watch.scan(Some(&answer), PATH);
    served.then(|| {
        let detail = format!(
            "the card does not declare streaming, yet SubscribeToTask of {when} was served an event stream on the {} interface",
            client.interface.binding.as_str()
        );
        Finding::new(
            Layer::Protocol,
            codes::UNDECLARED_CAPABILITY_ACCEPTED,
            PATH,
            detail,
        )
    })
}

/// After an interaction: the probe of its finished task, where no running
/// task settled the interface yet.
pub async fn after(
    probed: &Probed,
    client: &Client<'_>,
    exchange: &Exchange<'_>,
    task_id: &str,
) -> Vec<Finding> {
    let url = &client.interface.url;
    if super::lock(&probed.running).contains(url)
        || !super::lock(&probed.finished).insert(url.clone())
    {
        return Vec::new();
    }
    let mut watch = Watch::new(exchange);
    let found = subscribe(client, task_id, &mut watch, "a finished task").await;
    if found.is_some() {
        super::lock(&probed.running).insert(url.clone());
    }
    found.into_iter().chain(watch.leaks).collect()
}

impl Run<'_> {
    /// While the task runs: the probe, once per interface.
    pub(super) async fn probe_streaming(&mut self) {
        let Some(probed) = self.streaming_probed else {
            return;
        };
        let running = self.record.last_state().is_some_and(|s| !s.is_terminal());
        let Some(task_id) = self.record.task_id.clone().filter(|_| running) else {
            return;
        };
        if self.declares("streaming") || streams_itself(self.task) {
            return;
        }
        if !super::lock(&probed.running).insert(self.base.interface.url.clone()) {
            return;
        }
        let mut watch = Watch::new(self.exchange);
        let found = subscribe(&self.base, &task_id, &mut watch, "a running task").await;
        self.out.findings.extend(found);
        self.out.findings.extend(watch.leaks);
    }
}
