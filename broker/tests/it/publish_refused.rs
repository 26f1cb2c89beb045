//! What a verifier could not run is refused at publish (422 naming the
//! path inside the content), and a property test of the publish path:
//! mutated contracts never panic the broker, never answer 5xx, and what is
//! stored is always a contract the verifier loads.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::pact_docs::{contract, planning_agent_contract, publish};
use crate::support::{TestApp, TestDb, backends, each_backend};

fn accord_doc(interactions: Value) -> Value {
    json!({
        "consumer": {"name": "c"}, "provider": {"name": "p"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "a2a": "1.0", "mcp": "2026-07-28", "jsonSchema": "2020-12"}}
    })
}

fn publish_one(app: &TestApp, doc: &Value) -> crate::support::Reply {
    publish(
        app,
        &json!({"pacticipantName": "c", "pacticipantVersionNumber": "1", "branch": "main",
                "contracts": [contract(doc)]}),
    )
}

#[test]
fn contracts_a_verifier_cannot_run_are_refused_with_their_path() {
    let combine = json!([{"type": "Synchronous/HTTP", "description": "h",
        "request": {"method": "GET", "path": "/"},
        "response": {"status": 200, "body": {"content": {"a": 1}, "contentType": "application/json"},
            "matchingRules": {"body": {"$.a": {"combine": 42, "matchers": [{"match": "type"}]}}}}}]);
    let no_result =
        json!([{"type": "MCP/ToolCall", "description": "m", "tool": "t", "result": null}]);
    let bad_schema = json!([{"type": "A2A/Task", "description": "a",
        "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "hi"}]}},
        "steps": [{"artifact": {"parts": [{"data": {"x": 1}, "schema": {"type": 42}}]}}]}]);
    let record = json!({"maxDepth": 0});
    let other_record = json!([{"type": "A2A/Task", "description": "d",
        "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "hi"}],
            "metadata": {"delegation": {"maxDepth": 2}}}},
        "auth": {"principal": "alice"}, "delegation": record}]);
    let cases = [
        (combine, "combine"),
        (
            other_record,
            "DELEGATION_METADATA_MISMATCH at $.interactions[0].request.message.metadata.delegation",
        ),
        (no_result, "$.interactions[0].result"),
        (
            bad_schema,
            "$.interactions[0].steps[0].artifact.parts[0].schema",
        ),
    ];
    each_backend(|app| {
        for (interactions, named) in &cases {
            let reply = publish_one(app, &accord_doc(interactions.clone()));
            assert_eq!(reply.status, 422, "{}", reply.text);
            let message = reply.json["errors"]["$.contracts[0].content"][0]
                .as_str()
                .unwrap_or("");
            assert!(message.contains(named), "{named}: {}", reply.text);
            assert_eq!(
                app.get("/pacticipants/c").status,
                404,
                "nothing is stored: {}",
                reply.text
            );
        }
    });
}

/// The example contract, compiled once (every kind of interaction).
fn seed() -> Value {
    static SEED: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    SEED.get_or_init(planning_agent_contract).clone()
}

/// Every JSON node of `v` as an RFC 6901 pointer, the root first.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => m.iter().for_each(|(k, c)| {
            pointers(
                c,
                format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                out,
            )
        }),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, c)| pointers(c, format!("{at}/{i}"), out)),
        _ => {}
    }
}

fn junk() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-zA-Z_$.\\[\\]*]{0,12}".prop_map(Value::from),
        Just(json!([])),
        Just(json!({})),
        Just(json!({"match": "regex", "regex": "("})),
        Just(json!({"type": 42})),
        Just(json!({"combine": "XOR", "matchers": []})),
        Just(json!("TASK_STATE_BOGUS")),
    ]
}

/// One edit: replace a node, delete it, or add a key beside it.
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, Value),
    Delete(usize),
    Insert(usize, String, Value),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), junk()).prop_map(|(i, v)| Edit::Replace(i, v)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), "[a-zA-Z]{1,10}", junk()).prop_map(|(i, k, v)| Edit::Insert(i, k, v)),
    ];
    proptest::collection::vec(edit, 1..4)
}

