//! Each change queues its events in its own transaction, exactly once, for
//! the webhooks that select it; the parameters render everywhere.

use serde_json::{Value, json};

use super::{Receiver, each_backend_fast, hook, pacticipants, queued};
use crate::pact_docs::{http, pact, path_of, publish_ok};
use crate::support::TestApp;

const ALL: [&str; 8] = [
    "contract_published",
    "contract_content_changed",
    "contract_requiring_verification_published",
    "provider_verification_published",
    "provider_verification_succeeded",
    "provider_verification_failed",
    "deployment_recorded",
    "release_recorded",
];

fn counts(app: &TestApp) -> Vec<i64> {
    ALL.iter().map(|e| queued(app, e)).collect()
}

fn results_path(app: &TestApp, version: &str) -> String {
    let pact = app.get(&format!(
        "/pacts/provider/Bar/consumer/Foo/version/{version}"
    ));
    path_of(
        app,
        &pact.json["_links"]["pb:publish-verification-results"]["href"],
    )
}

fn environment(app: &TestApp, name: &str) -> String {
    let e = app.post("/environments", &json!({"name": name}));
    e.json["uuid"].as_str().expect("uuid").to_owned()
}

#[test]
fn every_event_is_queued_once_per_change() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Bar", "Other"]);
        for e in ALL {
            assert_eq!(
                app.post("/webhooks", &hook(&r, &[e], None, None)).status,
                201
            );
        }
        let disabled = json!({"enabled": false, "events": [{"name": "contract_published"}], "request": {"method": "POST", "url": format!("{}/never", r.url)}});
        assert_eq!(app.post("/webhooks", &disabled).status, 201);
        let elsewhere = hook(&r, &["contract_published"], Some("Other"), None);
        assert_eq!(app.post("/webhooks", &elsewhere).status, 201);
        let a = pact("Foo", "Bar", json!([http("/a", 200)]));
        let b = pact("Foo", "Bar", json!([http("/b", 200)]));
        publish_ok(app, "1", Some("main"), &[], std::slice::from_ref(&a));
        assert_eq!(
            counts(app),
            vec![1, 1, 0, 0, 0, 0, 0, 0],
            "first publication: Bar has no version to verify it"
        );
        publish_ok(app, "1", Some("main"), &[], std::slice::from_ref(&a));
        assert_eq!(
            counts(app),
            vec![2, 1, 0, 0, 0, 0, 0, 0],
            "the same again: published, not changed"
        );
        publish_ok(app, "2", Some("main"), &[], std::slice::from_ref(&a));
        assert_eq!(
            counts(app),
            vec![3, 1, 0, 0, 0, 0, 0, 0],
            "same content, new version: not changed"
        );
        let ok = app.post(
            &results_path(app, "2"),
            &json!({"success": true, "providerApplicationVersion": "20"}),
        );
        assert_eq!(ok.status, 201, "{}", ok.text);
        assert_eq!(counts(app), vec![3, 1, 0, 1, 1, 0, 0, 0], "a success");
        let failed = app.post(
            &results_path(app, "2"),
            &json!({"success": false, "providerApplicationVersion": "21"}),
        );
        assert_eq!(failed.status, 201);
        assert_eq!(counts(app), vec![3, 1, 0, 2, 1, 1, 0, 0], "a failure");
        let prod = environment(app, "production");
        let deploy = format!("/pacticipants/Bar/versions/20/deployed-versions/environment/{prod}");
        assert_eq!(app.post(&deploy, &json!({})).status, 201);
        assert_eq!(app.post(&deploy, &json!({})).status, 200);
        let release = format!("/pacticipants/Bar/versions/21/released-versions/environment/{prod}");
        assert_eq!(app.post(&release, &json!({})).status, 201);
        assert_eq!(app.post(&release, &json!({})).status, 200);
        assert_eq!(
            counts(app),
            vec![3, 1, 0, 2, 1, 1, 1, 1],
            "deployed and released once each"
        );
        // new content: changed; one requiring-verification per provider
        // version that has to verify it (deployed 20, released 21)
        publish_ok(app, "3", Some("main"), &[], std::slice::from_ref(&b));
        assert_eq!(counts(app), vec![4, 2, 2, 2, 1, 1, 1, 1], "changed content");
        let expected: i64 = counts(app).iter().sum();
        let got = r.wait_for(usize::try_from(expected).unwrap_or(0));
        assert_eq!(got.len(), usize::try_from(expected).unwrap_or(0));
        assert!(
            got.iter().all(|g| g.path != "/never"),
            "a disabled webhook never triggers"
        );
        let targets: Vec<String> = got
            .iter()
            .map(Received::json)
            .filter(|j| j["event"] == "contract_requiring_verification_published")
            .map(|j| j["pv"].as_str().unwrap_or("").to_owned())
            .collect();
        assert!(
            targets.contains(&"20".to_owned()) && targets.contains(&"21".to_owned()),
            "{targets:?}"
        );
        // the pact's and the verification's triggered webhooks
        let of_pact = app.get("/pacts/provider/Bar/consumer/Foo/version/3/triggered-webhooks");
        assert_eq!(of_pact.status, 200, "{}", of_pact.text);
        assert_eq!(
            of_pact.json["_embedded"]["triggeredWebhooks"]
                .as_array()
                .map(Vec::len),
            Some(4),
            "{}",
            of_pact.text
        );
    });
}

