//! The adversarial probe of issue 22: secrets of every kind planted in two
//! versions of a contract (headers, query, path, JSON and form bodies,
//! message metadata, provider-state parameters, A2A message parts and
//! metadata, push tokens, MCP tool arguments and results), in a
//! verification result (build URL, findings, test results, verifier,
//! declarations) and in the application's repository URL. No page shows
//! any of them (contract pages, the diff, the verification page, search,
//! the application pages, home, the matrix), and the ordinary values next
//! to them are still shown.

use std::cell::RefCell;

use serde_json::{Value, json};

use super::html_page;
use crate::pact_docs::publish_ok;
use crate::support::each_backend;

/// The secrets planted so far, and a generator of random-looking ones.
#[derive(Default)]
struct Planted {
    all: RefCell<Vec<String>>,
    seed: RefCell<u64>,
}

impl Planted {
    /// Keeps `s` as planted and returns it.
    fn keep(&self, s: String) -> String {
        self.all.borrow_mut().push(s.clone());
        s
    }

    /// A secret that only its name gives away (`v1-pwd-marmot`).
    fn word(&self, v: u32, tag: &str) -> String {
        self.keep(format!("v{v}-{tag}-marmot"))
    }

    /// `n` random characters of `alphabet`, not kept.
    fn chars(&self, n: usize, alphabet: &[u8]) -> String {
        let mut seed = self.seed.borrow_mut();
        (0..n)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                alphabet[(*seed >> 33) as usize % alphabet.len()] as char
            })
            .collect()
    }

    /// A random base62 secret of `n` characters.
    fn random(&self, n: usize) -> String {
        let s = self.chars(
            n,
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        );
        self.keep(s)
    }

    /// A JWT.
    fn jwt(&self) -> String {
        let b64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let s = format!(
            "eyJhbGciOiJIUzI1NiJ9.eyJ{}.{}",
            self.chars(30, b64),
            self.chars(43, b64)
        );
        self.keep(s)
    }

    /// Lower-case hex of `n` digits.
    fn hex(&self, n: usize) -> String {
        let s = self.chars(n, b"0123456789abcdef");
        self.keep(s)
    }
}

