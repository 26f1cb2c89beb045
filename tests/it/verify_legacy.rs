//! `accord verify --broker-url` against a fake broker on loopback: an older
//! Pact Broker without pacts for verification (Pact's legacy mode), a
//! broker with transient failures (retries), and one that refuses the
//! results (exit 2 after the summary).

use accord_fixtures::http::HttpProvider;
use predicates::str::contains;
use serde_json::{Value, json};

use crate::fake_broker::{FakeBroker, Request, Response};
use crate::support::{items_pact, verify_items};

/// A Pact V4 document for the fixtures provider, with a broker's links;
/// `price` makes it expect a field the provider never sends.
fn pact(base: &str, name: &str, price: bool) -> Value {
    let mut item = json!({"id": 7, "name": "widget"});
    if price {
        item["price"] = json!(5);
    }
    let mut doc = items_pact("consumer", item);
    doc["_links"] = json!({
        "self": {"href": format!("{base}/pacts/{name}")},
        "pb:publish-verification-results": {"href": format!("{base}/results/{name}")}
    });
    doc
}

/// The pacts link list of a provider-pacts collection.
fn pacts(base: &str, rel: &str, names: &[&str]) -> Value {
    let list: Vec<Value> = names
        .iter()
        .map(|n| json!({"href": format!("{base}/pacts/{n}"), "title": "Pact", "name": "consumer"}))
        .collect();
    json!({"_links": {rel: list}})
}

/// An older Pact Broker: no `pb:provider-pacts-for-verification`. The
/// latest pact and tags `prod`/`main` are `good`; tag `dev` is `bad`
/// (listed under the deprecated `pacts` relation only).
pub(crate) fn legacy(base: &str, req: &Request) -> Response {
    let ok = |body: Value| Response::json(200, &body);
    match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/") => ok(json!({"_links": {
            "self": {"href": format!("{base}/")},
            "pb:latest-provider-pacts": {"href": format!("{base}/pacts/provider/{{provider}}/latest"), "templated": true},
            "pb:latest-provider-pacts-with-tag": {"href": format!("{base}/pacts/provider/{{provider}}/latest/{{tag}}"), "templated": true}
        }})),
        ("GET", "/pacts/provider/items/latest")
        | ("GET", "/pacts/provider/items/latest/prod")
        | ("GET", "/pacts/provider/items/latest/main") => ok(pacts(base, "pb:pacts", &["good"])),
        ("GET", "/pacts/provider/items/latest/dev") => ok(pacts(base, "pacts", &["bad"])),
        ("GET", "/pacts/good") => ok(pact(base, "good", false)),
        ("GET", "/pacts/bad") => ok(pact(base, "bad", true)),
        ("POST", path) if path.starts_with("/results/") => Response::json(
            201,
            &json!({"_links": {"self": {"href": format!("{base}{path}/1")}}}),
        ),
        _ => Response::status(404),
    }
}

fn verify(
    broker: &FakeBroker,
    provider: &HttpProvider,
    extra: &[&str],
) -> assert_cmd::assert::Assert {
    verify_items(&broker.url, provider)
        .args(extra)
        .env("ACCORD_BROKER_RETRY_BASE_MS", "1")
        .assert()
}

