//! The seeds' synthetic failure 4, end to end on both backends over real
//! HTTP: plan-tools 3.4 declares `review`'s output `status` as
//! `draft|ready|rejected`, 3.5 as `ready|rejected`. A live consumer (main
//! branch, deployed to production) whose contract reads `status` relying
//! on `draft` is broken: the static check of 3.5 fails with
//! BREAKING_ENUM_REMOVAL naming it, the diff against 3.4 classifies the
//! change breaking with it affected, can-i-deploy of 3.5 to production
//! answers no with the static reason, and the provider version page and
//! the matrix page name it. The same change with a consumer that does not
//! rely on `draft` breaks nobody and blocks nothing.

use serde_json::{Value, json};

use crate::declarations_diff::{publish, tools};
use crate::support::{Reply, TestApp, each_backend};

const CODE: &str = "BREAKING_ENUM_REMOVAL";

/// `consumer` 1.0 (main branch, reading `status` as `values`) deployed to
/// a new production environment.
fn live_consumer(app: &TestApp, consumer: &str, values: &str) {
    publish(app, consumer, values);
    let env = app.post(
        "/environments",
        &json!({"name": "production", "production": true}),
    );
    assert_eq!(env.status, 201, "{}", env.text);
    let uuid = env.json["uuid"].as_str().expect("uuid");
    let path =
        format!("/pacticipants/{consumer}/versions/1.0/deployed-versions/environment/{uuid}");
    let deployed = app.post(&path, &json!({}));
    assert_eq!(deployed.status, 201, "{}", deployed.text);
}

/// Declares plan-tools `version`'s tools; the static check's answer.
fn declare(app: &TestApp, version: &str, status: &[&str]) -> Value {
    let path = format!("/pacticipants/plan-tools/versions/{version}/declarations/mcp-tools/carol");
    let reply = app.put(&path, &tools(status));
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["staticCheck"].clone()
}

/// plan-tools 3.4 then 3.5 declared; the static check of 3.5.
fn release_3_5(app: &TestApp) -> Value {
    let old = declare(app, "3.4", &["draft", "ready", "rejected"]);
    assert_eq!(old["passed"], true, "3.4 breaks nobody: {old}");
    declare(app, "3.5", &["ready", "rejected"])
}

fn can_i_deploy(app: &TestApp) -> Reply {
    let reply = app.get("/can-i-deploy?pacticipant=plan-tools&version=3.5&environment=production");
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply
}

fn diff(app: &TestApp) -> Value {
    let reply = app.get("/pacticipants/plan-tools/versions/3.5/declarations/diff?against=3.4");
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

fn page(app: &TestApp, path: &str) -> String {
    let reply = app.get_page(path);
    assert_eq!(reply.status, 200, "{path}: {}", reply.text);
    reply.text
}

#[test]
fn an_enum_value_a_deployed_consumer_relies_on_removed_is_refused_and_named() {
    each_backend(|app| {
        live_consumer(app, "planner", "draft, ready");
        let check = release_3_5(app);
        assert_eq!(check["passed"], false, "{check}");
        let consumer = &check["consumers"][0];
        assert_eq!(consumer["consumer"], "planner", "{check}");
        assert_eq!(consumer["reasonCodes"], json!([CODE]), "{check}");

        let d = diff(app);
        assert_eq!(d["breaking"], true, "{d}");
        let change = &d["declarations"][0]["changes"][0];
        assert_eq!(change["code"], CODE, "{d}");
        assert_eq!(change["class"], "breaking");
        assert_eq!(change["consumersAffected"], json!(["planner 1.0"]), "{d}");

        let no = can_i_deploy(app);
        assert_eq!(no.json["summary"]["deployable"], false, "{}", no.text);
        let said = no.json["summary"].to_string();
        assert!(
            said.contains(&format!("static check of the declarations: {CODE}")),
            "{said}"
        );
        assert!(said.contains("planner"), "{said}");

        let version = page(app, "/ui/providers/plan-tools/versions/3.5");
        assert!(
            version.contains("planner") && version.contains(CODE),
            "{version}"
        );
        let matrix = page(app, "/ui/matrix?consumer=planner&provider=plan-tools");
        assert!(matrix.contains("3.5") && matrix.contains(CODE), "{matrix}");
        assert!(matrix.contains("static"), "said to be static: {matrix}");

        let admission = app.get("/pacticipants/plan-tools/versions/3.5/admission");
        assert_eq!(admission.json["state"], "DRAFT", "{}", admission.text);
    });
}

#[test]
fn the_same_change_with_no_consumer_relying_on_the_value_breaks_nobody() {
    each_backend(|app| {
        live_consumer(app, "auditor", "ready, rejected");
        let check = release_3_5(app);
        assert_eq!(check["passed"], true, "{check}");
        assert_eq!(check["consumers"][0]["reasonCodes"], json!([]), "{check}");

        let d = diff(app);
        assert_eq!(d["breaking"], false, "{d}");
        let change = &d["declarations"][0]["changes"][0];
        assert_eq!(change["code"], CODE, "the change is still classified: {d}");
        assert_eq!(change["consumersAffected"], json!([]), "{d}");

        let cid = can_i_deploy(app);
        assert_ne!(cid.json["summary"]["deployable"], false, "{}", cid.text);
        assert!(!cid.text.contains(CODE), "{}", cid.text);
        let admission = app.get("/pacticipants/plan-tools/versions/3.5/admission");
        assert_eq!(
            admission.json["state"], "STATIC_VALIDATED",
            "{}",
            admission.text
        );
    });
}
