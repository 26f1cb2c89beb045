//! Access control over HTTP: open until the first token, then roles.

use accord_broker::auth::Role;
use accord_broker::config::BasicAccount;
use serde_json::json;

use crate::support::{Reply, TestApp, TestDb, each_backend};

fn with_bearer(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: Option<&serde_json::Value>,
) -> Reply {
    let mut request = app
        .client()
        .request(method, format!("{}{path}", app.url))
        .bearer_auth(token)
        .header("Accept", "application/hal+json");
    if let Some(body) = body {
        request = request
            .header("Content-Type", "application/json")
            .body(body.to_string());
    }
    app.send(request)
}

#[test]
fn tokens_close_the_broker_and_roles_decide_401_or_403() {
    each_backend(|app| {
        // open: anyone may create the first (admin) token
        let admin = app.post("/tokens", &json!({"name": "root", "role": "admin"}));
        assert_eq!(admin.status, 201, "{}", admin.text);
        let admin_secret = admin.json["token"]
            .as_str()
            .expect("secret in the reply")
            .to_owned();
        // now closed
        assert_eq!(app.post("/pacticipants", &json!({"name": "A"})).status, 401);
        assert_eq!(app.get("/pacticipants").status, 401);
        assert_eq!(
            app.get("/diagnostic/status/heartbeat").status,
            200,
            "the heartbeat stays public"
        );
        let reader = with_bearer(
            app,
            reqwest::Method::POST,
            "/tokens",
            &admin_secret,
            Some(&json!({"name": "r", "role": "read"})),
        );
        let reader_secret = reader.json["token"].as_str().expect("secret").to_owned();
        assert_eq!(
            with_bearer(
                app,
                reqwest::Method::GET,
                "/pacticipants",
                &reader_secret,
                None
            )
            .status,
            200
        );
        let denied = with_bearer(
            app,
            reqwest::Method::POST,
            "/pacticipants",
            &reader_secret,
            Some(&json!({"name": "A"})),
        );
        assert_eq!(denied.status, 403);
        assert_eq!(denied.json["type"], "urn:accord:problem:forbidden");
        assert_eq!(
            with_bearer(app, reqwest::Method::GET, "/tokens", &reader_secret, None).status,
            403
        );
        let wrong = with_bearer(
            app,
            reqwest::Method::GET,
            "/pacticipants",
            "acc_wrong",
            None,
        );
        assert_eq!(wrong.status, 401);
        assert_eq!(
            wrong.json["detail"],
            "the credentials presented were not accepted"
        );
        assert_eq!(
            app.get("/pacticipants").json["detail"],
            "authentication required"
        );
        // the list never shows a secret
        let list = with_bearer(app, reqwest::Method::GET, "/tokens", &admin_secret, None);
        assert!(!list.text.contains(&reader_secret) && !list.text.contains(&admin_secret));
        // revoked tokens stop working
        assert_eq!(
            with_bearer(
                app,
                reqwest::Method::DELETE,
                "/tokens/r",
                &admin_secret,
                None
            )
            .status,
            204
        );
        assert_eq!(
            with_bearer(
                app,
                reqwest::Method::GET,
                "/pacticipants",
                &reader_secret,
                None
            )
            .status,
            401
        );
        assert_eq!(
            with_bearer(
                app,
                reqwest::Method::DELETE,
                "/tokens/r",
                &admin_secret,
                None
            )
            .status,
            404
        );
    });
}

#[test]
fn basic_accounts_and_public_read() {
    let app = TestApp::start(TestDb::Sqlite, |c| {
        c.public_read = true;
        c.accounts.push(BasicAccount {
            username: "ci".into(),
            password: "s3cret".into(),
            role: Role::Write,
        });
    });
    assert_eq!(app.get("/pacticipants").status, 200, "public read");
    assert_eq!(
        app.post("/pacticipants", &json!({"name": "A"})).status,
        401,
        "an account exists: writes are closed"
    );
    let ok = app.send(
        app.client()
            .post(format!("{}/pacticipants", app.url))
            .basic_auth("ci", Some("s3cret"))
            .header("Content-Type", "application/json")
            .body(r#"{"name":"A"}"#),
    );
    assert_eq!(ok.status, 201);
    let wrong = app.send(
        app.client()
            .post(format!("{}/pacticipants", app.url))
            .basic_auth("ci", Some("nope"))
            .header("Content-Type", "application/json")
            .body(r#"{"name":"B"}"#),
    );
    assert_eq!(wrong.status, 401);
}

#[test]
fn public_badges_open_the_badges_and_nothing_else() {
    let closed = |public_badges: bool| {
        TestApp::start(TestDb::Sqlite, move |c| {
            c.public_badges = public_badges;
            c.accounts.push(BasicAccount {
                username: "ci".into(),
                password: "s3cret".into(),
                role: Role::Write,
            });
        })
    };
    let badge = "/pacts/provider/Bar/consumer/Foo/latest/badge";
    let app = closed(false);
    assert_eq!(app.get(badge).status, 401, "closed by default");
    let app = closed(true);
    assert_eq!(app.get(badge).status, 200, "badges are public");
    assert_eq!(
        app.get("/pacticipants").status,
        401,
        "the rest stays closed"
    );
    assert_eq!(
        app.post("/pacts/provider/Bar/consumer/Foo/latest/badge", &json!({}))
            .status,
        401,
        "only reads of a badge"
    );
}