fn out(a: &assert_cmd::assert::Assert) -> (String, String) {
    let o = a.get_output();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const PUBLISH: [&str; 3] = ["--publish", "--provider-version", "2.0.0"];

#[test]
fn a_broker_without_pacts_for_verification_gives_its_latest_pacts_and_takes_the_results() {
    let broker = FakeBroker::start(|base, req, _| legacy(base, req));
    let provider = HttpProvider::start().expect("provider");
    let a = verify(&broker, &provider, &PUBLISH).code(0);
    let (stdout, _) = out(&a);
    assert!(stdout.contains("Pact's legacy mode"), "{stdout}");
    assert!(stdout.contains("The pact of consumer (latest)"), "{stdout}");
    assert!(stdout.contains("PASS"), "{stdout}");
    assert_eq!(broker.count("GET", "/pacts/provider/items/latest"), 1);
    let posted: Vec<Request> = broker
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert_eq!(posted[0].path, "/results/good");
    let body: Value = serde_json::from_str(&posted[0].body).expect("JSON results");
    assert_eq!(body["success"], true, "{body}");
    assert_eq!(body["providerApplicationVersion"], "2.0.0", "{body}");
}

#[test]
fn consumer_version_tags_on_a_legacy_broker_read_the_latest_pacts_with_each_tag() {
    let broker = FakeBroker::start(|base, req, _| legacy(base, req));
    let provider = HttpProvider::start().expect("provider");
    // prod and main name the same pact: it is fetched and verified once.
    let a = verify(
        &broker,
        &provider,
        &["--consumer-version-tags", "prod,main"],
    )
    .code(0);
    let (stdout, _) = out(&a);
    assert!(
        stdout.contains("The pact of consumer (latest with tag prod, latest with tag main)"),
        "{stdout}"
    );
    assert_eq!(broker.count("GET", "/pacts/good"), 1);
    assert_eq!(broker.count("GET", "/pacts/provider/items/latest"), 0);
    // dev's pact (under the deprecated `pacts` relation) expects a price.
    let a = verify(
        &broker,
        &provider,
        &[
            "--consumer-version-tags",
            "prod",
            "--consumer-version-tags",
            "dev",
        ],
    )
    .code(1);
    let (stdout, _) = out(&a);
    assert!(stdout.contains("RESPONSE_MISMATCH"), "{stdout}");
    assert_eq!(broker.count("GET", "/pacts/provider/items/latest/dev"), 1);
    // A tag no consumer version has: nothing to verify is an error.
    verify(&broker, &provider, &["--consumer-version-tags", "nothing"])
        .code(2)
        .stderr(contains(
            "no pacts were found for provider items at http://127.0.0.1:",
        ))
        .stderr(contains("(Pact's legacy mode: latest with tag nothing)"));
}

#[test]
fn pending_and_wip_on_a_legacy_broker_are_a_notice_and_other_selectors_an_error() {
    let broker = FakeBroker::start(|base, req, _| legacy(base, req));
    let provider = HttpProvider::start().expect("provider");
    let a = verify(
        &broker,
        &provider,
        &[
            "--enable-pending",
            "--include-wip-since",
            "2026-01-01",
            "--provider-branch",
            "main",
        ],
    )
    .code(0);
    let (stdout, _) = out(&a);
    assert!(
        stdout.contains("cannot tell pending or work-in-progress pacts"),
        "{stdout}"
    );
    let a = verify(
        &broker,
        &provider,
        &[
            "--consumer-version-selectors",
            r#"{"tag":"prod","latest":true}"#,
            r#"{"mainBranch":true}"#,
        ],
    )
    .code(2);
    let (_, stderr) = out(&a);
    assert!(stderr.contains("older than 2.60"), "{stderr}");
    assert!(stderr.contains(r#"not by {"mainBranch":true}"#), "{stderr}");
    assert_eq!(
        broker.count("GET", "/pacts/good"),
        1,
        "nothing fetched for the refused selectors"
    );
}

#[test]
fn a_broker_answering_503_twice_is_asked_again_and_the_verification_succeeds() {
    let broker = FakeBroker::start(|base, req, earlier| match req.path.as_str() {
        "/" if earlier < 2 => Response::status(503),
        "/pacts/good" if earlier < 1 => Response {
            headers: vec![("Retry-After".into(), "0".into())],
            ..Response::status(429)
        },
        _ => legacy(base, req),
    });
    let provider = HttpProvider::start().expect("provider");
    verify(&broker, &provider, &[]).code(0);
    assert_eq!(broker.count("GET", "/"), 3);
    assert_eq!(broker.count("GET", "/pacts/good"), 2);
}

#[test]
fn a_broker_always_answering_503_is_an_operational_error_after_three_retries() {
    let broker = FakeBroker::start(|_, _, _| Response::status(503));
    let provider = HttpProvider::start().expect("provider");
    let a = verify(&broker, &provider, &[]).code(2);
    let (_, stderr) = out(&a);
    let expected = format!("GET {}/ failed: HTTP 503 (after 3 retries)", broker.url);
    assert!(stderr.contains(&expected), "{stderr}");
    assert_eq!(broker.count("GET", "/"), 4);
}

#[test]
fn the_pacts_for_verification_query_is_retried_and_carries_the_tags_as_latest_selectors() {
    let broker = FakeBroker::start(|base, req, earlier| {
        let nav = format!("{base}/pacts/provider/items/for-verification");
        match (req.method.as_str(), req.path.as_str()) {
            ("GET", "/") => Response::json(
                200,
                &json!({"_links": {
                    "pb:provider-pacts-for-verification": {"href": format!("{base}/pacts/provider/{{provider}}/for-verification")}
                }}),
            ),
            ("GET", "/pacts/provider/items/for-verification") => {
                Response::json(200, &json!({"_links": {"self": {"href": nav}}}))
            }
            ("POST", "/pacts/provider/items/for-verification") if earlier == 0 => {
                Response::status(502)
            }
            ("POST", "/pacts/provider/items/for-verification") => Response::json(
                200,
                &json!({
                    "_embedded": {"pacts": [{
                        "shortDescription": "latest with tag prod",
                        "verificationProperties": {"pending": false, "notices": []},
                        "_links": {"self": {"href": format!("{base}/pacts/good")}}
                    }]}
                }),
            ),
            _ => legacy(base, req),
        }
    });
    let provider = HttpProvider::start().expect("provider");
    verify(&broker, &provider, &["--consumer-version-tags", "prod,dev"]).code(0);
    let queries: Vec<Request> = broker
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert_eq!(queries.len(), 2, "{queries:?}");
    let body: Value = serde_json::from_str(&queries[1].body).expect("JSON");
    assert_eq!(
        body["consumerVersionSelectors"],
        json!([{"tag": "prod", "latest": true}, {"tag": "dev", "latest": true}])
    );
    verify(
        &broker,
        &provider,
        &[
            "--consumer-version-tags",
            "prod",
            "--consumer-version-selectors",
            r#"{"mainBranch":true}"#,
        ],
    )
    .code(2)
    .stderr(contains("cannot be used with"));
}

#[test]
fn results_the_broker_refuses_with_a_server_error_are_not_sent_again_and_exit_two_after_the_summary()
 {
    let broker = FakeBroker::start(|base, req, _| match req.path.as_str() {
        "/results/good" => Response::json(503, &json!({"detail": "database is read-only"})),
        _ => legacy(base, req),
    });
    let provider = HttpProvider::start().expect("provider");
    let a = verify(&broker, &provider, &PUBLISH).code(2);
    let (stdout, stderr) = out(&a);
    assert!(stdout.contains("Verification PASSED"), "{stdout}");
    assert!(!stdout.contains("Published the verification"), "{stdout}");
    let pact = format!(
        "cannot publish the verification results of consumer's pact ({}/pacts/good)",
        broker.url
    );
    assert!(stderr.contains(&pact), "{stderr}");
    assert!(
        stderr.contains("HTTP 503: database is read-only"),
        "{stderr}"
    );
    assert_eq!(
        broker.count("POST", "/results/good"),
        1,
        "a 5xx may have stored them"
    );
}

#[test]
fn results_answered_429_are_sent_again() {
    let broker = FakeBroker::start(|base, req, earlier| match req.path.as_str() {
        "/results/good" if earlier == 0 => Response::status(429),
        _ => legacy(base, req),
    });
    let provider = HttpProvider::start().expect("provider");
    let a = verify(&broker, &provider, &PUBLISH).code(0);
    let (stdout, _) = out(&a);
    assert!(
        stdout.contains("Published the verification of consumer's pact"),
        "{stdout}"
    );
    assert_eq!(broker.count("POST", "/results/good"), 2);
}

#[test]
fn one_pacts_refused_results_do_not_stop_the_next_pacts_and_still_exit_two() {
    let broker = FakeBroker::start(|base, req, _| match req.path.as_str() {
        "/results/good" => Response::status(500),
        _ => legacy(base, req),
    });
    let provider = HttpProvider::start().expect("provider");
    let mut args = vec!["--consumer-version-tags", "prod,dev"];
    args.extend(PUBLISH);
    let a = verify(&broker, &provider, &args).code(2);
    let (stdout, stderr) = out(&a);
    assert!(stdout.contains("Verification FAILED"), "{stdout}");
    let bad = format!(
        "Published the verification of consumer's pact: {}/results/bad/1",
        broker.url
    );
    assert!(stdout.contains(&bad), "{stdout}");
    assert!(stderr.contains("/pacts/good): POST"), "{stderr}");
    assert!(stderr.contains("HTTP 500"), "{stderr}");
    assert!(!stderr.contains("/pacts/bad"), "{stderr}");
    assert_eq!(broker.count("POST", "/results/good"), 1);
    assert_eq!(broker.count("POST", "/results/bad"), 1);
}

#[test]
fn results_for_a_broker_that_refuses_the_connection_are_sent_again_then_exit_two() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let gone = format!("http://{}", closed.local_addr().expect("address"));
    drop(closed);
    let broker = FakeBroker::start(move |base, req, _| match req.path.as_str() {
        "/pacts/good" => {
            let mut doc = pact(base, "good", false);
            doc["_links"]["pb:publish-verification-results"]["href"] =
                json!(format!("{gone}/results/good"));
            Response::json(200, &doc)
        }
        _ => legacy(base, req),
    });
    let provider = HttpProvider::start().expect("provider");
    let a = verify(&broker, &provider, &PUBLISH).code(2);
    let (stdout, stderr) = out(&a);
    assert!(stdout.contains("Verification PASSED"), "{stdout}");
    assert!(
        stderr.contains("cannot reach the broker: POST http://"),
        "{stderr}"
    );
    assert!(
        stderr.contains("/results/good failed (after 3 retries)"),
        "{stderr}"
    );
}

#[test]
fn a_broker_reply_too_large_to_read_is_refused_not_read_to_the_end() {
    let huge = Response {
        status: 200,
        headers: vec![],
        body: " ".repeat(65 << 20),
    };
    let broker = FakeBroker::start(move |_, _, _| huge.clone());
    let provider = HttpProvider::start().expect("provider");
    let a = verify(&broker, &provider, &[]).code(2);
    let (_, stderr) = out(&a);
    assert!(
        stderr.contains("is larger than 64 MiB: refused"),
        "{stderr}"
    );
}
