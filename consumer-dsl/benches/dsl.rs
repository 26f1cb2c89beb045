//! Speed of the contract engine: `cargo bench -p accord-dsl`.
//!
//! Targets (issue 2): matching a 1 MB JSON body under type/regex/eachLike
//! rules at >= 50 MB/s on one core; the canonical digest of a 10 MB contract
//! at >= 100 MB/s; raised by issue 27 to >= 150 MB/s and >= 300 MB/s.
//! divan prints the throughput in bytes per second.
//!
//! Measured 2026-12-05 on the project's 2-core machine (load 1.6-3),
//! release, the binaries before and after issue 27's matcher changes run
//! alternately, medians: matching 111-115 -> 189-201 MB/s (the datetime
//! pattern translated once per thread, rule paths weighed from their
//! deepest token, expected keys looked up at the same position first);
//! the digest, code unchanged, 284-337 MB/s across the same runs.
//! The digest's writer rewritten (one buffer hashed in blocks, unescaped
//! runs copied whole, no allocation per object), before and after run
//! alternately at load 15: medians 78/98/80 ms -> 43/54/71 ms, fastest
//! 208 -> 376 MB/s (issue 27; see ARCHITECTURE.md).

use divan::counter::BytesCount;
use divan::{Bencher, black_box};
use serde_json::{Value, json};

fn main() {
    divan::main();
}

/// A contract of about `target_bytes` of JSON: many HTTP interactions with
/// nested bodies.
fn big_contract(target_bytes: usize) -> Value {
    let mut interactions = Vec::new();
    let mut size = 0;
    let mut i = 0;
    while size < target_bytes {
        let interaction = json!({
            "type": "Synchronous/HTTP",
            "description": format!("get plan {i}"),
            "providerStates": [{"name": "plan exists", "params": {"id": i}}],
            "request": {"method": "GET", "path": format!("/plans/{i}"), "headers": {"Accept": ["application/json"]}},
            "response": {
                "status": 200,
                "headers": {"Content-Type": ["application/json"]},
                "body": {"content": {
                    "planId": format!("plan-{i}"), "status": "draft", "score": 0.25 * i as f64,
                    "steps": [{"title": "rotate keys", "done": false}, {"title": "audit ✓", "done": true}]
                }, "contentType": "application/json", "encoded": false},
                "matchingRules": {"body": {"$.steps": {"combine": "AND", "matchers": [{"match": "type", "min": 1}]}}}
            }
        });
        size += interaction.to_string().len();
        interactions.push(interaction);
        i += 1;
    }
    json!({
        "consumer": {"name": "orchestrator"},
        "provider": {"name": "planning-agent"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "4.0"}}
    })
}

#[divan::bench(sample_count = 10)]
fn digest_10mb_contract(bencher: Bencher) {
    let contract = big_contract(10 * 1024 * 1024);
    let bytes = contract.to_string().len();
    bencher
        .counter(BytesCount::new(bytes))
        .bench(|| accord_dsl::canonical::digest(black_box(&contract)));
}

/// An expected body with one example item under eachLike/regex/type rules,
/// and an actual body of about `target_bytes` whose items all conform.
fn eachlike_bodies(target_bytes: usize) -> (Value, Value, accord_dsl::matching::MatchingRules) {
    let expected = json!({
        "planId": "plan-1",
        "items": [{"id": "item-0001", "title": "rotate keys", "done": false, "score": 1.5,
                   "tags": ["security"], "when": "2024-01-02T03:04:05Z", "owner": {"name": "alice", "tenant": "tenant-a"}}]
    });
    let mut items = Vec::new();
    let mut size = 0;
    let mut i = 0u64;
    while size < target_bytes {
        let item = json!({"id": format!("item-{i:04}"), "title": format!("step number {i} of the plan"),
            "done": i.is_multiple_of(2), "score": i as f64 / 3.0, "tags": ["security", "ops"],
            "when": format!("2024-01-{:02}T03:04:05Z", 1 + i % 28), "owner": {"name": format!("user{i}"), "tenant": "tenant-a"}});
        size += item.to_string().len();
        items.push(item);
        i += 1;
    }
    let actual = json!({"planId": "plan-42", "items": items});
    let rules = json!({"body": {
        "$.planId": {"combine": "AND", "matchers": [{"match": "regex", "regex": "plan-[0-9]+"}]},
        "$.items": {"combine": "AND", "matchers": [{"match": "type", "min": 1}]},
        "$.items[*].id": {"combine": "AND", "matchers": [{"match": "regex", "regex": "^item-[0-9]{4,}$"}]},
        "$.items[*].title": {"combine": "AND", "matchers": [{"match": "type"}]},
        "$.items[*].score": {"combine": "AND", "matchers": [{"match": "number"}]},
        "$.items[*].when": {"combine": "AND", "matchers": [{"match": "datetime", "format": "yyyy-MM-dd'T'HH:mm:ssX"}]},
        "$.items[*].tags": {"combine": "AND", "matchers": [{"match": "type", "min": 1}]},
        "$.items[*].owner.tenant": {"combine": "AND", "matchers": [{"match": "regex", "regex": "tenant-[a-z]"}]}
    }});
    let rules =
        accord_dsl::matching::MatchingRules::from_pact_json(&rules, accord_dsl::PactSpec::V4)
            .expect("benchmark rules are valid");
    (expected, actual, rules)
}

#[divan::bench(sample_count = 20)]
fn match_1mb_body_under_eachlike_regex_type_datetime_rules(bencher: Bencher) {
    let (expected, actual, rules) = eachlike_bodies(1024 * 1024);
    let bytes = actual.to_string().len();
    let body = rules.body().cloned().unwrap_or_default();
    assert!(accord_dsl::matching::match_json(&expected, &actual, &body, true).is_empty());
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        accord_dsl::matching::match_json(black_box(&expected), black_box(&actual), &body, true)
    });
}
