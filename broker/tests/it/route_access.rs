//! Access is decided for the route actix dispatches to, whatever the
//! spelling of its path: every route of the table, with each fixed word
//! percent-encoded (upper- and lower-case hex), double-encoded, and spelled
//! out whole, asked by every role and by nobody, on both backends.
//!
//! The expectation comes from this file's own matcher (decode, then match
//! the table in order), not from the broker's code: a request the table
//! gives to a route is refused exactly when the caller's role is below the
//! route's access; a request that names no route reaches nothing (404).

use accord_broker::auth::{Access, Role};
use accord_broker::routes::{ROUTES, Route};
use serde_json::json;

use crate::support::{TestApp, backends};

/// Who asks.
#[derive(Debug, Clone, Copy)]
enum Asker {
    Nobody,
    Token(Role),
}

/// A value for each path parameter: names nothing that exists, so an
/// allowed request changes nothing the matrix depends on.
const PARAM: &str = "x";

/// The spellings of `route`'s path: plain, then for each fixed word one
/// character escaped (upper-case hex, lower-case hex), double-encoded, and
/// the whole word escaped.
fn spellings(route: &Route) -> Vec<String> {
    let words: Vec<&str> = route.path.split('/').collect();
    let concrete = |i: usize, word: String| -> String {
        words
            .iter()
            .enumerate()
            .map(|(j, w)| match () {
                _ if j == i => word.clone(),
                _ if w.starts_with('{') => PARAM.to_owned(),
                _ => (*w).to_owned(),
            })
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut all = vec![concrete(usize::MAX, String::new())];
    for (i, word) in words.iter().enumerate() {
        if word.is_empty() || word.starts_with('{') {
            continue;
        }
        // the first character whose hex escape has a letter, so the two
        // cases differ (o = 6F); a word without one still gets escaped
        let at = word
            .bytes()
            .position(|b| format!("{b:X}").chars().any(|c| c.is_ascii_alphabetic()))
            .unwrap_or(0);
        let b = word.as_bytes()[at];
        let (head, tail) = (&word[..at], &word[at + 1..]);
        all.push(concrete(i, format!("{head}%{b:02X}{tail}")));
        all.push(concrete(i, format!("{head}%{b:02x}{tail}")));
        all.push(concrete(i, format!("{head}%25{b:02X}{tail}")));
        let whole: String = word.bytes().map(|b| format!("%{b:02x}")).collect();
        all.push(concrete(i, whole));
    }
    all
}

/// The route `method path` reaches: each escape decoded except `%25`,
/// `%2F` and `%2B` (they stay as they are), then the first route in table
/// order whose fixed words equal the decoded words.
fn reached(method: &str, path: &str) -> Option<Route> {
    let decoded: Vec<String> = path.split('/').map(decode).collect();
    ROUTES.iter().copied().find(|route| {
        let pattern: Vec<&str> = route.path.split('/').collect();
        route.method == method
            && pattern.len() == decoded.len()
            && pattern
                .iter()
                .zip(&decoded)
                .all(|(want, got)| want.starts_with('{') || want == got)
    })
}

fn decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(b) if bytes[i] == b'%' && !matches!(b, b'%' | b'/' | b'+') => {
                out.push(b);
                i += 3;
            }
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The status class the broker must answer `asker` for `route`.
fn expected(route: Option<Route>, asker: Asker, public_read: bool) -> &'static str {
    let Some(route) = route else {
        return "404";
    };
    let needed = match route.access {
        Access::Public => return "allowed",
        Access::Badge | Access::Read if public_read => return "allowed",
        Access::Badge | Access::Read => Role::Read,
        Access::Write => Role::Write,
        Access::Admin => Role::Admin,
    };
    match asker {
        Asker::Nobody => "401",
        Asker::Token(role) if role >= needed => "allowed",
        Asker::Token(_) => "403",
    }
}

fn class(status: u16) -> &'static str {
    match status {
        401 => "401",
        403 => "403",
        404 => "404",
        _ => "allowed",
    }
}

