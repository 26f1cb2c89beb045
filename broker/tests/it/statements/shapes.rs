//! The data the baseline is measured on and the request shapes it sends.
//!
//! Web (versions w1, w2 on main) and Mobile (m1) consume Orders; Web also
//! consumes Billing. Orders o1 verified Web w1, o2 verified Web w2 and
//! Mobile m1 (failing); Billing b1 verified Web's contract with it. Orders
//! o1, Billing b1 and Mobile m1 are deployed to production. Every measured
//! request carries a write token, as CI's requests do.

use accord_broker::auth::hash_secret;
use accord_broker::store::tokens;
use serde_json::{Value, json};

use crate::pact_docs::{http, pact, path_of, publish_ok};
use crate::seed::Seed;
use crate::support::{Reply, TestApp};

const SECRET: &str = "acc_statements-baseline-token";

/// What the shapes need to know about the data.
pub struct Fixture {
    /// The sha of Web w2's contract with Orders.
    web_orders: String,
}

fn web_doc(epoch: u16) -> Value {
    let paths: Vec<Value> = (0..=epoch)
        .map(|i| http(&format!("/orders/{i}"), 200))
        .collect();
    pact("Web", "Orders", json!(paths))
}

fn verify(app: &TestApp, path: &str, version: &str, success: bool) {
    let reply = app.post(path, &result(version, success));
    assert_eq!(reply.status, 201, "{}", reply.text);
}

fn result(version: &str, success: bool) -> Value {
    json!({
        "success": success,
        "providerApplicationVersion": version,
        "buildUrl": "https://ci.example/1",
        "verifiedBy": {"implementation": "accord", "version": "1"},
    })
}

/// The path results for `provider`'s contract in a publication go to.
fn results_path(app: &TestApp, published: &Reply, provider: &str) -> String {
    let links = published.json["_links"]["pb:contracts"]
        .as_array()
        .expect("pb:contracts");
    let suffix = format!("and {provider}");
    let pact = links
        .iter()
        .find(|l| l["name"].as_str().is_some_and(|n| n.ends_with(&suffix)))
        .expect("the contract with the provider");
    let pact = app.get(&path_of(app, &pact["href"]));
    path_of(
        app,
        &pact.json["_links"]["pb:publish-verification-results"]["href"],
    )
}

impl Fixture {
    pub fn build(app: &TestApp) -> Fixture {
        let seed = Seed::new(app);
        for (name, branch) in [("Web", "main"), ("Mobile", "main"), ("Orders", "main")] {
            seed.pacticipant(name, Some(branch));
        }
        let billing = pact("Web", "Billing", json!([http("/invoices/1", 200)]));
        let w1 = publish_ok(app, "w1", Some("main"), &[], &[web_doc(0), billing.clone()]);
        let w2 = publish_ok(app, "w2", Some("main"), &[], &[web_doc(1), billing]);
        let mobile = pact("Mobile", "Orders", json!([http("/orders/9", 200)]));
        let m1 = publish_ok(app, "m1", Some("main"), &[], &[mobile]);
        verify(app, &results_path(app, &w1, "Orders"), "o1", true);
        let web_orders = results_path(app, &w2, "Orders");
        verify(app, &web_orders, "o2", true);
        verify(app, &results_path(app, &m1, "Orders"), "o2", false);
        verify(app, &results_path(app, &w2, "Billing"), "b1", true);
        for (p, v) in [("Orders", "o1"), ("Orders", "o2")] {
            seed.branch(p, v, "main");
        }
        for (p, v) in [("Orders", "o1"), ("Billing", "b1"), ("Mobile", "m1")] {
            seed.deploy(p, v, "production", "");
        }
        seed.with(|conn| tokens::insert(conn, "ci", "write", &hash_secret(SECRET)))
            .expect("token");
        Fixture { web_orders }
    }
}

/// Sends one request of a shape (the try number makes each publication new).
type Send = Box<dyn Fn(&TestApp, &Fixture, usize)>;

/// A request shape: its name in the baseline and how to send it.
pub struct Shape {
    pub name: &'static str,
    pub send: Send,
}

fn shape(name: &'static str, send: impl Fn(&TestApp, &Fixture, usize) + 'static) -> Shape {
    Shape {
        name,
        send: Box::new(send),
    }
}

fn get(app: &TestApp, path: &str, accept: &str) {
    let reply = app.send(
        app.client()
            .get(format!("{}{path}", app.url))
            .bearer_auth(SECRET)
            .header("Accept", accept),
    );
    assert_eq!(reply.status, 200, "GET {path}: {}", reply.text);
}

fn post(app: &TestApp, path: &str, body: &Value, status: u16) {
    let reply = app.send(
        app.client()
            .post(format!("{}{path}", app.url))
            .bearer_auth(SECRET)
            .header("Content-Type", "application/json")
            .header("Accept", "application/hal+json")
            .body(body.to_string()),
    );
    assert_eq!(reply.status, status, "POST {path}: {}", reply.text);
}

fn api(name: &'static str, path: &'static str) -> Shape {
    shape(name, move |app, _, _| {
        get(app, path, "application/hal+json")
    })
}

fn page(name: &'static str, path: &'static str) -> Shape {
    shape(name, move |app, _, _| get(app, path, "text/html"))
}

/// Every measured request shape, in the baseline's order.
pub fn all() -> Vec<Shape> {
    vec![
        api(
            "GET /can-i-deploy to an environment",
            "/can-i-deploy?pacticipant=Web&version=w2&environment=production",
        ),
        api(
            "GET /matrix, one selector to an environment (Pact CLI)",
            "/matrix?q[][pacticipant]=Web&q[][version]=w2&latestby=cvpv&environment=production",
        ),
        api(
            "GET /matrix, two selectors",
            "/matrix?q[][pacticipant]=Web&q[][version]=w2&q[][pacticipant]=Orders&q[][version]=o2&latestby=cvpv",
        ),
        shape("POST pacts for verification", |app, _, _| {
            let body = json!({
                "consumerVersionSelectors": [{"mainBranch": true}, {"deployedOrReleased": true}],
                "providerVersionBranch": "main",
                "includePendingStatus": true,
                "includeWipPactsSince": "2020-01-01",
            });
            post(app, "/pacts/provider/Orders/for-verification", &body, 200);
        }),
        shape(
            "POST /contracts/publish (content unchanged)",
            |app, _, i| {
                let body =
                    crate::pact_docs::request(&format!("w3-{i}"), Some("main"), &[], &[web_doc(1)]);
                post(app, "/contracts/publish", &body, 200);
            },
        ),
        shape("POST a verification result", |app, f, i| {
            post(app, &f.web_orders, &result(&format!("o3-{i}"), true), 201);
        }),
        api("GET / (the index)", "/"),
        page("GET /ui (home page)", "/ui"),
        page("GET /ui/matrix (landing)", "/ui/matrix"),
        page(
            "GET /ui/matrix?consumer&provider",
            "/ui/matrix?consumer=Web&provider=Orders",
        ),
        page(
            "GET /ui/providers/Orders/versions/o2 (version page)",
            "/ui/providers/Orders/versions/o2",
        ),
        // last: its new contents would change what the pages above show
        shape("POST /contracts/publish (new content)", |app, _, i| {
            let doc = web_doc(2 + u16::try_from(i).expect("a few tries"));
            let body = crate::pact_docs::request(&format!("w4-{i}"), Some("main"), &[], &[doc]);
            post(app, "/contracts/publish", &body, 200);
        }),
    ]
}
