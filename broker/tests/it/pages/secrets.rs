//! Secrets never reach a page: secret-named keys of any spelling, text and
//! form bodies, paths with their query, `Bearer` with any whitespace, and a
//! verification's build URL (its user-info and secret query values, in the
//! text and in the link).

use serde_json::{Value, json};

use super::{attrs, html_page};
use crate::pact_docs::{pact, publish_ok};
use crate::support::each_backend;

/// Every secret the contract or the result carries.
const SECRETS: [&str; 11] = [
    "tok-path-1",
    "vault-2",
    "twospace-3",
    "form-4",
    "form-5",
    "priv-6",
    "tab-7",
    "json-8",
    "json-9",
    "ghp_build10",
    "bt-11",
];

fn contract() -> Value {
    pact(
        "Shop",
        "Auth",
        json!([
            {"description": "log in with a form",
             "request": {"method": "POST", "path": "/login?access_token=tok-path-1&next=home",
                         "headers": {"Content-Type": "application/x-www-form-urlencoded",
                                     "X-Vault-Token": "vault-2", "X-Note": "Bearer  twospace-3"},
                         "body": "client_secret=form-4&password=form-5&user=bob"},
             "response": {"status": 200,
                          "headers": {"Content-Type": "text/plain", "Private-Token": "priv-6"},
                          "body": "signed in with Bearer\ttab-7"}},
            {"description": "read my profile",
             "request": {"method": "GET", "path": "/me"},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                          "body": {"authToken": "json-8", "apiSecret": "json-9", "name": "bob"}}}
        ]),
    )
}

#[test]
fn no_secret_of_a_contract_or_a_result_reaches_a_page() {
    each_backend(|app| {
        let document = contract();
        let sha = accord_broker::contract::prepare(document.clone())
            .expect("valid")
            .sha;
        publish_ok(app, "1", None, &[], &[document]);
        let results =
            format!("/pacts/provider/Auth/consumer/Shop/pact-version/{sha}/verification-results");
        let body = json!({"success": true, "providerApplicationVersion": "7",
            "buildUrl": "https://bob:ghp_build10@ci.example/run/7?token=bt-11&page=2"});
        let posted = app.post(&results, &body);
        assert_eq!(posted.status, 201, "{}", posted.text);
        let pages = [
            "/ui/pacts/provider/Auth/consumer/Shop/version/1".to_owned(),
            format!(
                "/ui/pacts/provider/Auth/consumer/Shop/pact-version/{sha}/verification-results/1"
            ),
        ];
        for page in &pages {
            let doc = html_page(&app.get_page(page), page);
            let html = doc.html();
            for secret in SECRETS {
                assert!(!html.contains(secret), "{secret} on {page}");
            }
            assert!(html.contains("(hidden)"), "{page}");
        }
        let doc = html_page(&app.get_page(&pages[1]), "verification");
        assert_eq!(
            attrs(&doc, "a.build-link", "href"),
            ["https://ci.example/run/7?token=(hidden)&page=2"]
        );
        let contract = html_page(&app.get_page(&pages[0]), "contract").html();
        assert!(
            contract.contains("user=bob"),
            "the rest of a form body is shown"
        );
        assert!(
            contract.contains("next=home"),
            "the rest of a query is shown"
        );
    });
}
