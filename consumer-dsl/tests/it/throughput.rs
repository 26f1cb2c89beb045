//! A rough throughput check of the JSON matcher (the real benchmark is
//! `cargo bench -p accord-dsl`). Ignored by default: run with
//! `cargo test -p accord-dsl --release --test it throughput -- --ignored --nocapture`.

use std::time::Instant;

use accord_dsl::PactSpec;
use accord_dsl::matching::{MatchingRules, match_json};
use serde_json::{Value, json};

/// About 1 MB of JSON: a list of records under eachLike/type/regex rules.
fn body(n: usize) -> Value {
    let items: Vec<Value> = (0..n)
        .map(|i| {
            json!({"id": i, "name": format!("item-{i}"), "price": 1.5 + i as f64,
                   "tags": ["a", "b", "c"], "when": "2024-01-02T03:04:05Z",
                   "owner": {"id": format!("u{i}"), "active": i % 2 == 0}})
        })
        .collect();
    json!({ "items": items })
}

#[test]
#[ignore = "timing; run in release"]
fn json_matching_throughput() {
    let rules = MatchingRules::from_pact_json(
        &json!({"body": {
            "$.items": {"matchers": [{"match": "type", "min": 1}]},
            "$.items[*].name": {"matchers": [{"match": "regex", "regex": "item-\\d+"}]},
            "$.items[*].when": {"matchers": [{"match": "datetime"}]},
            "$.items[*].owner.id": {"matchers": [{"match": "regex", "regex": "u\\d+"}]}
        }}),
        PactSpec::V4,
    )
    .expect("valid rules");
    let category = rules.body().cloned().unwrap_or_default();
    let expected = body(1);
    let actual = body(5_000);
    let size = serde_json::to_vec(&actual).expect("serialisable").len();
    let start = Instant::now();
    let rounds = 5;
    for _ in 0..rounds {
        let m = match_json(&expected, &actual, &category, true);
        assert!(m.is_empty(), "{:?}", m.first());
    }
    let secs = start.elapsed().as_secs_f64();
    let mbps = (size * rounds) as f64 / secs / 1e6;
    println!("json matching: {size} bytes x {rounds} in {secs:.3}s = {mbps:.1} MB/s");
}
