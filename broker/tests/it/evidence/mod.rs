//! Evidence-driven admission after replay (issue 25): STATIC_VALIDATED →
//! CONFORMANCE_VERIFIED once every live consumer contract is verified by
//! replay on the declared digests, → SECURITY_VERIFIED with authorization
//! cases and no authorization finding; a failed replay drops it, a new
//! producer digest starts over, expired evidence drops it back; the
//! evidence record as stored and shown; bad evidence fields refused.

use base64::Engine;
use serde_json::{Value, json};

use crate::declarations_diff::spec;
use crate::support::{TestApp, backends, each_backend};

const P: &str = "plan-tools";

fn digest(c: char) -> String {
    format!("sha256:{}", c.to_string().repeat(64))
}

/// Publishes `text` (a contract spec) as `consumer` 1.0 on main.
fn publish_spec(app: &TestApp, consumer: &str, text: &str) {
    let none = |_: &str| -> Result<Value, accord_dsl::spec::ResolveError> { Ok(Value::Null) };
    let contract = accord_dsl::spec::compile_spec(text, "c.yaml", &none).expect("compiles");
    let content = accord_dsl::pact::to_v4_json(&contract).to_string();
    let reply = app.post(
        "/contracts/publish",
        &json!({
            "pacticipantName": consumer, "pacticipantVersionNumber": "1.0", "branch": "main",
            "contracts": [{"consumerName": consumer, "providerName": P, "specification": "pact",
                "contentType": "application/json",
                "content": base64::engine::general_purpose::STANDARD.encode(content)}]
        }),
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
}

/// A spec that also holds an authorization case: the review call sent
/// without a credential must be refused.
fn secured_spec(consumer: &str) -> String {
    spec(consumer, "draft, ready")
        + "  - mcp: review without a credential\n    tool: review\n    arguments: { plan_id: plan-7 }\n    credential: none\n    negative: unauthenticated\n    expect: {}\n"
}

/// Declares carol's tools for 2.0 (every status); the digest.
fn declare(app: &TestApp, status: &[&str]) -> String {
    let path = format!("/pacticipants/{P}/versions/2.0/declarations/mcp-tools/carol");
    let reply = app.put(&path, &crate::declarations_diff::tools(status));
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["digest"].as_str().expect("digest").to_owned()
}

/// planner and auditor live, 2.0 declared and STATIC_VALIDATED; the digest.
fn seed(app: &TestApp, planner_spec: &str) -> String {
    publish_spec(app, "planner", planner_spec);
    publish_spec(app, "auditor", &spec("auditor", "ready, rejected"));
    let d = declare(app, &["draft", "ready", "rejected"]);
    assert_eq!(admission(app)["state"], "STATIC_VALIDATED");
    d
}

/// The path results for `consumer`'s contract are published to.
fn results_path(app: &TestApp, consumer: &str) -> String {
    let got = app.get(&format!(
        "/pacts/provider/{P}/consumer/{consumer}/version/1.0"
    ));
    let href = got.json["_links"]["pb:publish-verification-results"]["href"]
        .as_str()
        .expect("verification link");
    let rest = href.split_once("://").map_or(href, |(_, r)| r);
    format!("/{}", rest.split_once('/').map_or(rest, |(_, p)| p))
}

/// A replay result of `consumer`'s contract by 2.0 on tools `digest`,
/// with `extra` merged into the body; answers the reply.
fn verify(app: &TestApp, consumer: &str, digest: &str, extra: Value) -> crate::support::Reply {
    verify_as(app, "2.0", consumer, digest, extra)
}

/// The same by provider version `version`.
fn verify_as(
    app: &TestApp,
    version: &str,
    consumer: &str,
    digest: &str,
    extra: Value,
) -> crate::support::Reply {
    app.post(
        &results_path(app, consumer),
        &result_body(version, digest, extra),
    )
}

/// A result body by `version` on tools `digest`, `extra` merged in.
fn result_body(version: &str, digest: &str, extra: Value) -> Value {
    let mut body = json!({"success": true, "providerApplicationVersion": version,
        "verifiedBy": {"implementation": "Accord", "version": "9.9.9"},
        "declarations": [{"kind": "mcp/tools/list", "profile": "carol",
            "protocolVersion": "2026-07-28", "digest": digest, "entries": 1}]});
    for (k, v) in extra.as_object().into_iter().flatten() {
        body[k] = v.clone();
    }
    body
}

fn verify_ok(app: &TestApp, consumer: &str, digest: &str, extra: Value) -> i64 {
    let reply = verify(app, consumer, digest, extra);
    assert_eq!(reply.status, 201, "{}", reply.text);
    let href = reply.json["_links"]["self"]["href"].as_str().unwrap_or("");
    assert!(!href.is_empty(), "{}", reply.text);
    last_cause(app).unwrap_or(0)
}

fn admission(app: &TestApp) -> Value {
    let reply = app.get(&format!("/pacticipants/{P}/versions/2.0/admission"));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

fn state(app: &TestApp) -> String {
    admission(app)["state"].as_str().unwrap_or("").to_owned()
}

/// The verification id of the last transition's cause, if it is one.
fn last_cause(app: &TestApp) -> Option<i64> {
    let a = admission(app);
    let last = a["transitions"].as_array()?.last()?.clone();
    (last["cause"]["kind"] == "verification").then(|| last["cause"]["id"].as_i64())?
}

fn reason(app: &TestApp) -> String {
    admission(app)["reason"].as_str().unwrap_or("").to_owned()
}

#[test]
fn conformance_needs_every_live_consumer_verified_on_the_declared_digests() {
    each_backend(|app| {
        let d = seed(app, &spec("planner", "draft, ready"));
        verify_ok(app, "planner", &d, json!({}));
        assert_eq!(
            state(app),
            "STATIC_VALIDATED",
            "auditor is not verified yet"
        );
        // auditor verified, but on another tools digest than the declared one
        verify_ok(app, "auditor", &digest('e'), json!({}));
        assert_eq!(state(app), "STATIC_VALIDATED", "{}", admission(app));
        assert!(admission(app)["evidence"].is_null());
        verify_ok(app, "auditor", &d, json!({}));
        let a = admission(app);
        assert_eq!(a["state"], "CONFORMANCE_VERIFIED", "{a}");
        let r = reason(app);
        assert!(r.contains("every live consumer contract verified"), "{r}");
        // no authorization case in the live contracts: it says why it stops here
        assert!(r.contains("no authorization case"), "{r}");
        let last = &a["transitions"][a["transitions"].as_array().map_or(0, Vec::len) - 1];
        assert_eq!(last["cause"]["kind"], "verification", "{a}");
    });
}

#[test]
fn the_evidence_record_is_stored_and_shown_with_its_fields() {
    each_backend(|app| {
        let d = seed(app, &spec("planner", "draft, ready"));
        let producer = digest('1');
        let extra = json!({"producerDigest": producer, "evidenceTtlSeconds": 86400});
        verify_ok(app, "planner", &d, extra.clone());
        verify_ok(app, "auditor", &d, extra);
        let e = admission(app)["evidence"].clone();
        assert_eq!(e["cardDigest"], Value::Null, "{e}");
        assert_eq!(e["toolsDigests"], json!({"carol": d}));
        assert_eq!(
            e["contractDigests"].as_array().map(Vec::len),
            Some(2),
            "{e}"
        );
        assert_eq!(e["producerDigest"], json!(producer));
        assert_eq!(e["profiles"], json!(["mcp-2026-07-28"]));
        assert_eq!(e["harnessVersion"], "9.9.9");
        assert_eq!(e["verifications"].as_array().map(Vec::len), Some(2));
        assert_eq!(e["expired"], false);
        assert_eq!(e["security"]["verified"], false);
        let at = |k: &str| {
            chrono::DateTime::parse_from_rfc3339(e[k].as_str().expect(k)).expect("a time")
        };
        let ttl = at("expiresAt") - at("verifiedAt");
        assert!(ttl <= chrono::TimeDelta::days(1), "{e}");
        assert!(ttl > chrono::TimeDelta::hours(23), "{e}");
        // and the page shows it beside the admission state
        let page = app.get_page(&format!("/ui/providers/{P}/versions/2.0"));
        assert!(page.text.contains("Admission evidence"), "{}", page.text);
        assert!(
            page.text.contains(&producer),
            "the producer digest on the page"
        );
    });
}

#[test]
fn security_needs_authorization_cases_and_no_authorization_finding() {
    each_backend(|app| {
        let d = seed(app, &secured_spec("planner"));
        verify_ok(app, "planner", &d, json!({}));
        verify_ok(app, "auditor", &d, json!({}));
        let a = admission(app);
        assert_eq!(a["state"], "SECURITY_VERIFIED", "{a}");
        let moves: Vec<&Value> = a["transitions"].as_array().into_iter().flatten().collect();
        let tos: Vec<&str> = moves.iter().filter_map(|t| t["to"].as_str()).collect();
        assert!(
            tos.ends_with(&["CONFORMANCE_VERIFIED", "SECURITY_VERIFIED"]),
            "{a}"
        );
        assert_eq!(a["evidence"]["security"]["verified"], true, "{a}");
        // a (passing) result carrying an authorization-layer finding
        let finding = json!({"findings": [{"layer": "authorization",
            "reasonCode": "CROSS_TENANT_ACCESS", "detail": "another tenant's plan was served"}]});
        verify_ok(app, "auditor", &d, finding);
        assert_eq!(state(app), "CONFORMANCE_VERIFIED", "{}", admission(app));
        assert!(
            reason(app).contains("CROSS_TENANT_ACCESS"),
            "{}",
            reason(app)
        );
    });
}

#[test]
fn a_failed_replay_drops_the_version_with_the_consumer_and_codes() {
    each_backend(|app| {
        let d = seed(app, &spec("planner", "draft, ready"));
        verify_ok(app, "planner", &d, json!({}));
        verify_ok(app, "auditor", &d, json!({}));
        assert_eq!(state(app), "CONFORMANCE_VERIFIED");
        let failed = json!({"success": false, "findings": [{"layer": "schema",
            "reasonCode": "SCHEMA_MISMATCH", "detail": "status is not a string"}]});
        let id = verify_ok(app, "planner", &d, failed);
        let a = admission(app);
        assert_eq!(a["state"], "STATIC_VALIDATED", "{a}");
        let r = reason(app);
        assert!(
            r.contains("planner 1.0") && r.contains("SCHEMA_MISMATCH"),
            "{r}"
        );
        assert!(r.contains(&format!("verification {id}")), "{r}");
        assert!(a["evidence"].is_null(), "{a}");
        // verified again: back up
        verify_ok(app, "planner", &d, json!({}));
        assert_eq!(state(app), "CONFORMANCE_VERIFIED");
    });
}

#[test]
fn a_new_producer_digest_starts_the_evidence_over() {
    each_backend(|app| {
        let d = seed(app, &spec("planner", "draft, ready"));
        let first = json!({"producerDigest": digest('1')});
        verify_ok(app, "planner", &d, first.clone());
        verify_ok(app, "auditor", &d, first);
        assert_eq!(state(app), "CONFORMANCE_VERIFIED");
        let second = json!({"producerDigest": digest('2')});
        verify_ok(app, "planner", &d, second.clone());
        let a = admission(app);
        assert_eq!(a["state"], "STATIC_VALIDATED", "{a}");
        let tos: Vec<&str> = a["transitions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["to"].as_str())
            .collect();
        assert!(tos.ends_with(&["DRAFT", "STATIC_VALIDATED"]), "{a}");
        let started = a["transitions"]
            .as_array()
            .and_then(|t| t.iter().rev().find(|t| t["to"] == "DRAFT"))
            .map(|t| t["reason"].to_string())
            .unwrap_or_default();
        assert!(
            started.contains("new producer artifact digest"),
            "{started}"
        );
        // auditor's result on the old artifact is no evidence for the new one
        assert!(a["evidence"].is_null(), "{a}");
        verify_ok(app, "auditor", &d, second);
        let a = admission(app);
        assert_eq!(a["state"], "CONFORMANCE_VERIFIED", "{a}");
        assert_eq!(a["evidence"]["producerDigest"], json!(digest('2')));
    });
}

#[test]
fn results_on_a_producer_digest_from_before_it_changed_do_not_count_when_it_returns() {
    each_backend(|app| {
        let d = seed(app, &spec("planner", "draft, ready"));
        let (a, b) = (
            json!({"producerDigest": digest('a')}),
            json!({"producerDigest": digest('b')}),
        );
        verify_ok(app, "auditor", &d, a.clone());
        assert_eq!(state(app), "STATIC_VALIDATED", "planner is not verified");
        verify_ok(app, "planner", &d, b); // the artifact changed: A -> B
        verify_ok(app, "planner", &d, a.clone()); // and back: B -> A
        assert_eq!(
            state(app),
            "STATIC_VALIDATED",
            "auditor's result on A predates B: {}",
            admission(app)
        );
        verify_ok(app, "auditor", &d, a);
        let got = admission(app);
        assert_eq!(got["state"], "CONFORMANCE_VERIFIED", "{got}");
        assert_eq!(got["evidence"]["producerDigest"], json!(digest('a')));
    });
}

#[test]
fn bad_evidence_fields_are_refused_naming_the_field_and_store_nothing() {
    each_backend(|app| {
        let d = seed(app, &spec("planner", "draft, ready"));
        let cases = [
            (json!({"producerDigest": "sha256:xyz"}), "$.producerDigest"),
            (
                json!({"producerDigest": "md5:abc\u{0}"}),
                "$.producerDigest",
            ),
            (json!({"evidenceTtlSeconds": 0}), "$.evidenceTtlSeconds"),
            (
                json!({"evidenceTtlSeconds": 91 * 24 * 3600}),
                "$.evidenceTtlSeconds",
            ),
        ];
        for (extra, field) in cases {
            let reply = verify(app, "planner", &d, extra.clone());
            assert_eq!(reply.status, 400, "{extra}: {}", reply.text);
            assert!(
                reply.json["errors"][field].is_array(),
                "{extra}: {}",
                reply.text
            );
        }
        for extra in [
            json!({"producerDigest": 7}),
            json!({"evidenceTtlSeconds": "7d"}),
        ] {
            let reply = verify(app, "planner", &d, extra.clone());
            assert_eq!(reply.status, 400, "{extra}: {}", reply.text);
        }
        let latest = app.get(&format!(
            "/pacts/provider/{P}/consumer/planner/latest/verification-results/latest"
        ));
        assert_eq!(latest.status, 404, "nothing stored: {}", latest.text);
        assert_eq!(state(app), "STATIC_VALIDATED");
    });
}

mod concurrent;
mod expiry;
mod replicas;
