//! Evaluation evidence beside contract evidence (issue 25): a verification
//! says whether it is a contract pass (`evaluationEligible`); evaluation
//! results are attached to a provider version, listed with the version's
//! contract evidence, refused whole when malformed, and never read by the
//! matrix or can-i-deploy.

use serde_json::{Value, json};

use crate::pact_docs::{http, pact, path_of, publish_ok};
use crate::support::{Reply, TestApp, each_backend};

const EVALS: &str = "/pacticipants/Bar/versions/2.0/evaluations";

/// Foo 1 has a pact with Bar; Bar `version` publishes a result for it.
fn verified(app: &TestApp, version: &str, success: bool) -> Value {
    publish_ok(
        app,
        "1",
        Some("main"),
        &[],
        &[pact("Foo", "Bar", json!([http("/plans/1", 200)]))],
    );
    let pact = app.get("/pacts/provider/Bar/consumer/Foo/version/1");
    let link = path_of(
        app,
        &pact.json["_links"]["pb:publish-verification-results"]["href"],
    );
    let body = json!({"success": success, "providerApplicationVersion": version});
    let reply = app.post(&link, &body);
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json
}

/// The first word of the verification page's "Evaluation-eligible" fact.
fn verification_page_says(app: &TestApp, result: &Value) -> String {
    let page = app.get_page(&path_of(app, &result["_links"]["accord:page"]["href"]));
    assert_eq!(page.status, 200, "{}", page.text);
    let html = scraper::Html::parse_document(&page.text);
    let selector = scraper::Selector::parse("dd.evaluation-eligible").expect("selector");
    let text: String = html.select(&selector).flat_map(|e| e.text()).collect();
    text.split(':').next().unwrap_or_default().trim().to_owned()
}

fn good() -> Value {
    json!({"dataset": "golden-set v3 (5-shot)", "score": 0.91, "threshold": 0.85,
           "evaluator": {"name": "evalkit", "version": "2.1"},
           "url": "https://evals.example/runs/7"})
}

fn raw_post(app: &TestApp, path: &str, body: &str) -> Reply {
    app.send(
        app.client()
            .post(format!("{}{path}", app.url))
            .header("Content-Type", "application/json")
            .body(body.to_owned()),
    )
}

#[test]
fn an_evaluation_is_stored_with_a_computed_pass_and_listed_beside_the_contract_evidence() {
    each_backend(|app| {
        let result = verified(app, "2.0", true);
        assert_eq!(result["evaluationEligible"], true, "{result}");
        assert_eq!(verification_page_says(app, &result), "yes");
        let first = app.post(EVALS, &good());
        assert_eq!(first.status, 201, "{}", first.text);
        assert_eq!(first.json["pass"], true);
        assert_eq!(first.json["higherIsBetter"], true);
        assert_eq!(
            first.json["evaluator"],
            json!({"name": "evalkit", "version": "2.1"})
        );
        assert!(
            first.json["_links"]["self"]["href"]
                .as_str()
                .is_some_and(|h| h.ends_with(EVALS))
        );
        let loss = json!({"dataset": "error rate", "score": 0.2, "threshold": 0.1, "higherIsBetter": false});
        let second = app.post(EVALS, &loss);
        assert_eq!(second.status, 201, "{}", second.text);
        assert_eq!(
            second.json["pass"], false,
            "lower is better: 0.2 > 0.1 fails"
        );

        let list = app.get(EVALS);
        assert_eq!(list.status, 200, "{}", list.text);
        assert_eq!(list.json["total"], 2);
        let datasets: Vec<&Value> = list.json["evaluations"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| &e["dataset"])
            .collect();
        assert_eq!(
            datasets,
            [&json!("error rate"), &json!("golden-set v3 (5-shot)")],
            "newest first"
        );
        assert_eq!(
            list.json["contractEvidence"],
            json!({"contracts": 1, "evaluationEligible": 1, "failed": 0})
        );
        let version = app.get("/pacticipants/Bar/versions/2.0");
        let link = version.json["_links"]["accord:evaluations"]["href"]
            .as_str()
            .unwrap_or("");
        assert!(link.ends_with(EVALS), "{}", version.text);
        let page = app.get_page("/ui/providers/Bar/versions/2.0");
        assert_eq!(page.status, 200, "{}", page.text);
        for text in [
            "1 contract verified: 1 contract pass (evaluation-eligible), 0 failed.",
            "golden-set v3 (5-shot)",
            "≥ 0.85",
            "≤ 0.1",
            "not met",
            "evalkit 2.1",
            "never change a contract verdict",
        ] {
            assert!(page.text.contains(text), "the page lacks {text:?}");
        }
    });
}

