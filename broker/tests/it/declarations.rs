//! What a provider version declares: its Agent Card and its MCP tools per
//! profile, by the digest a verification records, with their history.

use serde_json::{Value, json};

use crate::support::{TestApp, each_backend};

const V: &str = "/pacticipants/p/versions/3.4/declarations";

fn card(skills: &[&str]) -> Value {
    json!({
        "name": "p", "description": "A provider", "version": "3.4", "capabilities": {"streaming": true},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "supportedInterfaces": [{"url": "http://127.0.0.1:9/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "skills": skills.iter().map(|id| json!({"id": id, "name": id, "description": "d", "tags": []})).collect::<Vec<_>>()
    })
}

fn tool(name: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}})
}

fn raw(app: &TestApp, path: &str, body: &str) -> crate::support::Reply {
    app.send(
        app.client()
            .put(format!("{}{path}", app.url))
            .header("Content-Type", "application/json")
            .body(body.to_owned()),
    )
}

#[test]
fn a_card_is_stored_by_the_digest_a_verification_records_and_linked_from_the_version() {
    each_backend(|app| {
        let put = app.put(&format!("{V}/agent-card"), &card(&["quote"]));
        assert_eq!(put.status, 201, "{}", put.text);
        let digest = accord_verifier::a2a::card::card_digest(&card(&["quote"]));
        assert_eq!(put.json["digest"], json!(digest));
        assert_eq!(put.json["entries"], 1);
        let again = app.put(&format!("{V}/agent-card"), &card(&["quote"]));
        assert_eq!(again.status, 200, "the same digest again changes nothing");
        let got = app.get(&format!("{V}/agent-card"));
        assert_eq!(got.status, 200);
        assert_eq!(got.json["content"], card(&["quote"]));
        let version = app.get("/pacticipants/p/versions/3.4");
        let link = version.json["_links"]["pb:declarations"]["href"]
            .as_str()
            .unwrap_or("");
        assert!(link.ends_with(V), "{link}");
    });
}

#[test]
fn tools_per_profile_are_normalised_and_a_redeclaration_keeps_the_old_content_addressable() {
    each_backend(|app| {
        let first = app.put(
            &format!("{V}/mcp-tools/alice"),
            &json!({"tools": [tool("b"), tool("a")]}),
        );
        assert_eq!(first.status, 201, "{}", first.text);
        let expected = accord_verifier::mcp::listing::digest_of(&[tool("a"), tool("b")]);
        assert_eq!(
            first.json["digest"],
            json!(expected),
            "tool order does not change the digest"
        );
        assert_eq!(first.json["profile"], "alice");
        let same = app.put(
            &format!("{V}/mcp-tools/alice"),
            &json!({"tools": [tool("a"), tool("b")]}),
        );
        assert_eq!(same.status, 200);
        let changed = app.put(
            &format!("{V}/mcp-tools/alice"),
            &json!({"tools": [tool("a")]}),
        );
        assert_eq!(changed.status, 201);
        assert_eq!(
            app.put(&format!("{V}/mcp-tools/bob"), &json!({"tools": []}))
                .status,
            201
        );

        let list = app.get(V);
        assert_eq!(list.status, 200);
        let current: Vec<(&str, &str)> = list.json["declarations"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| {
                (
                    d["profile"].as_str().unwrap_or(""),
                    d["digest"].as_str().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(
            current,
            [
                ("alice", changed.json["digest"].as_str().unwrap_or("?")),
                ("bob", current[1].1)
            ]
        );
        assert_eq!(
            list.json["history"].as_array().map(Vec::len),
            Some(3),
            "{}",
            list.text
        );

        let hex = expected.trim_start_matches("sha256:");
        let old = app.get(&format!("/declaration-contents/{hex}"));
        assert_eq!(old.status, 200, "{}", old.text);
        assert_eq!(
            old.json["content"]["tools"].as_array().map(Vec::len),
            Some(2)
        );
        assert_eq!(
            app.get(&format!("/declaration-contents/{}", "0".repeat(64)))
                .status,
            404
        );
        assert_eq!(app.get(&format!("{V}/mcp-tools/nobody")).status, 404);
    });
}

fn refused(app: &TestApp, reply: &crate::support::Reply, field: &str) {
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(
        reply.content_type.contains("json"),
        "{}",
        reply.content_type
    );
    assert!(
        reply.json["errors"][field].is_array(),
        "{field} not named: {}",
        reply.text
    );
    assert_eq!(
        app.get(V).status,
        404,
        "a refused declaration stores nothing (not even the version)"
    );
}

#[test]
fn what_is_not_a_card_or_a_tool_list_is_refused_naming_the_path_and_nothing_is_stored() {
    each_backend(|app| {
        refused(app, &raw(app, &format!("{V}/agent-card"), "nope"), "$");
        refused(
            app,
            &app.put(&format!("{V}/agent-card"), &json!([1, 2])),
            "$",
        );
        let mut no_skills = card(&[]);
        no_skills["skills"] = json!("quote");
        refused(
            app,
            &app.put(&format!("{V}/agent-card"), &no_skills),
            "$.skills",
        );
        refused(
            app,
            &app.put(&format!("{V}/agent-card"), &card(&["a", "a"])),
            "$.skills",
        );
        let tools = format!("{V}/mcp-tools/alice");
        refused(
            app,
            &app.put(&tools, &json!({"tools": [{"name": "x"}]})),
            "$.tools[0].inputSchema",
        );
        refused(
            app,
            &app.put(&tools, &json!({"tools": [tool("a")], "nextCursor": "2"})),
            "$.nextCursor",
        );
        refused(app, &app.put(&tools, &json!("tools")), "$");
        let long = "x".repeat(200);
        refused(
            app,
            &app.put(&format!("{V}/mcp-tools/{long}"), &json!({"tools": []})),
            "profile",
        );
        refused(
            app,
            &app.put(&format!("{V}/mcp-tools/%20"), &json!({"tools": []})),
            "profile",
        );
    });
}
