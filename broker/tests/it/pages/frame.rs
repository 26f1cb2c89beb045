//! What every page shares: `/` sends a browser to the home page, the
//! stylesheet and icon are served (also to a caller without credentials)
//! under a fingerprinted URL, and an error is a page with the API's status
//! and text.

use super::{attrs, html_page, texts};
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

/// Pages link the stylesheet and icon by a content hash, served cached for
/// a year; the fixed URLs, and another build's hash, keep working with a
/// short cache; a malformed name is a 404.
#[test]
fn the_stylesheet_and_icon_are_linked_by_fingerprint_and_cached_immutably() {
    each_backend(|app| {
        let page = html_page(&app.get_page("/ui"), "home");
        let style = attrs(&page, "link[rel=stylesheet]", "href");
        let icon = attrs(&page, "link[rel=icon]", "href");
        for (links, stem, ext, kind) in [
            (&style, "style", "css", "text/css"),
            (&icon, "favicon", "svg", "image/svg+xml"),
        ] {
            let [href] = links.as_slice() else {
                panic!("one {stem} link: {links:?}")
            };
            let hash = href
                .strip_prefix(&format!("/ui/static/{stem}."))
                .and_then(|rest| rest.strip_suffix(&format!(".{ext}")))
                .unwrap_or_else(|| panic!("fingerprinted: {href}"));
            assert!(
                hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
                "{href}"
            );
            let fixed = app.get_page(&format!("/ui/static/{stem}.{ext}"));
            let hashed = app.get_page(href);
            assert_eq!(hashed.status, 200, "{href}");
            assert!(hashed.header("content-type").starts_with(kind), "{href}");
            assert_eq!(hashed.text, fixed.text, "{href}");
            assert_eq!(
                hashed.header("cache-control"),
                "public, max-age=31536000, immutable"
            );
            assert_eq!(fixed.header("cache-control"), "public, max-age=300");
            let other = app.get_page(&format!("/ui/static/{stem}.0000000000000000.{ext}"));
            assert_eq!(other.status, 200, "{stem}");
            assert_eq!(other.header("cache-control"), "public, max-age=300");
            let bad = app.get_page(&format!("/ui/static/{stem}.{hash}x.{ext}"));
            assert_eq!(bad.status, 404, "{stem}");
        }
    });
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
