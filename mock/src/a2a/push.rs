//! Push notifications: every event of a task goes to each webhook
//! registered for it, as A2A v1.0 says — a POST of the `StreamResponse`
//! with `Content-Type: application/a2a+json`, the config's
//! `authentication` as `Authorization: <scheme> <credentials>` and its
//! `token` as `X-A2A-Notification-Token`. Batches go through one queue and
//! one delivery loop per mock, so a task's notifications arrive in the
//! order its states changed; a webhook that fails is not retried (the
//! consumer's receiver is on loopback). The queue holds [`QUEUED`]
//! batches at most: past it (a webhook slower than the tasks it hears
//! about) a batch is dropped, not kept without end.

use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc::{Sender, channel};

/// The most batches waiting for delivery.
pub(crate) const QUEUED: usize = 1_000;

/// A batch: the configs and the events each of them gets.
type Batch = (Vec<Value>, Vec<Value>);

/// The queue to the delivery loop, started on first use on the worker
/// that needs it (it lives as long as the server).
#[derive(Debug, Default)]
pub(crate) struct Courier {
    queue: OnceLock<Sender<Batch>>,
}

impl Courier {
    /// Queues `events` for each of `configs`, if the queue has room.
    pub(crate) fn deliver(&self, configs: Vec<Value>, events: Vec<Value>) {
        let queue = self.queue.get_or_init(|| {
            let (tx, mut rx) = channel::<Batch>(QUEUED);
            actix_web::rt::spawn(async move {
                let Ok(client) = reqwest::Client::builder()
                    .timeout(Duration::from_secs(5))
                    .build()
                else {
                    return;
                };
                while let Some((configs, events)) = rx.recv().await {
                    send(&client, &configs, &events).await;
                }
            });
            tx
        });
        drop(queue.try_send((configs, events)));
    }
}

async fn send(client: &reqwest::Client, configs: &[Value], events: &[Value]) {
    for config in configs {
        let Some(url) = config["url"].as_str() else {
            continue;
        };
        for event in events {
            let mut post = client
                .post(url)
                .header("content-type", "application/a2a+json")
                .body(event.to_string());
            let auth = &config["authentication"];
            if let Some(scheme) = auth["scheme"].as_str() {
                let credentials = auth["credentials"].as_str().unwrap_or_default();
                post = post.header("authorization", format!("{scheme} {credentials}"));
            }
            if let Some(token) = config["token"].as_str() {
                post = post.header("x-a2a-notification-token", token);
            }
            let again = post.try_clone();
            if post.send().await.is_err() {
                // a pooled connection the webhook had closed: once more on a
                // fresh one (A2A push delivery is at least once)
                tokio::time::sleep(Duration::from_millis(50)).await;
                let retried = match again {
                    Some(post) => post.send().await.is_ok(),
                    None => false,
                };
                if !retried {
                    break;
                }
            }
        }
    }
}
