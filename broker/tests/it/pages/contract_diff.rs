//! The contract diff page's classes for what a consumer relies on: relying
//! on less of the Agent Card is compatible, relying on more needs
//! verification; a consumer's contract alone is never "Breaking".

use serde_json::{Value, json};

use super::contract::http;
use super::{html_page, texts};
use crate::pact_docs::{pact, publish_ok};
use crate::support::each_backend;

#[test]
fn relying_on_less_of_the_card_is_compatible_and_relying_on_more_needs_verification() {
    each_backend(|app| {
        let with_card = |skills: Value| {
            let mut doc = pact("web", "api", json!([http("get a plan", "/plans/1", 200)]));
            doc["agentCard"] = json!({ "skills": skills });
            doc["metadata"]["accord"] = json!({"a2a": "1.0"});
            doc
        };
        publish_ok(
            app,
            "1",
            None,
            &[],
            &[with_card(json!([{"id": "plan"}, {"id": "review"}]))],
        );
        publish_ok(app, "2", None, &[], &[with_card(json!([{"id": "plan"}]))]);
        let pair = "/ui/pacts/provider/api/consumer/web";
        let less = html_page(&app.get_page(&format!("{pair}/diff?from=1&to=2")), "less");
        assert_eq!(
            texts(&less, ".impacts tr.compatible .code"),
            ["AGENT_CARD_EXPECTATIONS_CHANGED"]
        );
        assert_eq!(texts(&less, ".summary .verdict"), ["Nothing new to verify"]);
        let more = html_page(&app.get_page(&format!("{pair}/diff?from=2&to=1")), "more");
        assert_eq!(
            texts(&more, ".impacts tr.conditional .code"),
            ["AGENT_CARD_EXPECTATIONS_CHANGED"]
        );
        assert_eq!(
            texts(&more, ".summary .verdict"),
            ["1 change needs verification"]
        );
    });
}

#[test]
fn an_expected_error_code_changed_is_breaking_on_the_diff_page() {
    each_backend(|app| {
        let calling = |code: i64| {
            let call = json!({"type": "MCP/ToolCall", "description": "an unknown tool",
                "tool": "nope", "error": {"code": code}});
            let mut doc = pact("web", "api", json!([call]));
            doc["metadata"] = json!({"pactSpecification": {"version": "4.0"},
                "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}});
            doc
        };
        publish_ok(app, "1", None, &[], &[calling(-32602)]);
        publish_ok(app, "2", None, &[], &[calling(-32601)]);
        let pair = "/ui/pacts/provider/api/consumer/web";
        let doc = html_page(&app.get_page(&format!("{pair}/diff?from=1&to=2")), "error");
        assert_eq!(
            texts(&doc, ".impacts tr.breaking .code"),
            ["BREAKING_ERROR_CODE_CHANGED"]
        );
        assert!(
            texts(&doc, ".impacts tr.breaking")
                .iter()
                .any(|t| t.contains("-32602")),
            "{:?}",
            texts(&doc, ".impacts tr.breaking")
        );
        assert_eq!(
            texts(&doc, ".summary .verdict"),
            ["1 change needs verification"]
        );
    });
}