use super::Received;

fn every_parameter() -> Value {
    let names = [
        "pactUrl",
        "verificationResultUrl",
        "consumerName",
        "consumerVersionNumber",
        "consumerVersionBranch",
        "consumerVersionTags",
        "consumerLabels",
        "providerName",
        "providerVersionNumber",
        "providerVersionBranch",
        "providerVersionTags",
        "providerVersionDescriptions",
        "providerLabels",
        "githubVerificationStatus",
        "bitbucketVerificationStatus",
        "gitlabVerificationStatus",
        "azureDevOpsVerificationStatus",
        "eventName",
        "buildUrl",
        "currentlyDeployedProviderVersionNumber",
    ];
    let mut body: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| ((*n).to_owned(), json!(format!("${{pactbroker.{n}}}"))))
        .collect();
    for n in ["environment", "admissionState", "driftAction"] {
        body.insert(format!("accord.{n}"), json!(format!("${{accord.{n}}}")));
    }
    Value::Object(body)
}

#[test]
fn every_parameter_renders_in_the_url_headers_and_body() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Bar"]);
        let webhook = json!({
            "events": [{"name": "provider_verification_published"}],
            "request": {
                "method": "POST",
                "url": format!("{}/v?tags=${{pactbroker.consumerVersionTags}}&c=${{pactbroker.consumerName}}", r.url),
                "headers": {"X-Provider": "${pactbroker.providerName}", "Content-Type": "application/json"},
                "username": "${pactbroker.consumerName}", "password": "pw",
                "body": every_parameter()
            }
        });
        assert_eq!(app.post("/webhooks", &webhook).status, 201);
        publish_ok(
            app,
            "1.0.0",
            Some("feat/x"),
            &["dev", "prod ready"],
            &[pact("Foo", "Bar", json!([http("/a", 200)]))],
        );
        let result = json!({"success": true, "providerApplicationVersion": "2.0.0", "buildUrl": "https://ci.example/42"});
        assert_eq!(app.post(&results_path(app, "1.0.0"), &result).status, 201);
        let got = r.wait_for(1);
        let g = &got[0];
        assert_eq!(
            g.path, "/v?tags=dev%2C%20prod%20ready&c=Foo",
            "URL values are URI-escaped"
        );
        assert_eq!(g.header("x-provider"), Some("Bar"));
        use base64::Engine;
        let basic = base64::engine::general_purpose::STANDARD.encode("Foo:pw");
        assert_eq!(
            g.header("authorization"),
            Some(format!("Basic {basic}").as_str())
        );
        let b = g.json();
        assert_eq!(b["consumerName"], "Foo");
        assert_eq!(b["consumerVersionNumber"], "1.0.0");
        assert_eq!(b["consumerVersionBranch"], "feat/x");
        assert_eq!(b["consumerVersionTags"], "dev, prod ready");
        assert_eq!(b["providerName"], "Bar");
        assert_eq!(b["providerVersionNumber"], "2.0.0");
        assert_eq!(b["githubVerificationStatus"], "success");
        assert_eq!(b["bitbucketVerificationStatus"], "SUCCESSFUL");
        assert_eq!(b["gitlabVerificationStatus"], "success");
        assert_eq!(b["azureDevOpsVerificationStatus"], "succeeded");
        assert_eq!(b["eventName"], "provider_verification_published");
        assert_eq!(b["buildUrl"], "https://ci.example/42");
        assert_eq!(b["consumerLabels"], "");
        assert_eq!(b["accord.environment"], "");
        let result_url = b["verificationResultUrl"].as_str().unwrap_or("");
        assert_eq!(
            app.get(result_url.strip_prefix(&app.url).unwrap_or(""))
                .status,
            200,
            "{result_url}"
        );
        let pact_url = b["pactUrl"].as_str().unwrap_or("");
        assert!(
            pact_url.contains("/pact-version/") && pact_url.contains("/metadata/"),
            "{pact_url}"
        );
        let fetched = app.get(pact_url.strip_prefix(&app.url).unwrap_or(""));
        assert_eq!(fetched.status, 200, "{pact_url}");
        assert_eq!(fetched.json["consumer"]["name"], "Foo");
    });
}

