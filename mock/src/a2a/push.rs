//! Push notifications: every event of a task goes to each webhook
//! registered for it, as A2A v1.0 says — a POST of the `StreamResponse`
//! with `Content-Type: application/a2a+json`, the config's
//! `authentication` as `Authorization: <scheme> <credentials>` and its
//! `token` as `X-A2A-Notification-Token`. One delivery at a time per
//! batch, in order; a webhook that fails is not retried (the consumer's
//! receiver is on loopback).

use std::time::Duration;

use serde_json::Value;

/// Delivers `events` to each of `configs` in the background.
pub(crate) fn deliver(configs: Vec<Value>, events: Vec<Value>) {
    actix_web::rt::spawn(async move {
        // a client per batch: a pooled connection belongs to the runtime
        // (worker thread) that opened it
        let Ok(client) = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .build()
        else {
            return;
        };
        for config in &configs {
            let Some(url) = config["url"].as_str() else {
                continue;
            };
            for event in &events {
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
                if post.send().await.is_err() {
                    break;
                }
            }
        }
    });
}