#[test]
fn a_passing_evaluation_never_turns_a_failed_verification_into_a_pass() {
    each_backend(|app| {
        let result = verified(app, "3.0", false);
        assert_eq!(result["evaluationEligible"], false, "{result}");
        assert_eq!(verification_page_says(app, &result), "no");
        let env = app.post(
            "/environments",
            &json!({"name": "production", "production": true}),
        );
        assert_eq!(env.status, 201, "{}", env.text);
        let uuid = env.json["uuid"].as_str().unwrap_or_default().to_owned();
        let deployed = app.post(
            &format!("/pacticipants/Foo/versions/1/deployed-versions/environment/{uuid}"),
            &json!({}),
        );
        assert_eq!(deployed.status, 201, "{}", deployed.text);
        let cid = "/can-i-deploy?pacticipant=Bar&version=3.0&environment=production";
        let before = app.get(cid);
        assert_eq!(
            before.json["summary"]["deployable"], false,
            "{}",
            before.text
        );

        let perfect = json!({"dataset": "golden", "score": 1.0, "threshold": 0.5, "pass": true});
        let eval = app.post("/pacticipants/Bar/versions/3.0/evaluations", &perfect);
        assert_eq!(eval.status, 201, "{}", eval.text);
        let after = app.get(cid);
        assert_eq!(after.json["summary"]["deployable"], false, "{}", after.text);
        assert_eq!(
            after.json["summary"]["reason"],
            before.json["summary"]["reason"]
        );
        let matrix = app.get("/matrix?q[][pacticipant]=Bar&q[][version]=3.0&latestby=cvp");
        assert_eq!(matrix.status, 200, "{}", matrix.text);
        assert_eq!(
            matrix.json["matrix"][0]["verificationResult"]["success"], false,
            "{}",
            matrix.text
        );
        let list = app.get("/pacticipants/Bar/versions/3.0/evaluations");
        assert_eq!(
            list.json["contractEvidence"],
            json!({"contracts": 1, "evaluationEligible": 0, "failed": 1})
        );
        let page = app.get_page("/ui/providers/Bar/versions/3.0");
        assert!(
            page.text
                .contains("0 contract passes (evaluation-eligible), 1 failed."),
            "{}",
            page.text
        );

        // a contract pass, not an evaluation, changes the answer; the
        // counts follow the latest result of the contract
        let results = format!(
            "{}/verification-results",
            path_of(app, &result["_links"]["pb:pact-version"]["href"])
        );
        let pass = app.post(
            &results,
            &json!({"success": true, "providerApplicationVersion": "3.0"}),
        );
        assert_eq!(pass.status, 201, "{}", pass.text);
        let list = app.get("/pacticipants/Bar/versions/3.0/evaluations");
        assert_eq!(
            list.json["contractEvidence"],
            json!({"contracts": 1, "evaluationEligible": 1, "failed": 0})
        );
        assert_eq!(app.get(cid).json["summary"]["deployable"], true);
    });
}