#[test]
fn deployments_render_the_environment() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Bar"]);
        let mut h = hook(&r, &["deployment_recorded"], None, Some("Bar"));
        h["request"]["body"] =
            json!({"env": "${accord.environment}", "v": "${pactbroker.providerVersionNumber}"});
        assert_eq!(app.post("/webhooks", &h).status, 201);
        let prod = environment(app, "production");
        assert_eq!(
            app.put("/pacticipants/Bar/versions/7", &json!({})).status / 100,
            2
        );
        assert_eq!(
            app.post(
                &format!("/pacticipants/Bar/versions/7/deployed-versions/environment/{prod}"),
                &json!({})
            )
            .status,
            201
        );
        let got = r.wait_for(1);
        assert_eq!(got[0].json(), json!({"env": "production", "v": "7"}));
    });
}

/// A publish reads with the consumer whether a webhook may select the
/// pair and skips the events' look-up when none may: each selector a
/// webhook can have by name (both, one, none) still hears a
/// publication of pacticipants stored before, and a disabled webhook or
/// one of another pair does not.
#[test]
fn a_publish_of_known_pacticipants_is_heard_by_every_kind_of_selector() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Bar", "Other"]);
        let a = pact("Foo", "Bar", json!([http("/a", 200)]));
        let other = hook(&r, &["contract_published"], Some("Other"), None);
        assert_eq!(app.post("/webhooks", &other).status, 201);
        let disabled = json!({"enabled": false, "events": [{"name": "contract_published"}], "request": {"method": "POST", "url": format!("{}/never", r.url)}});
        assert_eq!(app.post("/webhooks", &disabled).status, 201);
        publish_ok(app, "0", Some("main"), &[], std::slice::from_ref(&a));
        assert_eq!(
            queued(app, "contract_published"),
            0,
            "no webhook selects Foo/Bar"
        );
        let selectors = [
            (Some("Foo"), Some("Bar")),
            (None, Some("Bar")),
            (Some("Foo"), None),
            (None, None),
        ];
        for (i, (consumer, provider)) in selectors.into_iter().enumerate() {
            let h = hook(&r, &["contract_published"], consumer, provider);
            let made = app.post("/webhooks", &h);
            assert_eq!(made.status, 201, "{}", made.text);
            publish_ok(
                app,
                &format!("{}", i + 1),
                Some("main"),
                &[],
                std::slice::from_ref(&a),
            );
            // publication n fans out to the n webhooks made so far
            let n = i64::try_from(i + 1).expect("small");
            assert_eq!(
                queued(app, "contract_published"),
                n * (n + 1) / 2,
                "selector {consumer:?} {provider:?}"
            );
        }
    });
}
