//! The pairs of the A2A attribute walk for the kind of a refusal and the
//! idempotency expectations of `repeat` (its key, the fields equal across
//! repeats).

use accord_fixtures::a2a::A2aFault;
use serde_json::json;

use crate::a2a_attribute_pairs::{Pair, pair, with};

pub(crate) fn refusal_and_repeat_pairs() -> Vec<Pair> {
    let served_negative = |negative: serde_json::Value| {
        with(|i| {
            i["negative"] = negative;
            i.as_object_mut().map(|o| {
                o.remove("steps");
                o.remove("terminalState")
            });
        })
    };
    // the plan's titles are generated: the same in every repeat unless a
    // key is kept, then new ones each time
    let titled = |repeat: serde_json::Value| {
        with(|i| {
            i["sideEffects"] = json!({"records": 1});
            i["request"] = json!({"message": {"role": "ROLE_USER", "parts": [{"data":
                {"request_id": "r-key", "items": [{"title": "x"}]}}]},
                "generators": {"body": {"$.message.parts[0].data.items[0].title":
                    {"type": "RandomString", "size": 12}}}});
            i["repeat"] = repeat;
        })
    };
    let twice = |repeat: serde_json::Value| {
        with(|i| {
            i["sideEffects"] = json!({"records": 1});
            i["repeat"] = repeat;
        })
    };
    vec![
        pair(
            "negative.kind",
            served_negative(json!(true)),
            served_negative(json!("invalid_input")),
            None,
        ),
        pair(
            "repeat.key",
            titled(json!({"times": 2})),
            titled(json!({"times": 2, "key": "$.message.parts[0].data.request_id"})),
            Some(A2aFault::IdempotencyByContent),
        ),
        pair(
            "repeat.sameFields",
            twice(json!({"times": 2, "sameFields": ["$.artifacts[0].parts[0].data"]})),
            twice(json!({"times": 2, "sameFields": ["$.id"]})),
            None,
        ),
    ]
}