/// Every spelling of every route for each asker; returns the disagreements.
fn walk(app: &TestApp, askers: &[(Asker, Option<String>)], public_read: bool) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut asked = 0;
    for route in ROUTES {
        for path in spellings(route) {
            let reach = reached(route.method, &path);
            for (asker, secret) in askers {
                let want = expected(reach, *asker, public_read);
                let method = reqwest::Method::from_bytes(route.method.as_bytes()).expect("method");
                let mut request = app
                    .client()
                    .request(method, format!("{}{path}", app.url))
                    .header("Accept", "application/hal+json")
                    .header("Content-Type", "application/json")
                    .body("{}");
                if let Some(secret) = secret {
                    request = request.bearer_auth(secret);
                }
                let got = app.send(request).status;
                asked += 1;
                // a 404 from a handler (nothing named `x` exists) is allowed
                let fits = class(got) == want || (want == "allowed" && got == 404);
                if !fits {
                    wrong.push(format!(
                        "{} {path} as {asker:?}: {got}, expected {want}",
                        route.method
                    ));
                }
            }
        }
    }
    eprintln!(
        "route access matrix ({:?}, public read {public_read}): {asked} requests, {} wrong",
        app.db,
        wrong.len()
    );
    wrong
}

fn token(app: &TestApp, admin: &str, name: &str, role: Role) -> String {
    let reply = app.send(
        app.client()
            .post(format!("{}/tokens", app.url))
            .bearer_auth(admin)
            .header("Content-Type", "application/json")
            .body(json!({"name": name, "role": role.as_str()}).to_string()),
    );
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["token"].as_str().expect("secret").to_owned()
}

#[test]
fn every_route_in_every_spelling_needs_its_role_for_every_caller() {
    for db in backends() {
        for public_read in [false, true] {
            let app = TestApp::start(db, |c| c.public_read = public_read);
            let first = app.post("/tokens", &json!({"name": "root", "role": "admin"}));
            let admin = first.json["token"]
                .as_str()
                .expect("admin secret")
                .to_owned();
            let mut askers = vec![(Asker::Nobody, None)];
            if !public_read {
                for (name, role) in [("r", Role::Read), ("w", Role::Write), ("a", Role::Admin)] {
                    askers.push((Asker::Token(role), Some(token(&app, &admin, name, role))));
                }
            }
            let wrong = walk(&app, &askers, public_read);
            assert!(
                wrong.is_empty(),
                "{} disagreements, first ones:\n{}",
                wrong.len(),
                wrong[..wrong.len().min(30)].join("\n")
            );
        }
    }
}

#[test]
fn an_escaped_tokens_path_gives_a_write_token_no_admin_power() {
    for db in backends() {
        let app = TestApp::start(db, |_| {});
        let first = app.post("/tokens", &json!({"name": "root", "role": "admin"}));
        let admin = first.json["token"]
            .as_str()
            .expect("admin secret")
            .to_owned();
        let write = token(&app, &admin, "w", Role::Write);
        for path in ["/%74okens", "/tok%65ns", "/TOKENS", "/%74%6F%6b%65%6e%73"] {
            let created = app.send(
                app.client()
                    .post(format!("{}{path}", app.url))
                    .bearer_auth(&write)
                    .header("Content-Type", "application/json")
                    .body(r#"{"name":"x","role":"admin"}"#),
            );
            assert!(
                matches!(created.status, 403 | 404),
                "POST {path} with a write token: {} {}",
                created.status,
                created.text
            );
            let revoked = app.send(
                app.client()
                    .delete(format!("{}{path}/root", app.url))
                    .bearer_auth(&write),
            );
            assert!(matches!(revoked.status, 403 | 404), "DELETE {path}/root");
        }
        // the admin token still works: nothing was revoked or added
        let list = app.send(
            app.client()
                .get(format!("{}/tokens", app.url))
                .bearer_auth(&admin),
        );
        assert_eq!(list.status, 200);
        assert!(!list.text.contains("\"x\""), "{}", list.text);
    }
}

/// The table itself: token management needs admin, nothing but the
/// heartbeat and the pages' assets is public, a badge is only a GET, and
/// the write-method reads are `for-verification` (as in the Pact Broker)
/// and the registry check (a router's question: it changes nothing).
#[test]
fn the_table_gives_each_route_the_access_it_should_need() {
    for route in ROUTES {
        let what = format!("{} {}", route.method, route.path);
        if route.path == "/tokens" || route.path.starts_with("/tokens/") {
            assert_eq!(route.access, Access::Admin, "{what}");
        }
        match route.access {
            Access::Public => assert!(
                [
                    "/diagnostic/status/heartbeat",
                    "/favicon.ico",
                    "/ui/static/{file}"
                ]
                .contains(&route.path),
                "{what}"
            ),
            Access::Badge => assert!(route.method == "GET" && route.path.ends_with("/badge")),
            Access::Read if route.method != "GET" => assert!(
                [
                    "/pacts/provider/{provider}/for-verification",
                    "/registry/check"
                ]
                .contains(&route.path),
                "{what}"
            ),
            Access::Write | Access::Admin | Access::Read => {}
        }
        if route.method != "GET" {
            assert_ne!(route.access, Access::Public, "{what}");
        }
    }
}