/// The HTTP interactions: headers, query, path, JSON and form bodies,
/// provider-state parameters.
fn http(p: &Planted, v: u32) -> Vec<Value> {
    vec![
        json!({"type": "Synchronous/HTTP", "description": "log in and read my profile",
            "providerStates": [{"name": "a user with a key",
                "params": {"apiKey": p.word(v, "state-key"), "passcode": p.word(v, "passcode"),
                           "note": p.jwt(), "user": "bob"}}],
            "request": {"method": "POST",
                "path": format!("/profile/me?api_key={}&view=full", p.word(v, "path-key")),
                "query": {"pwd": [p.word(v, "q-pwd")], "sig": [p.word(v, "q-sig")],
                          "access_token": [p.word(v, "q-token")], "next": [p.random(32)],
                          "page": ["2"]},
                "headers": {"Authorization": format!("Bearer {}", p.word(v, "bearer")),
                            "Cookie": format!("sid={}; theme=dark", p.word(v, "cookie")),
                            "Proxy-Authorization": format!("Basic {}", p.random(24)),
                            "X-Access-Key": p.word(v, "x-access-key"),
                            "X-Auth-Token": p.word(v, "x-auth-token"),
                            "X-Request-Note": format!("forwarded {}", p.jwt()),
                            "Accept": "application/json"},
                "body": {"content": {
                    "jwt": p.word(v, "jwt"), "password": p.word(v, "password"),
                    "refreshToken": p.word(v, "refresh"),
                    "clientCredentials": {"id": p.word(v, "client-id"), "secret": p.word(v, "client-secret")},
                    "note": format!("sent as bearer {} today", p.word(v, "note-bearer")),
                    "callback": format!("https://hook:{}@hooks.example/x?token={}&kind=push",
                        p.word(v, "userinfo"), p.word(v, "cb-token")),
                    "data": p.random(40), "aws": p.keep(format!("AKIA{}", p.chars(16, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"))),
                    "gh": format!("ghp_{}", p.random(36)),
                    "taskId": "550e8400-e29b-41d4-a716-446655440000", "at": "2024-01-15T10:30:00Z",
                    "query": "ordinary text"}, "contentType": "application/json"}},
            "response": {"status": 200,
                "headers": {"Set-Cookie": format!("session={}; Path=/", p.word(v, "set-cookie")),
                            "X-Api-Key": p.word(v, "resp-key"), "Content-Type": "application/json"},
                "body": {"content": {"accessToken": p.jwt(), "sessionId": p.word(v, "session"),
                                     "otp": p.word(v, "otp"), "name": "bob", "status": "active"},
                         "contentType": "application/json"}}}),
        json!({"type": "Synchronous/HTTP", "description": "log in with a form",
            "request": {"method": "POST", "path": "/login",
                "headers": {"Content-Type": "application/x-www-form-urlencoded"},
                "body": {"content": format!("user=bob&pwd={}&client_secret={}&sig={}&grant_type=password",
                    p.word(v, "form-pwd"), p.word(v, "form-secret"), p.word(v, "form-sig")),
                    "contentType": "application/x-www-form-urlencoded"}},
            "response": {"status": 204}}),
    ]
}

/// A message, an A2A task and an MCP tool call.
fn accord(p: &Planted, v: u32) -> Vec<Value> {
    vec![
        json!({"type": "Asynchronous/Messages", "description": "an order was paid",
            "contents": {"content": {"webhookSecret": p.word(v, "webhook"), "order": "A-17"},
                         "contentType": "application/json"},
            "metadata": {"authorization": format!("Bearer {}", p.word(v, "meta-bearer")),
                         "x-signature": p.word(v, "meta-sig"), "topic": "orders"}}),
        json!({"type": "A2A/Task", "description": "plan with my keys", "skill": "planning",
            "request": {"message": {"role": "ROLE_USER",
                "parts": [{"text": format!("use Bearer {}", p.word(v, "part-bearer"))},
                          {"data": {"credentials": {"password": p.word(v, "part-pwd")}, "goal": "ship"}}],
                "metadata": {"apiKey": p.word(v, "msg-key"), "value": p.hex(40)}},
                "metadata": {"sessionToken": p.word(v, "send-session")}},
            "steps": [{"artifact": {"name": "work-plan",
                "parts": [{"data": {"sessionToken": p.word(v, "artifact-session"), "steps": 3}}]}}],
            "terminalState": "TASK_STATE_COMPLETED",
            "push": {"token": p.word(v, "push"), "scheme": "Bearer"}}),
        json!({"type": "MCP/ToolCall", "description": "draft a plan with secrets", "tool": "work_plan_draft",
            "arguments": {"api_key": p.word(v, "mcp-key"), "query": "ordinary text",
                          "Authorization": format!("Bearer {}", p.word(v, "mcp-bearer")),
                          "config": {"dbPassword": p.word(v, "db-pwd"), "region": "eu-west-1"}},
            "result": {"structuredContent": {"token": p.word(v, "mcp-token"), "status": "draft"}}}),
    ]
}

fn contract(p: &Planted, v: u32) -> Value {
    let mut interactions = http(p, v);
    interactions.extend(accord(p, v));
    json!({"consumer": {"name": "Shop"}, "provider": {"name": "Auth"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "4.0"},
                     "accord": {"formatVersion": "1.0", "a2a": "1.0", "mcp": "2025-11-25"}}})
}

/// A failing result carrying secrets in every field a page shows.
fn result(p: &Planted) -> Value {
    let quoted = p.word(1, "quoted");
    json!({"success": false, "providerApplicationVersion": "7",
        "buildUrl": format!("https://ci:{}@ci.example/run/9?token={}&page=2",
            p.word(1, "build-pw"), p.word(1, "build-token")),
        "verifiedBy": {"implementation": "accord", "version": "0.9.0", "token": p.word(1, "verifier")},
        "findings": [
            {"layer": "schema", "reasonCode": "RESPONSE_MISMATCH",
             "interactionDescription": "log in and read my profile", "path": "$.headers.X-Api-Key",
             "expected": p.word(1, "expected-key"), "actual": quoted,
             "detail": format!("header X-Api-Key was '{quoted}'")},
            {"layer": "authorization", "reasonCode": "CROSS_TENANT_ACCESS",
             "interactionDescription": "plan with my keys", "path": "$.body",
             "actual": {"password": p.word(1, "finding-pwd"), "owner": "tenant-b"},
             "detail": format!("sent Authorization: Bearer {}", p.word(1, "finding-bearer"))},
            {"layer": "protocol", "reasonCode": "UNEXPECTED_VALUE", "path": "$.result.data",
             "interactionDescription": "draft a plan with secrets", "actual": p.jwt()}],
        "testResults": {"requests": [{"headers": {"Cookie": format!("sid={}", p.word(1, "tr-cookie"))}}],
                        "env": {"API_TOKEN": p.word(1, "tr-token"), "CI": "true"}},
        "declarations": [{"kind": "a2a/agent-card", "profile": "alice", "protocolVersion": "1.0",
            "digest": format!("sha256:{}", "ab".repeat(32)), "entries": 2,
            "used": [format!("JSONRPC https://agent:{}@agent.example/a2a", p.word(1, "used-pw"))]}]})
}

/// Every page a release manager opens for the pair.
fn pages(sha: &str) -> Vec<String> {
    let pair = "/ui/pacts/provider/Auth/consumer/Shop";
    vec![
        format!("{pair}/version/1"),
        format!("{pair}/version/2"),
        format!("{pair}/diff?from=1&to=2"),
        format!("{pair}/pact-version/{sha}/verification-results/1"),
        "/ui/search?q=Sh".to_owned(),
        "/ui/pacticipants/Shop".to_owned(),
        "/ui/pacticipants/Auth".to_owned(),
        "/ui".to_owned(),
        "/ui/matrix?consumer=Shop&provider=Auth".to_owned(),
    ]
}

#[test]
fn no_planted_secret_reaches_any_page_and_ordinary_values_still_do() {
    each_backend(|app| {
        let p = Planted::default();
        let (one, two) = (contract(&p, 1), contract(&p, 2));
        let sha = accord_broker::contract::prepare(one.clone())
            .expect("valid")
            .sha;
        publish_ok(app, "1", None, &[], &[one]);
        publish_ok(app, "2", None, &[], &[two]);
        let results =
            format!("/pacts/provider/Auth/consumer/Shop/pact-version/{sha}/verification-results");
        let posted = app.post(&results, &result(&p));
        assert_eq!(posted.status, 201, "{}", posted.text);
        let repo = format!(
            "https://deploy:{}@git.example/shop.git",
            p.word(1, "repo-pw")
        );
        let patched = app.send(
            app.client()
                .patch(format!("{}/pacticipants/Shop", app.url))
                .header("Content-Type", "application/merge-patch+json")
                .body(json!({"repositoryUrl": repo}).to_string()),
        );
        assert_eq!(patched.status, 200, "{}", patched.text);

        let planted = p.all.borrow().clone();
        // 47 in each contract, 11 in the result, 1 in the repository URL
        assert!(planted.len() >= 54, "{} planted", planted.len());
        let mut shown = String::new();
        for page in pages(&sha) {
            let html = html_page(&app.get_page(&page), &page).html();
            for secret in &planted {
                let middle = &secret[secret.len() / 4..secret.len() * 3 / 4];
                assert!(!html.contains(secret.as_str()), "{secret} on {page}");
                assert!(
                    middle.len() < 10 || !html.contains(middle),
                    "part of {secret} on {page}"
                );
            }
            shown.push_str(&html);
        }
        assert!(
            !shown.contains("could not be read"),
            "every contract is read"
        );
        for ordinary in [
            "user=bob",
            "grant_type=password",
            "view=full",
            "ordinary text",
            "550e8400-e29b-41d4-a716-446655440000",
            "2024-01-15T10:30:00Z",
            "hooks.example/x?token=(hidden)",
            "kind=push",
            "a user with a key",
            "TASK_STATE_COMPLETED",
            "eu-west-1",
            "$.headers.X-Api-Key",
            "RESPONSE_MISMATCH",
            r#"$.contents.content.webhookSecret: "(hidden)" → "(hidden)""#,
            "tenant-b",
            "https://ci.example/run/9?token=(hidden)&amp;page=2",
            "https://git.example/shop.git",
            &"ab".repeat(32),
            &sha,
        ] {
            assert!(shown.contains(ordinary), "{ordinary} is not shown");
        }
    });
}
