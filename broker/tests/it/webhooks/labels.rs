//! Pacticipant labels (the Pact Broker's routes and relations), webhooks
//! selecting by label (through the API and the official Pact CLI's
//! `--consumer-label`/`--provider-label`), and
//! `${pactbroker.consumerLabels}` / `${pactbroker.providerLabels}`.

use serde_json::{Value, json};

use super::{Receiver, each_backend_fast, pacticipants};
use crate::pact_docs::{http, pact, publish_ok};
use crate::support::TestApp;

fn names(list: &Value, key: &str) -> Vec<String> {
    list["_embedded"][key]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|p| p["name"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn labels_are_put_read_listed_and_deleted() {
    each_backend_fast(|app| {
        let put = app.put("/pacticipants/Foo/labels/team-a", &json!({}));
        assert_eq!(
            put.status, 201,
            "a new label, its pacticipant created: {}",
            put.text
        );
        assert_eq!(put.json["name"], "team-a");
        assert_eq!(put.json["_embedded"]["pacticipant"]["name"], "Foo");
        assert_eq!(
            app.put("/pacticipants/Foo/labels/team-a", &json!({}))
                .status,
            200
        );
        assert_eq!(
            app.put("/pacticipants/Bar/labels/team-a", &json!({}))
                .status,
            201
        );
        assert_eq!(
            app.put("/pacticipants/Bar/labels/core", &json!({})).status,
            201
        );
        let got = app.get("/pacticipants/Foo/labels/team-a");
        assert_eq!(got.status, 200, "{}", got.text);
        assert!(
            got.json["_links"]["pb:pacticipant"]["href"]
                .as_str()
                .is_some_and(|h| h.ends_with("/pacticipants/Foo"))
        );
        let bar = app.get("/pacticipants/Bar");
        assert_eq!(
            names(&bar.json, "labels"),
            vec!["core", "team-a"],
            "{}",
            bar.text
        );
        assert_eq!(
            bar.json["_links"]["pb:label"]["templated"], true,
            "{}",
            bar.text
        );
        let labelled = app.get("/pacticipants/label/team-a");
        assert_eq!(labelled.status, 200, "{}", labelled.text);
        assert_eq!(names(&labelled.json, "pacticipants"), vec!["Bar", "Foo"]);
        assert_eq!(
            names(&app.get("/labels").json, "labels"),
            vec!["core", "team-a"]
        );
        assert_eq!(
            app.json("DELETE", "/pacticipants/Foo/labels/team-a", &Value::Null)
                .status,
            204
        );
        assert_eq!(
            app.json("DELETE", "/pacticipants/Foo/labels/team-a", &Value::Null)
                .status,
            404
        );
        assert_eq!(app.get("/pacticipants/Foo/labels/team-a").status, 404);
        assert_eq!(
            names(&app.get("/pacticipants/label/team-a").json, "pacticipants"),
            vec!["Bar"]
        );
        assert!(names(&app.get("/pacticipants/label/nobody").json, "pacticipants").is_empty());
        let bad = app.put("/pacticipants/Foo/labels/a%00b", &json!({}));
        assert_eq!(bad.status, 400, "{}", bad.text);
        assert!(bad.text.contains("label"), "{}", bad.text);
        let mismatch = app.put("/pacticipants/Foo/labels/x", &json!({"name": "y"}));
        assert_eq!(mismatch.status, 400, "{}", mismatch.text);
        assert_eq!(
            app.get("/pacticipants/Foo/labels/x").status,
            404,
            "a refused PUT stores nothing"
        );
    });
}

fn labelled_hook(r: &Receiver, consumer: Value, provider: Value) -> Value {
    json!({
        "events": [{"name": "contract_published"}],
        "consumer": consumer,
        "provider": provider,
        "request": {"method": "POST", "url": format!("{}/hook", r.url),
            "body": {"cl": "${pactbroker.consumerLabels}", "pl": "${pactbroker.providerLabels}",
                "c": "${pactbroker.consumerName}"}}
    })
}

fn publish(app: &TestApp, consumer: &str, version: &str) {
    publish_ok(
        app,
        version,
        None,
        &[],
        &[pact(consumer, "Bar", json!([http("/a", 200)]))],
    );
}

#[test]
fn a_label_selector_matches_the_labelled_pacticipants_and_the_labels_render() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Other", "Bar"]);
        for (p, l) in [("Foo", "mobile"), ("Bar", "async"), ("Bar", "core")] {
            assert_eq!(
                app.put(&format!("/pacticipants/{p}/labels/{l}"), &json!({}))
                    .status,
                201
            );
        }
        let hook = labelled_hook(&r, json!({"label": "mobile"}), json!({"label": "async"}));
        assert_eq!(app.post("/webhooks", &hook).status, 201);
        let nobody = labelled_hook(&r, json!({"label": "web"}), json!({"name": "Bar"}));
        assert_eq!(app.post("/webhooks", &nobody).status, 201);
        publish(app, "Foo", "1");
        publish(app, "Other", "1"); // not labelled mobile: no delivery
        assert_eq!(
            super::queued(app, "contract_published"),
            1,
            "one webhook matched one publication"
        );
        let got = r.wait_for(1);
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].json(),
            json!({"cl": "mobile", "pl": "async, core", "c": "Foo"})
        );
        // labelled after the fact: the next publication matches
        assert_eq!(
            app.put("/pacticipants/Other/labels/mobile", &json!({}))
                .status,
            201
        );
        publish(app, "Other", "2");
        assert_eq!(super::queued(app, "contract_published"), 2);
    });
}

#[test]
fn the_pact_cli_creates_a_webhook_selecting_by_label() {
    let Some(bin) = super::pact_cli::pact_cli() else {
        return;
    };
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Bar"]);
        assert_eq!(
            app.put("/pacticipants/Foo/labels/mobile", &json!({}))
                .status,
            201
        );
        let url = format!("{}/build?c=${{pactbroker.consumerLabels}}", r.url);
        super::pact_cli::run(
            &bin,
            app,
            &[
                "create-webhook",
                &url,
                "-X",
                "POST",
                "--consumer-label",
                "mobile",
                "--provider",
                "Bar",
                "--contract-published",
            ],
        );
        let list = app.get("/webhooks");
        let href = list.json["_links"]["pb:webhooks"][0]["href"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let hook = app.get(href.strip_prefix(&app.url).unwrap_or(""));
        assert_eq!(
            hook.json["consumer"],
            json!({"label": "mobile"}),
            "{}",
            hook.text
        );
        publish(app, "Foo", "1");
        let got = r.wait_for(1);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].path, "/build?c=mobile");
    });
}
