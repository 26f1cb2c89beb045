//! The contract page and the contract diff page, rendered from contracts
//! published over the API (the example planning-agent contract: HTTP,
//! A2A/Task, MCP/ToolCall and message interactions).

use scraper::{ElementRef, Html, Selector};
use serde_json::{Value, json};

use super::{attrs, html_page, texts};
use crate::pact_docs::{pact, planning_agent_contract, publish_ok};
use crate::support::{TestApp, each_backend};

const PAIR: &str = "/ui/pacts/provider/planning-agent/consumer/orchestrator";

fn sha_of(document: &Value) -> String {
    accord_broker::contract::prepare(document.clone())
        .expect("a valid contract")
        .sha
}

/// The interaction article whose heading names `description`.
fn article<'a>(doc: &'a Html, description: &str) -> ElementRef<'a> {
    let sel = Selector::parse("article.interaction").expect("selector");
    let heading = Selector::parse("h3").expect("selector");
    doc.select(&sel)
        .find(|a| {
            a.select(&heading)
                .next()
                .is_some_and(|h| h.text().collect::<String>().contains(description))
        })
        .unwrap_or_else(|| panic!("no interaction {description:?}"))
}

fn inner(el: ElementRef<'_>, selector: &str) -> Vec<String> {
    let sel = Selector::parse(selector).expect("selector");
    el.select(&sel)
        .map(|e| {
            e.text()
                .collect::<Vec<_>>()
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn publish_results(app: &TestApp, sha: &str, version: &str, success: bool) {
    let path = format!(
        "/pacts/provider/planning-agent/consumer/orchestrator/pact-version/{sha}/verification-results"
    );
    let reply = app.post(
        &path,
        &json!({"success": success, "providerApplicationVersion": version}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text);
}

#[test]
fn each_interaction_is_shown_for_what_it_is() {
    each_backend(|app| {
        let contract = planning_agent_contract();
        publish_ok(
            app,
            "1.0.0",
            Some("main"),
            &[],
            std::slice::from_ref(&contract),
        );
        let doc = html_page(&app.get_page(&format!("{PAIR}/version/1.0.0")), "contract");

        let http = article(&doc, "the plan of task 42");
        assert_eq!(inner(http, ".request-line .method"), ["GET"]);
        assert_eq!(inner(http, ".request-line .path"), ["/plans/42"]);
        assert_eq!(inner(http, ".status"), ["200"]);
        assert!(inner(http, ".states .state-name").contains(&"task 42 exists".to_owned()));

        let task = article(&doc, "create a draft plan");
        assert_eq!(
            inner(task, ".timeline .step-label"),
            [
                "TASK_STATE_SUBMITTED",
                "TASK_STATE_WORKING",
                "work-plan",
                "TASK_STATE_COMPLETED"
            ]
        );
        assert_eq!(
            inner(task, ".timeline .terminal .step-label"),
            ["TASK_STATE_COMPLETED"]
        );
        assert_eq!(
            inner(task, ".follow-ups .operation"),
            [
                "GetTask",
                "SendMessage",
                "CancelTask",
                "SubscribeToTask",
                "ListTasks"
            ]
        );
        let deadlines = inner(task, "table.fields td");
        assert!(deadlines.contains(&"1000 ms".to_owned()), "{deadlines:?}");
        assert!(
            deadlines.contains(&"+1".to_owned()),
            "side effect records +1: {deadlines:?}"
        );
        assert!(
            deadlines.contains(&"alice".to_owned()),
            "the principal: {deadlines:?}"
        );

        let probe = article(&doc, "nobody else sees my task");
        assert!(
            inner(probe, "table.fields th")
                .iter()
                .any(|t| t.starts_with("as bob"))
        );

        let call = article(&doc, "look up a plan");
        assert_eq!(inner(call, ".tool"), ["work_plan_lookup"]);
        let arguments = inner(call, "details.body pre").join(" ");
        assert!(
            arguments.contains("\"plan_id\"") && arguments.contains("tenant-a"),
            "{arguments}"
        );
        assert!(inner(call, ".declared th").contains(&"readOnlyHint".to_owned()));

        let message = article(&doc, "a plan was published");
        assert!(
            inner(message, ".request-line").is_empty(),
            "a message is not HTTP"
        );
        assert_eq!(
            inner(message, ".message-kind"),
            ["A message the provider sends (no request)"]
        );

        assert!(
            !doc.html().contains("push-token-1"),
            "the push token is hidden"
        );
        assert_eq!(texts(&doc, ".sha"), [sha_of(&contract)]);
        assert_eq!(
            attrs(&doc, "a.api", "href"),
            ["/pacts/provider/planning-agent/consumer/orchestrator/version/1.0.0"]
        );
    });
}

#[test]
fn the_digest_lists_every_version_with_that_content_and_links_its_verifications() {
    each_backend(|app| {
        let contract = planning_agent_contract();
        let sha = sha_of(&contract);
        publish_ok(
            app,
            "1.0.0",
            Some("main"),
            &[],
            std::slice::from_ref(&contract),
        );
        publish_ok(
            app,
            "1.0.1",
            Some("main"),
            &[],
            std::slice::from_ref(&contract),
        );
        let mut changed = contract.clone();
        changed["interactions"].as_array_mut().expect("array").pop();
        publish_ok(app, "2.0.0", Some("main"), &[], &[changed]);
        publish_results(app, &sha, "7.0.0", false);
        publish_results(app, &sha, "7.0.1", true);

        let doc = html_page(&app.get_page(&format!("{PAIR}/version/1.0.1")), "contract");
        assert_eq!(texts(&doc, ".same-content li strong"), ["1.0.1"]);
        assert_eq!(
            attrs(&doc, ".same-content a", "href"),
            [format!("{PAIR}/version/1.0.0")]
        );
        let results = attrs(&doc, "table.verifications a", "href");
        let base = format!("{PAIR}/pact-version/{sha}/verification-results");
        assert_eq!(
            results,
            [format!("{base}/2"), format!("{base}/1")],
            "latest first"
        );
        assert_eq!(
            texts(&doc, "table.verifications .verdict"),
            ["Passed", "Failed"]
        );
        assert_eq!(
            attrs(&doc, "a.diff-previous", "href"),
            [format!("{PAIR}/diff?from=1%2E0%2E0&to=1%2E0%2E1")]
        );

        let newest = html_page(&app.get_page(&format!("{PAIR}/version/2.0.0")), "contract");
        assert_eq!(texts(&newest, ".same-content li strong"), ["2.0.0"]);
        assert!(texts(&newest, ".same-content a").is_empty());
        assert!(texts(&newest, "table.verifications").is_empty());
    });
}

pub fn http(description: &str, path: &str, status: u16) -> Value {
    json!({"description": description, "request": {"method": "GET", "path": path},
           "response": {"status": status}})
}

#[test]
fn the_diff_names_added_removed_and_changed_interactions_and_what_breaks() {
    each_backend(|app| {
        let old = pact(
            "web",
            "api",
            json!([
                http("get a plan", "/plans/1", 200),
                http("list plans", "/plans", 200)
            ]),
        );
        let new = pact(
            "web",
            "api",
            json!([
                http("get a plan", "/plans/1", 404),
                http("delete a plan", "/plans/1", 204)
            ]),
        );
        publish_ok(app, "1", None, &[], &[old]);
        publish_ok(app, "2", None, &[], &[new]);
        let pair = "/ui/pacts/provider/api/consumer/web";
        let doc = html_page(&app.get_page(&format!("{pair}/diff?from=1&to=2")), "diff");
        assert_eq!(
            texts(&doc, "ul.added li"),
            ["Synchronous/HTTP delete a plan"]
        );
        assert_eq!(
            texts(&doc, "ul.removed li"),
            ["Synchronous/HTTP list plans"]
        );
        assert!(texts(&doc, ".paths code").contains(&"$.response.status: 200 → 404".to_owned()));
        let codes = texts(&doc, ".impacts .code");
        assert_eq!(
            codes,
            [
                "INTERACTION_ADDED",
                "INTERACTION_CHANGED",
                "INTERACTION_REMOVED"
            ]
        );
        assert_eq!(
            texts(&doc, ".impacts tr.conditional .code"),
            ["INTERACTION_ADDED", "INTERACTION_CHANGED"]
        );
        assert_eq!(
            texts(&doc, ".impacts tr.compatible .code"),
            ["INTERACTION_REMOVED"]
        );
        assert!(texts(&doc, ".impacts tr.breaking").is_empty());
        assert_eq!(
            texts(&doc, ".summary .verdict"),
            ["2 changes need verification"]
        );

        let same = html_page(&app.get_page(&format!("{pair}/diff?from=2&to=2")), "diff");
        assert_eq!(texts(&same, ".same").len(), 1);

        let form = html_page(&app.get_page(&format!("{pair}/diff?to=2")), "picker");
        assert_eq!(attrs(&form, "select#from option", "value"), ["", "2", "1"]);
        assert_eq!(attrs(&form, "select#to option[selected]", "value"), ["2"]);
        assert_eq!(attrs(&form, "label[for=from]", "for"), ["from"]);
        assert!(texts(&form, ".impacts").is_empty());
    });
}

#[test]
fn bad_names_versions_and_queries_are_4xx_pages() {
    each_backend(|app| {
        publish_ok(app, "1.0.0", None, &[], &[planning_agent_contract()]);
        let cases = [
            (format!("{PAIR}/version/9.9.9"), 404),
            (
                "/ui/pacts/provider/nobody/consumer/orchestrator/version/1.0.0".to_owned(),
                404,
            ),
            (format!("{PAIR}/diff?from=1.0.0&to=9.9.9"), 404),
            (
                "/ui/pacts/provider/nobody/consumer/orchestrator/diff".to_owned(),
                404,
            ),
            (format!("{PAIR}/diff?from=1.0.0&from=1.0.0&to=1.0.0"), 400),
            (format!("{PAIR}/version/{}", "x".repeat(3000)), 404),
        ];
        for (path, status) in cases {
            let reply = app.get_page(&path);
            assert_eq!(reply.status, status, "{path}: {}", reply.text);
            assert!(
                reply.header("content-type").starts_with("text/html"),
                "{path}"
            );
            let doc = Html::parse_document(&reply.text);
            assert_eq!(texts(&doc, "h1").len(), 1, "{path}");
        }
    });
}

/// An MCP probe says what it does (the same tool call, compared with the
/// unknown id's), not A2A operations; matching rules read as words, one
/// matcher a line; a description's code spans are `<code>`, the rest
/// escaped text.
#[test]
fn probes_rules_and_code_spans_read_as_what_they_mean() {
    each_backend(|app| {
        let mut contract = planning_agent_contract();
        for i in contract["interactions"].as_array_mut().expect("array") {
            if i["description"] == "look up a plan" {
                i["description"] = json!("look up a plan with `work_plan_lookup` <b>now</b>");
            }
        }
        publish_ok(app, "1.0.0", None, &[], &[contract]);
        let page = app.get_page(&format!("{PAIR}/version/1.0.0"));
        assert!(!page.text.contains("<b>now"), "never raw HTML");
        let doc = html_page(&page, "contract");

        let call = article(&doc, "look up a plan");
        assert_eq!(inner(call, "h3[id$='-h'] code"), ["work_plan_lookup"]);
        assert_eq!(
            inner(call, "h3[id$='-h']"),
            ["MCP/ToolCall look up a plan with work_plan_lookup <b>now</b>"]
        );
        assert!(texts(&doc, ".toc a code").contains(&"work_plan_lookup".to_owned()));
        let probe = inner(call, "table.fields tr")
            .into_iter()
            .find(|r| r.starts_with("as bob"))
            .expect("the probe's row");
        assert_eq!(
            probe,
            "as bob (tenant tenant-b) calls work_plan_lookup with the same arguments: must be answered \
             as the call with {\"plan_id\":\"plan-does-not-exist\"} (an unknown id) is"
        );
        let task = article(&doc, "nobody else sees my task");
        assert!(
            inner(task, "table.fields td")
                .iter()
                .any(|t| t.starts_with("operations GetTask, CancelTask")),
            "an A2A probe names its operations"
        );

        let matchers = texts(&doc, "table.rules td.matchers code");
        assert!(matchers.contains(&"type".to_owned()), "{matchers:?}");
        for words in [
            "regex ^(draft|ready)$",
            "type, min 1",
            "date, format yyyy-MM-dd",
            "generator Uuid",
        ] {
            assert!(
                matchers.contains(&words.to_owned()),
                "{words}: {matchers:?}"
            );
        }
        assert!(
            matchers
                .iter()
                .all(|m| !m.starts_with(['[', '{']) && !m.contains("\"match\"")),
            "{matchers:?}"
        );
    });
}
