//! Speed of the contract engine: `cargo bench -p accord-dsl`.
//!
//! Targets (issue 2): matching a 1 MB JSON body under type/regex/eachLike
//! rules at >= 50 MB/s on one core; the canonical digest of a 10 MB contract
//! at >= 100 MB/s. divan prints the throughput in bytes per second.

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
