use serde_json::{Value, json};

use super::*;

/// A V4 HTTP interaction numbered `i`, with a provider state, headers,
/// a JSON body and a matching rule (what the verifier bench reads).
fn http(i: usize) -> Value {
    json!({
        "type": "Synchronous/HTTP",
        "key": format!("item-{i}"),
        "description": format!("get item {i}"),
        "providerStates": [{"name": format!("item {i} exists"), "params": {"id": i}}],
        "request": {"method": "GET", "path": format!("/items/{i}")},
        "response": {
            "status": 200,
            "headers": {"Content-Type": ["application/json"]},
            "body": {"contentType": "application/json", "encoded": false,
                     "content": {"id": i, "name": format!("item {i}")}},
            "matchingRules": {"body": {"$.name": {"combine": "AND", "matchers": [{"match": "type"}]}}}
        }
    })
}

/// A document of `n` interactions and the given top-level extras.
fn document(n: usize, version: &str) -> Value {
    json!({
        "consumer": {"name": "web"},
        "provider": {"name": "items"},
        "interactions": (0..n).map(http).collect::<Vec<_>>(),
        "metadata": {"pactSpecification": {"version": version}, "tool": {"x": 1}},
        "comment": "kept in extra"
    })
}

/// Both readers give the same answer, and says whether the parallel one
/// read the document itself (`true`) or left it to `read_contract`.
fn same(text: &str) -> bool {
    let parallel = in_parallel(text, "c.json", 3);
    let slow = read_contract(text, "c.json");
    let fast = read_contract_parallel(text, "c.json", 3);
    match (&slow, &fast) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("one reader failed: {slow:?} / {fast:?}"),
    }
    if let (Some(p), Ok(a)) = (&parallel, &slow) {
        assert_eq!(p, a);
    }
    parallel.is_some()
}

#[test]
fn a_large_pact_is_read_in_parallel_and_reads_the_same() {
    for n in [400, 1001, 2048] {
        let text = document(n, "4.0").to_string();
        assert!(text.len() >= PARALLEL_FROM_BYTES, "{n} is large");
        assert!(same(&text), "{n} interactions read in parallel");
        let contract = read_contract_parallel(&text, "c.json", 2).expect("reads");
        assert_eq!(contract.interactions.len(), n);
        // order kept across the chunks
        let last = contract.interactions.last().expect("some");
        assert_eq!(last.meta().description, format!("get item {}", n - 1));
        assert_eq!(contract.extra.get("comment"), Some(&json!("kept in extra")));
    }
}

#[test]
fn older_versions_and_messages_read_the_same() {
    let mut v2 = document(200, "2.0.0");
    for i in v2["interactions"].as_array_mut().expect("array") {
        let o = i.as_object_mut().expect("object");
        o.remove("type");
        o.remove("key");
        o.insert("providerState".into(), json!("a state"));
        let response = o["response"].as_object_mut().expect("object");
        response.remove("matchingRules");
        response["body"] = response["body"]["content"].take();
    }
    assert!(same(&v2.to_string()));
    let mut v3 = document(200, "3.0.0");
    v3["messages"] = json!([{"description": "an event", "contents": {"a": 1}}]);
    assert!(same(&v3.to_string()));
    let contract = read_contract_parallel(&v3.to_string(), "c.json", 2).expect("reads");
    assert_eq!(contract.interactions.len(), 201);
    assert_eq!(contract.interactions[200].meta().description, "an event");
}

#[test]
fn a_bad_interaction_is_refused_in_the_same_words() {
    let mut doc = document(900, "4.0");
    doc["interactions"][537]["request"]["method"] = json!(7);
    let text = doc.to_string();
    assert!(!same(&text));
    let err = read_contract_parallel(&text, "c.json", 2).expect_err("refused");
    assert!(err.to_string().contains("$.interactions[537]"), "{err}");
}

#[test]
fn the_unusual_shapes_are_left_to_the_one_thread_reader() {
    // no declared version: the reader guesses it from the interactions
    let mut undeclared = document(200, "4.0");
    undeclared["metadata"] = json!({});
    assert!(!same(&undeclared.to_string()));
    // a version that cannot be read
    assert!(!same(&document(200, "nine").to_string()));
    // not an array
    let mut not_listed = document(200, "4.0");
    not_listed["messages"] = not_listed["interactions"].take();
    not_listed["interactions"] = json!({"a": 1});
    assert!(!same(&not_listed.to_string()));
    // named twice: the last one counts
    let text = document(200, "4.0").to_string();
    let twice = text.replacen(
        "\"interactions\":[",
        "\"interactions\":[],\"interactions\":[",
        1,
    );
    assert!(!same(&twice));
    assert_eq!(
        read_contract_parallel(&twice, "c.json", 2)
            .expect("reads")
            .interactions
            .len(),
        200
    );
    // not an object at all, and not JSON
    assert!(!same(&format!("[{text}]")));
    assert!(!same(&text[..text.len() - 1]));
}

/// `levels` nested arrays around `1`.
fn nested(levels: usize) -> String {
    format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
}

