//! Building publish requests for the broker tests: pact documents, the
//! base64 `contracts` entries, and publishing with a status check.

use base64::Engine;
use serde_json::{Value, json};

use crate::support::{Reply, TestApp};

/// A synchronous HTTP interaction.
pub fn http(path: &str, status: u16) -> Value {
    json!({
        "description": format!("a request for {path}"),
        "providerStates": [{"name": "it exists"}],
        "request": {"method": "GET", "path": path},
        "response": {"status": status, "body": {"path": path}},
    })
}

/// A V3 pact document.
pub fn pact(consumer: &str, provider: &str, interactions: Value) -> Value {
    json!({
        "consumer": {"name": consumer},
        "provider": {"name": provider},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "3.0.0"}},
    })
}

/// One element of `contracts`.
pub fn contract(document: &Value) -> Value {
    let content = base64::engine::general_purpose::STANDARD.encode(document.to_string());
    json!({
        "consumerName": document["consumer"]["name"],
        "providerName": document["provider"]["name"],
        "specification": "pact",
        "contentType": "application/json",
        "content": content,
    })
}

/// A publish request for `version` of the documents' consumer.
pub fn request(version: &str, branch: Option<&str>, tags: &[&str], documents: &[Value]) -> Value {
    let mut body = json!({
        "pacticipantName": documents[0]["consumer"]["name"],
        "pacticipantVersionNumber": version,
        "tags": tags,
        "contracts": documents.iter().map(contract).collect::<Vec<_>>(),
    });
    if let Some(b) = branch {
        body["branch"] = json!(b);
    }
    body
}

/// POSTs a publish request.
pub fn publish(app: &TestApp, body: &Value) -> Reply {
    app.post("/contracts/publish", body)
}

/// Publishes and insists on 200.
pub fn publish_ok(
    app: &TestApp,
    version: &str,
    branch: Option<&str>,
    tags: &[&str],
    documents: &[Value],
) -> Reply {
    let reply = publish(app, &request(version, branch, tags, documents));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply
}

/// The path (without the base URL) of an href.
pub fn path_of(app: &TestApp, href: &Value) -> String {
    href.as_str()
        .expect("href is a string")
        .strip_prefix(&app.url)
        .expect("href is absolute on this broker")
        .to_owned()
}

/// examples/planning-agent.yaml compiled by the DSL.
pub fn planning_agent_contract() -> Value {
    compiled_example("planning-agent.yaml")
}

/// An example spec under `examples/` (e.g. `demo/release-orchestrator/cancel-plans.yaml`), compiled.
pub fn compiled_example(file: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(file);
    let dir = path.parent().expect("a folder").to_owned();
    let text = std::fs::read_to_string(&path).expect("example spec");
    let resolver = move |reference: &str| -> Result<Value, accord_dsl::spec::ResolveError> {
        let text = std::fs::read_to_string(dir.join(reference))?;
        Ok(serde_json::from_str(&text)?)
    };
    let contract =
        accord_dsl::spec::compile_spec(&text, file, &resolver).expect("the example compiles");
    accord_dsl::pact::to_v4_json(&contract)
}
