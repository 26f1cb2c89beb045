//! Drift reports: stored and read back with the OpenTelemetry names they
//! came with; payload fields, unknown fields, unknown provider, version or
//! environment, bad digests and hostile bodies refused naming the path,
//! with nothing stored.

use serde_json::{Value, json};

use crate::admission::create_version;
use crate::environments::create_environment;
use crate::support::{TestApp, each_backend};

fn digest(c: char) -> String {
    format!("sha256:{}", c.to_string().repeat(64))
}

/// A valid report for `agent` 1.0.0 in production.
pub fn report() -> Value {
    json!({
        "provider": "agent", "version": "1.0.0", "environment": "production",
        "window": {"start": "2026-12-05T04:00:00Z", "end": "2026-12-05T04:05:00Z"},
        "source": "gateway-eu-1",
        "agentCardDigest": digest('a'),
        "toolsDigests": {"alice": digest('b')},
        "counts": {"outputSchemaViolations": 3, "unknownErrorCodes": 1},
        "observations": [{"signal": "unknownErrorCodes", "count": 1,
            "mcp.method.name": "tools/call", "gen_ai.tool.name": "work_plan_lookup",
            "error.type": "-32099", "profile": "alice"}]
    })
}

/// The provider version and environment a report names.
pub fn seed(app: &TestApp) {
    create_version(app, "agent", "1.0.0");
    create_environment(app, "production");
}

/// True when no report is stored (the first id would be 1 on both backends).
fn nothing_stored(app: &TestApp) -> bool {
    app.get("/drift-reports/1").status == 404
}

#[test]
fn a_report_is_stored_and_read_back_with_its_signals() {
    each_backend(|app| {
        seed(app);
        let posted = app.post("/drift-reports", &report());
        assert_eq!(posted.status, 201, "{}", posted.text);
        let id = posted.json["id"].as_i64().expect("id");
        let got = app.get(&format!("/drift-reports/{id}"));
        assert_eq!(got.status, 200, "{}", got.text);
        for body in [&posted.json, &got.json] {
            assert_eq!(body["provider"], "agent");
            assert_eq!(body["environment"], "production");
            assert_eq!(body["window"]["end"], "2026-12-05T04:05:00Z");
            assert_eq!(body["agentCardDigest"], digest('a'));
            assert_eq!(body["toolsDigests"]["alice"], digest('b'));
            assert_eq!(body["counts"]["outputSchemaViolations"], 3);
            assert_eq!(body["counts"]["crossTenantAllows"], 0);
            assert_eq!(
                body["observations"][0]["gen_ai.tool.name"],
                "work_plan_lookup"
            );
            assert_eq!(body["observations"][0]["error.type"], "-32099");
        }
        assert!(
            got.json["_links"]["accord:admission"]["href"]
                .as_str()
                .is_some_and(|h| h.ends_with("/pacticipants/agent/versions/1.0.0/admission"))
        );
        assert_eq!(app.get("/drift-reports/999").status, 404);
        assert_eq!(app.get("/drift-reports/x").status, 404);
    });
}

#[test]
fn a_report_carrying_a_payload_is_refused_naming_the_field() {
    each_backend(|app| {
        seed(app);
        let mut top = report();
        top["response"] = json!({"plan_id": "plan-1"});
        let mut deep = report();
        deep["observations"][0]["gen_ai.tool.call.arguments"] = json!({"tenant_id": "t"});
        let mut messages = report();
        messages["gen_ai.input.messages"] = json!([{"role": "user"}]);
        for (body, path) in [
            (top, "$.response"),
            (deep, "$.observations[0].gen_ai.tool.call.arguments"),
            (messages, "$.gen_ai.input.messages"),
        ] {
            let refused = app.post("/drift-reports", &body);
            assert_eq!(refused.status, 400, "{path}: {}", refused.text);
            assert!(refused.json["errors"][path].is_array(), "{}", refused.text);
            assert!(refused.text.contains("payload"), "{}", refused.text);
        }
        assert!(nothing_stored(app));
    });
}

