//! Two results published at once, and the cost of judging a result.

use serde_json::json;

use super::*;
use crate::declarations_diff::spec;
use crate::support::each_backend;

#[test]
fn two_results_published_at_once_are_judged_one_after_the_other() {
    each_backend(|app| {
        let d = seed(app, &spec("planner", "draft, ready"));
        let paths: Vec<String> = ["planner", "auditor"]
            .into_iter()
            .map(|c| results_path(app, c))
            .collect();
        // a race shows only now and then: several versions, each verified
        // by both consumers at once
        for version in ["2.0", "2.1", "2.2", "2.3", "2.4"] {
            let declared =
                format!("/pacticipants/{P}/versions/{version}/declarations/mcp-tools/carol");
            let tools = crate::declarations_diff::tools(&["draft", "ready", "rejected"]);
            assert!(matches!(app.put(&declared, &tools).status, 200 | 201));
            let body = result_body(version, &d, json!({}));
            let start = std::sync::Barrier::new(2);
            std::thread::scope(|scope| {
                for path in &paths {
                    let (start, body) = (&start, &body);
                    scope.spawn(move || {
                        start.wait();
                        let reply = app.post(path, body);
                        assert_eq!(reply.status, 201, "{}", reply.text);
                    });
                }
            });
            let a = app.get(&format!("/pacticipants/{P}/versions/{version}/admission"));
            assert_eq!(
                a.json["state"], "CONFORMANCE_VERIFIED",
                "{version}: {}",
                a.text
            );
        }
    });
}

/// What judging the evidence adds to publishing a result: `n` live
/// consumer contracts, each result published for a version with
/// declarations (judged: every live contract read) and for one without
/// (DRAFT: not judged). Prints the mean per result; asserts no time.
#[test]
#[ignore = "measurement: run with --ignored --nocapture"]
fn measure_publishing_a_result_with_many_live_contracts() {
    let n = 50;
    for db in backends() {
        let app = TestApp::start(db, |_| {});
        let consumers: Vec<String> = (0..n).map(|i| format!("c{i:03}")).collect();
        for c in &consumers {
            publish_spec(&app, c, &spec(c, "draft, ready"));
        }
        let d = declare(&app, &["draft", "ready", "rejected"]);
        assert_eq!(state(&app), "STATIC_VALIDATED");
        let paths: Vec<String> = consumers.iter().map(|c| results_path(&app, c)).collect();
        let mut mean = Vec::new();
        for version in ["1.9", "2.0"] {
            let started = std::time::Instant::now();
            let body = result_body(version, &d, json!({}));
            for path in &paths {
                let reply = app.post(path, &body);
                assert_eq!(reply.status, 201, "{}", reply.text);
            }
            mean.push(started.elapsed() / n);
        }
        assert_eq!(state(&app), "CONFORMANCE_VERIFIED");
        println!(
            "{db:?}: {n} live contracts: a result for a DRAFT version {:?}, for a judged version {:?} (mean per result, over {n})",
            mean[0], mean[1]
        );
    }
}