#[test]
fn bad_evaluations_are_refused_naming_the_field_and_store_nothing() {
    each_backend(|app| {
        verified(app, "2.0", true);
        let with = |key: &str, value: Value| {
            let mut body = good();
            body[key] = value;
            body
        };
        let cases: Vec<(Value, u16, &str)> = vec![
            (json!({}), 400, "dataset"),
            (with("dataset", json!("a\u{0}b")), 400, "$.dataset"),
            (with("dataset", json!("")), 400, "$.dataset"),
            (with("dataset", json!("x".repeat(201))), 400, "$.dataset"),
            (with("dataset", json!(7)), 400, "$.dataset"),
            (with("score", json!("high")), 400, "$.score"),
            (with("score", Value::Null), 400, "score"),
            (with("threshold", json!([1])), 400, "$.threshold"),
            (with("pass", json!(false)), 422, "pass"),
            (with("url", json!("ftp://evals.example/7")), 400, "url"),
            (with("url", json!("https://e.example/\u{0}")), 400, "$.url"),
            (
                with("evaluator", json!({"name": "a\u{7}"})),
                400,
                "$.evaluator.name",
            ),
            (with("evaluator", json!({"nme": "a"})), 400, "$.evaluator"),
            (with("treshold", json!(1)), 400, "$"),
        ];
        for (body, status, field) in cases {
            let reply = app.post(EVALS, &body);
            assert_eq!(reply.status, status, "{body}: {}", reply.text);
            let named: Vec<&String> = reply.json["errors"]
                .as_object()
                .map(|o| o.keys().collect())
                .unwrap_or_default();
            assert!(
                named.iter().any(|k| k.starts_with(field)),
                "{body}: {named:?}"
            );
        }
        let huge = raw_post(
            app,
            EVALS,
            r#"{"dataset": "d", "score": 1e400, "threshold": 1}"#,
        );
        assert_eq!(huge.status, 400, "{}", huge.text);
        let ghost = app.post("/pacticipants/Bar/versions/9.9/evaluations", &good());
        assert_eq!(ghost.status, 404, "{}", ghost.text);
        assert!(ghost.text.contains("9.9"), "{}", ghost.text);
        let nobody = app.post("/pacticipants/Nobody/versions/1/evaluations", &good());
        assert_eq!(nobody.status, 404, "{}", nobody.text);
        assert_eq!(app.get(EVALS).json["total"], 0, "nothing was stored");
        assert_eq!(
            app.get("/pacticipants/Bar/versions/9.9").status,
            404,
            "no version was made"
        );

        // allowed: negative thresholds (log-likelihoods), the largest finite numbers
        let negative = json!({"dataset": "log-likelihood", "score": -1.5, "threshold": -2.0});
        assert_eq!(app.post(EVALS, &negative).json["pass"], true);
        let largest = json!({"dataset": "tokens", "score": 1.7e308, "threshold": -1.7e308});
        let reply = app.post(EVALS, &largest);
        assert_eq!(reply.status, 201, "{}", reply.text);
        assert_eq!(reply.json["score"], json!(1.7e308));
        assert_eq!(app.get(EVALS).json["total"], 2);
    });
}

#[test]
fn the_admission_resource_shows_evaluations_apart_and_never_moves_for_them() {
    each_backend(|app| {
        verified(app, "2.0", false);
        let admission = "/pacticipants/Bar/versions/2.0/admission";
        let before = app.get(admission);
        assert_eq!(before.status, 200, "{}", before.text);
        assert_eq!(before.json["evaluations"], json!([]), "{}", before.text);
        let perfect = json!({"dataset": "golden-set v3", "score": 1.0, "threshold": 0.85});
        assert_eq!(app.post(EVALS, &perfect).status, 201);
        let after = app.get(admission);
        let e = &after.json["evaluations"][0];
        assert_eq!(e["dataset"], "golden-set v3", "{}", after.text);
        assert_eq!(e["score"], 1.0);
        assert_eq!(e["threshold"], 0.85);
        assert_eq!(e["pass"], true);
        assert_eq!(after.json["evaluationsTotal"], 1);
        assert!(after.json["evaluationsNote"].is_string(), "{}", after.text);
        // apart from the contract evidence, and the state never moves for it
        assert_eq!(after.json["state"], before.json["state"]);
        assert_eq!(after.json["evidence"], Value::Null);
        assert_eq!(after.json["transitions"], before.json["transitions"]);
        let page = app.get_page("/ui/providers/Bar/versions/2.0");
        assert!(
            page.text
                .contains("Evaluation evidence, apart: 1 evaluation result (1 pass, 0 fail)"),
            "{}",
            page.text
        );
    });
}
