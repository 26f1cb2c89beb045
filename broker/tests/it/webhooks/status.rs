//! `GET /pacts/provider/{p}/consumer/{c}/webhooks/status`: the latest
//! triggered webhook of each webhook of the pair, their summary, the error
//! logs of the failed ones.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Receiver, each_backend_fast, hook, pacticipants};
use crate::pact_docs::{http, pact, publish_ok};

const STATUS: &str = "/pacts/provider/Bar/consumer/Foo/webhooks/status";

/// The status once both webhooks settled (at most a minute: a bound).
fn settled(app: &crate::support::TestApp) -> Value {
    let start = Instant::now();
    loop {
        let got = app.get(STATUS);
        assert_eq!(got.status, 200, "{}", got.text);
        let s = &got.json["summary"];
        if s["successful"].as_i64().unwrap_or(0) + s["failed"].as_i64().unwrap_or(0) == 2
            || start.elapsed() > Duration::from_secs(60)
        {
            return got.json;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_webhook_status_of_a_pair_sums_up_the_latest_deliveries() {
    each_backend_fast(|app| {
        pacticipants(app, &["Foo", "Bar"]);
        let empty = app.get(STATUS);
        assert_eq!(empty.status, 200, "{}", empty.text);
        assert_eq!(empty.json["summary"], json!({"successful": 0, "failed": 0}));
        let good = Receiver::start(&[]);
        let bad = Receiver::start(&[500; 100]);
        for r in [&good, &bad] {
            assert_eq!(
                app.post(
                    "/webhooks",
                    &hook(r, &["contract_published"], Some("Foo"), None)
                )
                .status,
                201
            );
        }
        for version in ["1", "2"] {
            publish_ok(
                app,
                version,
                None,
                &[],
                &[pact("Foo", "Bar", json!([http("/a", 200)]))],
            );
        }
        let status = settled(app);
        let latest = status["_embedded"]["triggeredWebhooks"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(latest.len(), 2, "one per webhook, the latest: {status}");
        assert_eq!(
            status["summary"],
            json!({"successful": 1, "failed": 1}),
            "{status}"
        );
        let errors = status["_links"]["pb:error-logs"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(errors.len(), 1, "{status}");
        assert!(
            status["_links"]["pb:pact-webhooks"]["href"]
                .as_str()
                .is_some_and(|h| h.ends_with("/pacts/provider/Bar/consumer/Foo/webhooks"))
        );
        assert_eq!(
            app.get("/pacts/provider/Bar/consumer/Nobody/webhooks/status")
                .status,
            404
        );
    });
}