fn apply(doc: &mut Value, edit: &Edit) {
    let mut all = Vec::new();
    pointers(doc, String::new(), &mut all);
    let pick = |i: &usize| all[i % all.len()].clone();
    match edit {
        Edit::Replace(i, v) => {
            if let Some(node) = doc.pointer_mut(&pick(i)) {
                *node = v.clone();
            }
        }
        Edit::Delete(i) => {
            let at = pick(i);
            if let Some((parent, key)) = at.rsplit_once('/')
                && let Some(p) = doc.pointer_mut(parent)
            {
                match p {
                    Value::Object(m) => {
                        m.remove(&key.replace("~1", "/").replace("~0", "~"));
                    }
                    Value::Array(a) => {
                        if let Ok(n) = key.parse::<usize>() {
                            a.remove(n);
                        }
                    }
                    _ => {}
                }
            }
        }
        Edit::Insert(i, k, v) => {
            if let Some(Value::Object(m)) = doc.pointer_mut(&pick(i)) {
                m.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Whether `accord verify --contract FILE` would take the stored contract:
/// the verifier's own loading (read, then refuse what it cannot run).
fn verifier_would_load(stored: &Value) -> Result<(), String> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("accord-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join(format!("stored-{n}.json"));
    std::fs::write(&file, stored.to_string()).map_err(|e| e.to_string())?;
    let provider = stored["provider"]["name"].as_str().unwrap_or("");
    let loaded = accord_verifier::load::load(
        &accord_verifier::ContractSource::Files(vec![file.clone()]),
        provider,
    );
    let _ = std::fs::remove_file(&file);
    loaded.map(|_| ()).map_err(|e| e.to_string())
}

proptest! {
    /// The pure half, many cases: `prepare` never panics, and whatever it
    /// accepts the verifier loads (256 cases; PROPTEST_CASES sets more).
    #[test]
    fn what_prepare_accepts_the_verifier_loads(edits in edits()) {
        let mut doc = seed();
        for e in &edits {
            apply(&mut doc, e);
        }
        if let Ok(prepared) = accord_broker::contract::prepare(doc) {
            prop_assert!(verifier_would_load(&prepared.document).is_ok(), "{:?}", verifier_would_load(&prepared.document));
        }
    }
}

/// The HTTP half on both backends: mutated contracts through the real
/// broker, no 5xx, and every stored pact, read back, loads in the verifier.
#[test]
fn mutated_contracts_through_the_broker_are_refused_or_runnable() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    for db in backends() {
        let app = TestApp::start(db, |_| {});
        let mut runner = TestRunner::new(Config::default());
        let (mut stored, mut refused) = (0, 0);
        for n in 0..if db == TestDb::Sqlite { 60 } else { 30 } {
            let tree = edits().new_tree(&mut runner).expect("edits");
            let mut doc = seed();
            for e in &tree.current() {
                apply(&mut doc, e);
            }
            let version = format!("fuzz-{n}");
            let body = json!({"pacticipantName": "orchestrator", "pacticipantVersionNumber": version,
                "contracts": [contract(&doc)]});
            let reply = publish(&app, &body);
            assert!(reply.status < 500, "{}: {}", reply.status, reply.text);
            if reply.status != 200 {
                refused += 1;
                continue;
            }
            stored += 1;
            let provider = doc["provider"]["name"].as_str().unwrap_or("planning-agent");
            let got = app.get(&format!(
                "/pacts/provider/{provider}/consumer/orchestrator/version/{version}"
            ));
            assert_eq!(got.status, 200, "{}", got.text);
            if let Err(why) = verifier_would_load(&got.json) {
                panic!("stored a contract the verifier refuses: {why}");
            }
        }
        println!(
            "publish fuzz on {db:?}: {stored} stored (all loadable), {refused} refused, 0 5xx"
        );
    }
}