#[test]
fn nesting_near_the_limit_is_judged_as_the_one_thread_reader_judges_it() {
    for levels in [100, 118, 119, 124, 125, 126, 127, 130] {
        // inside an interaction (2 below the root) and in the metadata (1)
        let mut doc = document(200, "4.0");
        doc["interactions"][3]["comments"] = json!({"deep": "X"});
        let text = doc.to_string().replacen("\"X\"", &nested(levels), 1);
        let taken = same(&text);
        assert_eq!(taken, levels + 2 <= MAX_PART_DEPTH, "{levels}");
        let text = document(200, "4.0")
            .to_string()
            .replacen("{\"x\":1}", &nested(levels), 1);
        same(&text);
    }
}

#[test]
fn small_documents_and_one_thread_stay_on_the_caller() {
    let small = document(3, "4.0").to_string();
    assert!(small.len() < PARALLEL_FROM_BYTES);
    let big = document(200, "4.0").to_string();
    for (text, threads) in [(&small, 4), (&big, 1)] {
        assert_eq!(
            read_contract_parallel(text, "c.json", threads).expect("reads"),
            read_contract(text, "c.json").expect("reads")
        );
    }
}

#[test]
fn depth_skips_brackets_in_strings() {
    assert_eq!(depth(r#"{"a": "[[[{", "b": [1, {"c": "\"]]"}]}"#), 3);
    assert_eq!(depth(r#""\\" [ ]"#), 1);
    assert_eq!(depth("1"), 0);
}

/// An interaction around a specification case's expected request or
/// response, in the shape of `version`.
fn case_interaction(n: usize, kind: &str, expected: Value, version: &str) -> Value {
    let mut item = match kind {
        "request" => json!({"request": expected, "response": {"status": 200}}),
        _ => json!({"request": {"method": "GET", "path": "/"}, "response": expected}),
    };
    item["description"] = json!(format!("case {n}"));
    if version == "4.0" {
        item["type"] = json!("Synchronous/HTTP");
    }
    item
}

fn case_document(interactions: Vec<Value>, version: &str) -> String {
    json!({
        "consumer": {"name": "web"},
        "provider": {"name": "items"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": version}},
    })
    .to_string()
}

#[test]
fn the_specification_cases_read_the_same_in_parallel() {
    let Some(root) = crate::generators::tests_support::specification_dir() else {
        return;
    };
    let versions = [
        ("version-1", "1.0.0"),
        ("version-1.1", "1.1.0"),
        ("version-2", "2.0.0"),
        ("version-3", "3.0.0"),
        ("version-4", "4.0"),
    ];
    for (dir, version) in versions {
        let mut readable = Vec::new();
        let mut refused = Vec::new();
        for kind in ["request", "response"] {
            let cases = root.join(dir).join("testcases").join(kind);
            for file in crate::generators::tests_support::json_files_in(&cases) {
                let text = std::fs::read_to_string(&file).expect("readable");
                // two of version 1's cases start with a byte-order mark
                let Ok(case) = serde_json::from_str::<Value>(text.trim_start_matches('\u{feff}'))
                else {
                    continue;
                };
                let item =
                    case_interaction(readable.len(), kind, case["expected"].clone(), version);
                match read_contract(&case_document(vec![item.clone()], version), "c.json") {
                    Ok(_) => readable.push(item),
                    Err(_) => refused.push(item),
                }
            }
        }
        assert!(readable.len() >= 40, "{dir}: {} cases read", readable.len());
        let mut all = Vec::new();
        while case_document(all.clone(), version).len() < 2 * PARALLEL_FROM_BYTES {
            all.extend(readable.iter().cloned());
        }
        assert!(
            same(&case_document(all.clone(), version)),
            "{dir} read in parallel"
        );
        // one refused case in the middle: the same refusal
        if let Some(bad) = refused.first() {
            let middle = all.len() / 2;
            all.insert(middle, bad.clone());
            assert!(!same(&case_document(all, version)), "{dir} refused");
        }
    }
}

#[test]
fn an_interaction_without_expectations_reads_them_as_an_empty_object_would() {
    // read_meta skips deserialising an empty object: it must mean the default
    let at = At {
        origin: "c.json",
        path: "$",
    };
    let empty: crate::model::accord::Expectations = at.typed(json!({})).expect("reads");
    assert_eq!(empty, crate::model::accord::Expectations::default());
}

#[test]
fn a_provider_state_reads_the_same_borrowed_or_owned() {
    let at = At {
        origin: "c.json",
        path: "$.s",
    };
    for state in [
        json!({"name": "a", "params": {"id": 1, "x": [1, {"y": null}]}}),
        json!({"name": "a", "params": null}),
        json!({"name": "a"}),
        json!({"name": 7}),
        json!({"params": {}}),
        json!({"name": "a", "params": [1]}),
    ] {
        let owned: Result<crate::model::ProviderState, _> = at.typed(state.clone());
        let borrowed: Result<crate::model::ProviderState, _> = at.typed_ref(&state);
        match (owned, borrowed) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("{state}: {a:?} / {b:?}"),
        }
    }
}
