//! What the contract page leaves out: the broker's own `_id` of an
//! interaction is never an "Other attribute" of any kind of interaction,
//! while a real extra attribute still is; an MCP interaction names no A2A
//! task operation anywhere in its article; an A2A task's delegation record
//! is shown with its constraints.

use scraper::{ElementRef, Html, Selector};
use serde_json::json;

use super::html_page;
use crate::pact_docs::{planning_agent_contract, publish_ok};
use crate::support::each_backend;

const PAIR: &str = "/ui/pacts/provider/planning-agent/consumer/orchestrator";

fn select<'a>(el: ElementRef<'a>, selector: &str) -> Vec<ElementRef<'a>> {
    let sel = Selector::parse(selector).expect("selector");
    el.select(&sel).collect()
}

fn text(el: ElementRef<'_>) -> String {
    el.text().collect::<Vec<_>>().join(" ")
}

#[test]
fn no_interaction_lists_its_internal_id_and_an_mcp_one_names_no_a2a_operation() {
    each_backend(|app| {
        let mut contract = planning_agent_contract();
        for (n, i) in contract["interactions"]
            .as_array_mut()
            .expect("array")
            .iter_mut()
            .enumerate()
        {
            i["_id"] = json!(format!("5f0c{n:04x}aa55"));
            i["owner"] = json!("team-x");
        }
        publish_ok(app, "1.0.0", None, &[], &[contract]);
        let page = app.get_page(&format!("{PAIR}/version/1.0.0"));
        let doc: Html = html_page(&page, "contract");
        let root = doc.root_element();
        let articles = select(root, "article.interaction");
        assert!(articles.len() >= 4, "{}", articles.len());
        let mut with_owner = 0;
        for article in &articles {
            let names: Vec<String> = select(*article, "table.fields th")
                .into_iter()
                .map(text)
                .collect();
            assert!(!names.iter().any(|n| n == "_id"), "{names:?}");
            if names.iter().any(|n| n == "owner") {
                with_owner += 1;
            }
            let heading = select(*article, "h3")
                .first()
                .map(|h| text(*h))
                .unwrap_or_default();
            if heading.starts_with("MCP/") {
                let words = text(*article);
                for op in ["GetTask", "CancelTask", "SubscribeToTask", "ListTasks"] {
                    assert!(!words.contains(op), "{heading}: {op} in {words}");
                }
                assert!(select(*article, ".follow-ups .operation").is_empty());
            }
        }
        assert!(
            with_owner >= 2,
            "extra attributes are still listed: {with_owner}"
        );
        assert!(
            !page.text.contains("5f0c0000aa55</code>"),
            "the id is no attribute value"
        );
    });
}

/// An MCP call's expected log messages (`logs`) are shown with their level,
/// logger and data, not dropped (before, a known key the page did not render
/// vanished from it).
#[test]
fn an_mcp_call_shows_the_log_messages_it_must_send() {
    each_backend(|app| {
        let mut contract = planning_agent_contract();
        let mut with_logs = 0;
        for i in contract["interactions"]
            .as_array_mut()
            .expect("array")
            .iter_mut()
            .filter(|i| i["type"] == "MCP/ToolCall")
        {
            i["logs"] = json!([{"level": "warning", "logger": "ledger-7", "data": "quota low"}]);
            with_logs += 1;
        }
        assert!(with_logs > 0, "the example has an MCP call");
        publish_ok(app, "1.0.0", None, &[], &[contract]);
        let page = app.get_page(&format!("{PAIR}/version/1.0.0"));
        let doc: Html = html_page(&page, "contract");
        let shown: Vec<String> = select(doc.root_element(), "article.interaction")
            .into_iter()
            .map(text)
            .filter(|t| t.contains("Log messages before the answer"))
            .collect();
        assert_eq!(shown.len(), with_logs, "{}", page.text);
        for t in &shown {
            assert!(
                t.contains("ledger-7") && t.contains("quota low") && t.contains("warning"),
                "{t}"
            );
        }
    });
}

/// The example's delegating interaction shows its record under
/// "Delegation" (before, the page dropped the known key); an interaction
/// without one shows no such section.
#[test]
fn an_a2a_task_shows_what_the_agent_may_do_downstream() {
    each_backend(|app| {
        publish_ok(app, "1.0.0", None, &[], &[planning_agent_contract()]);
        let page = app.get_page(&format!("{PAIR}/version/1.0.0"));
        let doc: Html = html_page(&page, "contract");
        let articles = select(doc.root_element(), "article.interaction");
        let with: Vec<String> = articles
            .iter()
            .map(|a| text(*a))
            .filter(|t| t.contains("Delegation constraints"))
            .collect();
        assert_eq!(with.len(), 1, "{}", page.text);
        let shown = &with[0];
        assert!(
            shown.contains("draft a plan without registering tasks"),
            "{shown}"
        );
        for value in [
            "DRAFT_ONLY",
            "ticket.create",
            "meeting.search",
            "billing-agent",
            "toolCalls",
            "30000",
            "propagate",
            "notForwarded",
            "Tools that must not be called",
            "The consumer's credential",
        ] {
            assert!(shown.contains(value), "{value} in {shown}");
        }
    });
}
