//! The adversarial bad-input suite: every route of `routes::ROUTES`
//! (enumerated, so a new route is covered the day it lands) gets hostile
//! path segments, garbage query strings and, when it takes a body, garbage
//! bodies and every field of a valid body replaced by something else — over
//! a raw socket, on both backends, against a broker that requires a token.
//!
//! Asserted for every request: no 5xx; every 4xx is problem+json (or
//! `application/json` for a client that accepts only JSON) with its status
//! and a detail, and a 400/422 names the field; what the edge must refuse
//! (NUL, control characters, bytes that are not UTF-8) is a 400 naming the
//! parameter; and a refused write changed no table.

mod corpus;
mod run;

use serde_json::{Value, json};

use crate::pact_docs::{http, pact, request};
use crate::support::{TestApp, TestDb, backends};
use run::{Expect, Run};

/// What the seeding created, for filling path parameters.
#[derive(Debug, Clone)]
pub struct Seeded {
    pub token: String,
    pub sha: String,
    pub verification: String,
    pub environment: String,
    pub deployed: String,
    pub released: String,
    pub pact: Value,
}

/// A broker holding one of everything, reached with an admin token.
fn seed(app: &TestApp) -> Seeded {
    let token = "hostile-suite-admin-secret".to_owned();
    let pool = accord_broker::db::connect(&app.database.url, 1).expect("connect");
    let mut conn = pool.get().expect("connection");
    let hash = accord_broker::auth::hash_secret(&token);
    accord_broker::store::tokens::insert(&mut conn, "admin", "admin", &hash).expect("token");
    let auth = |r: reqwest::blocking::RequestBuilder| r.bearer_auth(&token);
    let call = |method: reqwest::Method, path: &str, body: &Value| -> Value {
        let reply = app.send(auth(
            app.client()
                .request(method, format!("{}{path}", app.url))
                .header("Content-Type", "application/json")
                .body(body.to_string()),
        ));
        assert!(
            reply.status < 300,
            "{path}: {} {}",
            reply.status,
            reply.text
        );
        reply.json
    };
    let doc = pact("c", "p", json!([http("/things/1", 200)]));
    let post = reqwest::Method::POST;
    call(
        post.clone(),
        "/contracts/publish",
        &request("1", Some("main"), &["prod"], std::slice::from_ref(&doc)),
    );
    let got = call(
        reqwest::Method::GET,
        "/pacts/provider/p/consumer/c/version/1",
        &json!({}),
    );
    let publish_href = got["_links"]["pb:publish-verification-results"]["href"]
        .as_str()
        .expect("verification link");
    let sha = publish_href
        .split("/pact-version/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("sha in the link")
        .to_owned();
    let verification = call(
        post.clone(),
        &format!("/pacts/provider/p/consumer/c/pact-version/{sha}/verification-results"),
        &json!({"success": true, "providerApplicationVersion": "1"}),
    );
    let number = verification["_links"]["self"]["href"]
        .as_str()
        .and_then(|h| h.rsplit('/').next())
        .expect("verification number")
        .to_owned();
    let env = call(
        post.clone(),
        "/environments",
        &json!({"name": "production", "production": true}),
    );
    let environment = env["uuid"].as_str().expect("environment uuid").to_owned();
    let place = |kind: &str| -> String {
        let path = format!("/pacticipants/c/versions/1/{kind}/environment/{environment}");
        call(post.clone(), &path, &json!({}))["uuid"]
            .as_str()
            .expect("record uuid")
            .to_owned()
    };
    let deployed = place("deployed-versions");
    let released = place("released-versions");
    Seeded {
        token,
        sha,
        verification: number,
        environment,
        deployed,
        released,
        pact: doc,
    }
}

/// The bad-input broker: small body limit; the corpus's sample webhook
/// (`https://127.0.0.1:1/…`) allowlisted, so its bad variants are judged on
/// what is wrong with them, not refused for their loopback address.
fn start(db: TestDb) -> TestApp {
    TestApp::start(db, |c| {
        c.body_limit = 256 * 1024;
        c.webhook_policy = accord_broker::webhooks::outbound::Policy::from_lists(
            &["https".into()],
            &["127.0.0.1".into()],
            &["POST".into()],
        )
        .expect("the corpus's webhook policy");
    })
}

/// Fills `pattern`'s parameters with seeded values, `param` with `raw`.
fn fill(seeded: &Seeded, pattern: &str, param: Option<(&str, &str)>) -> String {
    pattern
        .split('/')
        .map(
            |segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(name) => match param {
                    Some((p, raw)) if p == name => raw.to_owned(),
                    _ => corpus::valid_value(seeded, pattern, name),
                },
                None => segment.to_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join("/")
}

/// `path` with the first letter of each fixed word percent-encoded.
fn spelled_out(path: &str) -> String {
    path.split('/')
        .map(|segment| match segment.chars().next() {
            Some(c) if c.is_ascii_alphabetic() && !segment.contains('%') => {
                format!("%{:02X}{}", c as u8, &segment[1..])
            }
            _ => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn params(pattern: &str) -> Vec<&str> {
    pattern
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .collect()
}

/// Every `step`-th item: the quick run (README's test command) sends a
/// quarter of the corpus, the full one (`--ignored`, run by `.ci/run`) all.
fn pick<T>(all: Vec<T>, step: usize) -> Vec<T> {
    all.into_iter().step_by(step).collect()
}

/// Hostile and unknown path segments and garbage queries on every route.
fn paths_and_queries(run: &mut Run, seeded: &Seeded, step: usize) {
    for route in accord_broker::routes::ROUTES {
        let body = takes_body(route.method).then(|| {
            corpus::sample_body(seeded, route.method, route.path).unwrap_or_else(|| {
                panic!(
                    "{} {} takes a body: add a sample to corpus::sample_body",
                    route.method, route.path
                )
            })
        });
        for param in params(route.path) {
            let mut values = pick(corpus::hostile_segments(), step);
            values.push(corpus::PathValue {
                raw: corpus::unknown_value(param),
                refused_at_edge: false,
            });
            for v in values {
                let target = fill(seeded, route.path, Some((param, &v.raw)));
                let expect = if v.refused_at_edge {
                    Expect::Refused(param.to_owned())
                } else {
                    Expect::Answer
                };
                run.json(route.method, &target, body.as_ref(), expect);
            }
        }
        // actix routes on decoded words: `/%70acticipants/…` is the same route
        for param in params(route.path) {
            let target = spelled_out(&fill(seeded, route.path, Some((param, "a%00b"))));
            run.json(
                route.method,
                &target,
                body.as_ref(),
                Expect::Refused(param.to_owned()),
            );
        }
        let valid = fill(seeded, route.path, None);
        for q in pick(corpus::hostile_queries(), step) {
            let expect = match q.refused_field {
                Some(field) => Expect::Refused(field.to_owned()),
                // a DELETE that the edge lets through would delete the seed
                None if route.method == "DELETE" => continue,
                None => Expect::Answer,
            };
            run.json(
                route.method,
                &format!("{valid}?{}", q.raw),
                body.as_ref(),
                expect,
            );
        }
    }
}

fn takes_body(method: &str) -> bool {
    matches!(method, "POST" | "PUT" | "PATCH")
}

/// Garbage and mutated bodies, wrong media types and over-limit bodies on
/// every route that takes a body.
fn bodies(run: &mut Run, seeded: &Seeded, step: usize) {
    let body_routes = accord_broker::routes::ROUTES
        .iter()
        .filter(|r| takes_body(r.method));
    for (i, route) in body_routes.enumerate() {
        let target = fill(seeded, route.path, None);
        let sample = corpus::sample_body(seeded, route.method, route.path).expect("sample");
        for (_, bytes) in pick(corpus::garbage_bodies(), step) {
            run.bytes(
                route.method,
                &target,
                "application/json",
                bytes,
                Expect::Answer,
            );
        }
        for (path, pointer, key) in corpus::fields(&sample) {
            let mut without = sample.clone();
            if let Some(Value::Object(parent)) = without.pointer_mut(&pointer) {
                parent.remove(&key);
            }
            run.json(route.method, &target, Some(&without), Expect::Answer);
            for (_, replacement) in pick(corpus::field_replacements(), step) {
                let mut changed = sample.clone();
                if let Some(Value::Object(parent)) = changed.pointer_mut(&pointer) {
                    parent.insert(key.clone(), replacement);
                }
                run.json(
                    route.method,
                    &target,
                    Some(&changed),
                    Expect::Field(path.clone()),
                );
            }
        }
        let text = sample.to_string().into_bytes();
        for media in [
            "text/plain",
            "application/xml",
            "application/x-www-form-urlencoded",
            "application/json; charset=utf-16",
        ] {
            run.bytes(route.method, &target, media, text.clone(), Expect::Answer);
        }
        // each over-limit body costs a lingering close (up to a second)
        if i % step == 0 {
            run.over_limit(route.method, &target, 300 * 1024);
        }
    }
}

fn survive(step: usize) {
    for db in backends() {
        let app = start(db);
        let seeded = seed(&app);
        let mut run = Run::new(&app, &seeded.token);
        paths_and_queries(&mut run, &seeded, step);
        bodies(&mut run, &seeded, step);
        run.finish(&format!("{db:?}"));
    }
}

#[test]
fn every_route_survives_a_quarter_of_the_bad_input_corpus() {
    survive(4);
}

/// The whole corpus (about 8,000 requests per backend; `.ci/run` runs it).
#[test]
#[ignore = "adversarial: the whole corpus, about a minute per backend; .ci/run runs it"]
fn adversarial_every_route_survives_the_whole_bad_input_corpus() {
    survive(1);
}
