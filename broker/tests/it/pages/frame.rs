//! What every page shares: `/` sends a browser to the home page, the
//! stylesheet and icon are served (also to a caller without credentials),
//! and an error is a page with the API's status and text.

use super::{html_page, texts};
use crate::support::{TestApp, each_backend};

#[test]
fn a_browser_opening_the_broker_lands_on_the_home_page_and_an_api_client_on_the_index() {
    each_backend(|app| {
        let reply = app.send(
            reqwest::blocking::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client")
                .get(format!("{}/", app.url))
                .header("Accept", "text/html"),
        );
        assert_eq!(reply.status, 303, "{}", reply.text);
        assert_eq!(reply.header("location"), "/ui");
        let page = html_page(&app.get_page("/"), "home through /");
        assert_eq!(texts(&page, "nav a.brand"), ["Accord"]);
        let api = app.get("/");
        assert_eq!(api.status, 200);
        assert!(
            api.json["_links"]["pb:pacticipants"].is_object(),
            "{}",
            api.text
        );
    });
}

#[test]
fn the_stylesheet_and_icon_are_served_and_need_no_credentials() {
    let app = TestApp::start(crate::support::TestDb::Sqlite, |c| {
        c.accounts = vec![accord_broker::config::BasicAccount {
            username: "ro".into(),
            password: "secret".into(),
            role: accord_broker::auth::Role::Read,
        }];
    });
    for (path, kind) in [
        ("/ui/static/style.css", "text/css"),
        ("/ui/static/favicon.svg", "image/svg+xml"),
        ("/favicon.ico", "image/svg+xml"),
    ] {
        let reply = app.get_page(path);
        assert_eq!(reply.status, 200, "{path}: {}", reply.text);
        assert!(reply.header("content-type").starts_with(kind), "{path}");
    }
    // a page needs credentials: the browser is asked for them, on a page
    let reply = app.get_page("/ui");
    assert_eq!(reply.status, 401, "{}", reply.text);
    assert!(reply.header("www-authenticate").starts_with("Basic "));
    let doc = scraper::Html::parse_document(&reply.text);
    assert_eq!(texts(&doc, "h1"), ["401 Unauthorized"]);
    let reply = app.send(
        app.client()
            .get(format!("{}/ui", app.url))
            .basic_auth("ro", Some("secret")),
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
}

#[test]
fn an_error_is_a_page_with_the_status_and_text_the_api_gives() {
    each_backend(|app| {
        for path in [
            "/ui/nothing-here",
            "/ui/static/missing.js",
            "/pacticipants/Nobody",
        ] {
            let api = app.get(path);
            let page = app.get_page(path);
            assert_eq!(page.status, api.status, "{path}");
            assert!(
                page.header("content-type").starts_with("text/html"),
                "{path}"
            );
            let doc = scraper::Html::parse_document(&page.text);
            assert_eq!(
                texts(&doc, "h1"),
                [format!(
                    "{} {}",
                    api.status,
                    api.json["title"].as_str().unwrap_or_default()
                )],
                "{path}"
            );
            assert_eq!(
                texts(&doc, ".error-detail"),
                [api.json["detail"].as_str().unwrap_or_default()],
                "{path}"
            );
            assert_eq!(
                texts(&doc, "a[href='/ui']").len(),
                2,
                "{path}: the brand and the way back"
            );
        }
    });
}
