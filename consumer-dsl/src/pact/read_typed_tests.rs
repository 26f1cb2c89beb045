use serde_json::{Value, json};

use super::*;
use crate::pact::read_interaction::read_interaction;

const AT: At<'static> = At {
    origin: "c.json",
    path: "$.interactions[3]",
};

/// The bench's interaction, with `change` applied.
fn usual(change: impl FnOnce(&mut Value)) -> Value {
    let mut v = json!({
        "type": "Synchronous/HTTP",
        "key": "item-6",
        "description": "get item 6",
        "providerStates": [{"name": "item 6 exists", "params": {"id": 6}}],
        "request": {"method": "GET", "path": "/items/6"},
        "response": {
            "status": 200,
            "headers": {"Content-Type": ["application/json"]},
            "body": {"contentType": "application/json", "encoded": false,
                     "content": {"id": 6, "name": "item 6"}},
            "matchingRules": {"body": {"$.name": {"combine": "AND", "matchers": [{"match": "type"}]}}}
        }
    });
    change(&mut v);
    v
}

/// The typed reader reads `v` as the `Value` reader does.
fn reads_the_same(v: &Value) {
    let typed = http(&v.to_string(), AT);
    let by_value = read_interaction(v, AT);
    match (typed, by_value) {
        (Some(t), Ok(b)) => assert_eq!(t, b, "{v}"),
        (t, b) => panic!("typed {t:?}, by value {b:?}: {v}"),
    }
}

/// The typed reader leaves `text` to the `Value` reader.
fn left_alone(text: &str) {
    assert_eq!(http(text, AT), None, "{text}");
}

#[test]
fn the_usual_shapes_read_as_the_value_reader_reads_them() {
    let changes: Vec<fn(&mut Value)> = vec![
        (|_| {}),
        // absent, null and empty bodies stay distinct
        (|v| v["response"]["body"] = Value::Null),
        (|v| {
            v["response"].as_object_mut().map(|o| o.remove("body"));
        }),
        (|v| v["request"]["body"] = json!({"content": "", "contentType": "text/plain"})),
        (|v| {
            v["request"]["body"] = json!({"content": "aGk=", "contentType": "application/octet-stream", "encoded": "base64"});
        }),
        (|v| v["response"]["body"] = json!({"content": "<a/>", "contentType": "application/xml"})),
        // nulls read as absent where the value reader says so
        (|v| {
            for k in ["headers", "matchingRules", "generators"] {
                v["request"][k] = Value::Null;
                v["response"][k] = Value::Null;
            }
            v["request"]["query"] = Value::Null;
            v["description"] = Value::Null;
            v["key"] = Value::Null;
            v["pending"] = Value::Null;
            v["comments"] = Value::Null;
            v["providerStates"] = Value::Null;
        }),
        // no attributes at all but the parts
        (|v| {
            *v = json!({"type": "Synchronous/HTTP", "request": {}, "response": {}});
        }),
        (|v| {
            v["request"]["query"] = json!({"a": ["1", "2"], "b": "3"});
            v["request"]["headers"] = json!({"X-N": 5, "X-B": true, "Accept": ["a", "b"]});
            v["request"]["generators"] =
                json!({"path": {"type": "ProviderState", "expression": "/items/${id}"}});
            v["pending"] = json!(true);
            v["comments"] = json!({"text": ["a comment"]});
        }),
        (|v| v["request"]["query"] = json!("a=1&b=%20")),
        // provider states in every shape the value reader takes
        (|v| v["providerStates"] = json!(["a state", {"name": "b", "x": 1}])),
        (|v| v["providerStates"] = json!([{"name": "c", "params": null}])),
    ];
    for change in changes {
        reads_the_same(&usual(change));
    }
}

#[test]
fn anything_else_is_left_to_the_value_reader() {
    let cases = [
        // attributes the typed reader does not name
        usual(|v| v["x-owner"] = json!("team-a")),
        usual(|v| v["repeat"] = json!({"times": 2})),
        usual(|v| v["providerState"] = json!("v2 style")),
        usual(|v| v["request"]["x"] = json!(1)),
        usual(|v| v["response"]["x"] = json!(1)),
        // other types, or none
        usual(|v| v["type"] = json!("Asynchronous/Messages")),
        usual(|v| {
            v.as_object_mut().map(|o| o.remove("type"));
        }),
        usual(|v| v["type"] = Value::Null),
        // errors: the value reader words them
        usual(|v| v["request"]["method"] = Value::Null),
        usual(|v| v["request"]["path"] = json!(7)),
        usual(|v| v["response"]["status"] = json!("200")),
        usual(|v| v["response"]["headers"] = json!([1])),
        usual(|v| v["request"] = json!("GET /")),
        usual(|v| v["description"] = json!(5)),
        usual(|v| v["pending"] = json!("yes")),
        usual(|v| v["providerStates"] = json!({"name": "s"})),
        usual(|v| {
            v.as_object_mut().map(|o| o.remove("response"));
        }),
    ];
    for v in cases {
        left_alone(&v.to_string());
    }
    // a duplicate attribute: the value reader keeps the last
    left_alone(
        r#"{"type": "Synchronous/HTTP", "description": "a", "description": "b", "request": {}, "response": {}}"#,
    );
    left_alone("[1]");
    // a derived struct reader takes an array as its fields in order; the
    // value reader refuses it
    left_alone(r#"["Synchronous/HTTP", "d", "k", false, null, null, {}, {}]"#);
    left_alone(r#"{"type": "Synchronous/HTTP", "request": ["GET", "/"], "response": {}}"#);
    left_alone(r#"{"type": "Synchronous/HTTP", "request": {}, "response": [200]}"#);
    left_alone("not json");
}