#[test]
fn unknown_fields_names_and_bad_values_are_refused_with_their_path() {
    each_backend(|app| {
        seed(app);
        let cases: Vec<(&str, Value, u16, &str)> = vec![
            ("/extra", json!(1), 400, "extra"),
            ("/counts/latency", json!(1), 400, "latency"),
            (
                "/counts/unknownErrorCodes",
                json!(-1),
                400,
                "unknownErrorCodes",
            ),
            ("/agentCardDigest", json!("md5:00"), 400, "agentCardDigest"),
            (
                "/window/end",
                json!("2026-12-05T03:00:00Z"),
                400,
                "$.window.end",
            ),
            ("/observations/0/signal", json!("latency"), 400, "signal"),
            ("/provider", json!("ghost"), 422, "$.provider"),
            ("/version", json!("9.9.9"), 422, "$.version"),
            ("/environment", json!("staging"), 422, "$.environment"),
        ];
        for (pointer, value, status, named) in cases {
            let mut body = report();
            let (parent, key) = pointer.rsplit_once('/').expect("pointer");
            let target = if parent.is_empty() {
                &mut body
            } else {
                body.pointer_mut(parent).expect("parent")
            };
            match target {
                Value::Object(map) => {
                    map.insert(key.to_owned(), value);
                }
                Value::Array(items) => items[key.parse::<usize>().expect("index")] = value,
                _ => panic!("{pointer}"),
            }
            let refused = app.post("/drift-reports", &body);
            assert_eq!(refused.status, status, "{pointer}: {}", refused.text);
            assert!(refused.text.contains(named), "{pointer}: {}", refused.text);
        }
        assert!(nothing_stored(app));
    });
}

#[test]
fn hostile_reports_get_a_4xx_and_store_nothing() {
    each_backend(|app| {
        seed(app);
        let deep = "{\"a\":".repeat(10_000);
        let mut many = report();
        many["observations"] = json!(vec![report()["observations"][0].clone(); 1001]);
        let mut profiles = report();
        let map: serde_json::Map<String, Value> = (0..65)
            .map(|i| (format!("p{i}"), json!(digest('c'))))
            .collect();
        profiles["toolsDigests"] = Value::Object(map);
        let send = |bytes: Vec<u8>| {
            app.send(
                app.client()
                    .post(format!("{}/drift-reports", app.url))
                    .header("Content-Type", "application/json")
                    .body(bytes),
            )
        };
        for (what, reply) in [
            ("deep", send(deep.into_bytes())),
            ("many observations", app.post("/drift-reports", &many)),
            ("many profiles", app.post("/drift-reports", &profiles)),
            ("not an object", send(b"[]".to_vec())),
        ] {
            assert!((400..500).contains(&reply.status), "{what}: {}", reply.text);
        }
        let huge = format!("{{\"source\":\"{}\"}}", "x".repeat(2 << 20));
        let reply = send(huge.into_bytes());
        assert!((400..500).contains(&reply.status), "huge: {}", reply.text);
        assert!(nothing_stored(app));
    });
}

/// Ingestion speed on SQLite (goal: at least 1,000 reports/s). Measures,
/// never asserts a time (the machine is shared):
/// `cargo test -p accord-broker --test it -- --ignored measure_drift_report_ingestion --nocapture`
#[test]
#[ignore = "a measurement: prints reports per second"]
fn measure_drift_report_ingestion() {
    let app = TestApp::start(crate::support::TestDb::Sqlite, |_| {});
    seed(&app);
    let body = report().to_string();
    ingest(&app, "drift report ingestion", &body, 500, |_| {});
}

/// Posts `body` as a drift report `each` times from each of 8 clients,
/// checks every answer is 201 and passes `check`, and prints the rate.
pub fn ingest(
    app: &TestApp,
    what: &str,
    body: &str,
    each: usize,
    check: impl Fn(&crate::support::Reply) + Sync,
) {
    let threads = 8;
    let started = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                for _ in 0..each {
                    let reply = app.send(
                        app.client()
                            .post(format!("{}/drift-reports", app.url))
                            .header("Content-Type", "application/json")
                            .body(body.to_owned()),
                    );
                    assert_eq!(reply.status, 201, "{}", reply.text);
                    check(&reply);
                }
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let total = threads * each;
    println!(
        "{what} on SQLite: {total} reports from {threads} clients in {seconds:.2} s = {:.0} reports/s",
        f64::from(u32::try_from(total).unwrap_or(u32::MAX)) / seconds
    );
}
