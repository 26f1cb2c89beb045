//! The network graph: server-rendered SVG with a node per application and
//! an edge per integration titled by its verdict, a legend and a table of
//! the same integrations; `focus` and `q` filters; past the budget, groups
//! collapse into one node each and the page says what is hidden.

use super::home::{decoded, pact, verify};
use super::{attrs, html_page, texts};
use crate::seed::Seed;
use crate::support::each_backend;

#[test]
fn every_application_is_a_node_and_every_integration_an_edge_titled_by_its_verdict() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let (ab, _) = pact(&seed, "A", "1", "B", "ab");
        verify(&seed, ab, "A", "B", "9", false, false);
        let (cb, _) = pact(&seed, "C", "1", "B", "cb");
        verify(&seed, cb, "C", "B", "9", true, false);
        seed.version("Lonely", "1");
        let doc = html_page(&app.get_page("/ui/network"), "network");
        let mut nodes = texts(&doc, "svg.network a.node .name");
        nodes.sort();
        assert_eq!(nodes, ["A", "B", "C", "Lonely"]);
        assert_eq!(attrs(&doc, "svg.network a.node", "href").len(), 4);
        assert!(
            attrs(&doc, "svg.network a.node", "href")
                .contains(&"/ui/pacticipants/Lonely".to_owned())
        );
        let mut edges = texts(&doc, "svg.network a.edge title");
        edges.sort();
        assert_eq!(edges.len(), 2, "{edges:?}");
        assert!(edges[0].starts_with("A → B: fail"), "{edges:?}");
        assert!(edges[1].starts_with("C → B: pass"), "{edges:?}");
        assert_eq!(
            attrs(&doc, "svg.network a.edge.fail line", "stroke-dasharray"),
            ["8 4"]
        );
        assert_eq!(
            attrs(&doc, "svg.network a.edge.fail", "aria-label").len(),
            1
        );
        assert_eq!(
            texts(&doc, "ul.legend .verdict"),
            ["fail", "fail (pending)", "unverified", "pass"]
        );
        let table = texts(&doc, "main table tbody tr");
        assert_eq!(table.len(), 2);
        assert!(table[0].starts_with("A B fail"), "{table:?}");
        assert!(texts(&doc, ".collapsed-notice").is_empty());

        let focus = html_page(&app.get_page("/ui/network?focus=A"), "focus");
        let mut nodes = texts(&focus, "svg.network a.node .name");
        nodes.sort();
        assert_eq!(nodes, ["A", "B"]);
        assert_eq!(texts(&focus, "svg.network a.edge").len(), 1);
        let q = html_page(&app.get_page("/ui/network?q=c"), "q");
        let mut nodes = texts(&q, "svg.network a.node .name");
        nodes.sort();
        assert_eq!(nodes, ["B", "C"]);
    });
}

#[test]
fn past_the_budget_a_group_collapses_into_one_node_and_the_page_says_so() {
    each_backend(|app| {
        let seed = Seed::new(app);
        for hub in ["hub-a", "hub-b"] {
            for i in 0..50 {
                pact(&seed, &format!("{hub}-c{i:02}"), "1", hub, "x");
            }
        }
        pact(&seed, "X", "1", "Y", "xy");
        let doc = html_page(&app.get_page("/ui/network"), "big network");
        assert_eq!(texts(&doc, "svg.network a.node").len(), 51 + 1 + 2);
        let clusters = decoded(attrs(&doc, "svg.network a.node.cluster", "href"));
        assert_eq!(clusters, ["/ui/network?focus=hub-b"]);
        assert_eq!(
            texts(&doc, "svg.network a.node.cluster .name"),
            ["hub-b +50"]
        );
        let notice = texts(&doc, ".collapsed-notice").join(" ");
        assert!(
            notice.contains("51 applications in 1 groups are collapsed"),
            "{notice}"
        );
        assert_eq!(texts(&doc, "ul.collapsed li"), ["hub-b and 50 more"]);
        // the collapsed group's integrations are one edge to it, and all are in the table
        assert_eq!(texts(&doc, "main table tbody tr").len(), 101);
        let opened = html_page(&app.get_page("/ui/network?focus=hub-b"), "opened");
        assert_eq!(texts(&opened, "svg.network a.node").len(), 51);
        assert!(texts(&opened, ".collapsed-notice").is_empty());
    });
}

#[test]
fn bad_filters_are_4xx_pages() {
    each_backend(|app| {
        let long = "q".repeat(201);
        for (path, status) in [
            ("/ui/network?focus=Nobody".to_owned(), 404),
            (format!("/ui/network?q={long}"), 400),
            (format!("/ui/network?focus={long}"), 400),
            ("/ui/network?q=%00".to_owned(), 400),
        ] {
            let reply = app.get_page(&path);
            assert_eq!(reply.status, status, "{path}: {}", reply.text);
            assert!(reply.header("content-type").starts_with("text/html"));
        }
    });
}

/// `n` pacticipants `a-1`…`a-n` without versions, in one statement.
fn many_apps(seed: &Seed, n: u32) {
    use diesel::RunQueryDsl;
    let sql = format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) \
         INSERT INTO pacticipants (name, created_at, updated_at) \
         SELECT 'a-' || i, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM n"
    );
    seed.with(|conn| diesel::sql_query(sql).execute(conn))
        .expect("pacticipants");
}

#[test]
fn applications_past_the_first_thousands_are_found_and_lone_ones_fold_into_one_node() {
    each_backend(|app| {
        let seed = Seed::new(app);
        many_apps(&seed, 5_001);
        pact(&seed, "zz-consumer", "1", "zz-provider", "zz");
        let focus = html_page(&app.get_page("/ui/network?focus=zz-consumer"), "focus");
        let mut nodes = texts(&focus, "svg.network a.node .name");
        nodes.sort();
        assert_eq!(nodes, ["zz-consumer", "zz-provider"]);
        assert_eq!(texts(&focus, "svg.network a.edge").len(), 1);
        let q = html_page(&app.get_page("/ui/network?q=zz-prov"), "q");
        assert_eq!(texts(&q, "svg.network a.node").len(), 2);
        let one = html_page(&app.get_page("/ui/network?q=a-4321"), "one lone match");
        assert_eq!(texts(&one, "svg.network a.node .name"), ["a-4321"]);

        let all = html_page(&app.get_page("/ui/network"), "everything");
        assert_eq!(texts(&all, "svg.network a.node").len(), 3);
        assert_eq!(
            texts(&all, "svg.network a.node.lone .name"),
            ["5001 without integrations"]
        );
        let notice = texts(&all, ".lone-notice").join(" ");
        assert!(
            notice.starts_with("5001 applications without integrations are drawn as one node"),
            "{notice}"
        );
        let some = html_page(&app.get_page("/ui/network?q=a-1"), "many lone matches");
        assert_eq!(texts(&some, "svg.network a.node.lone").len(), 1);
        assert!(texts(&some, "svg.network a.node").len() <= 101);
    });
}

/// The `class` of the node named `name` in the drawing `svg`.
fn node_class(doc: &scraper::Html, svg: &str, name: &str) -> String {
    let sel = scraper::Selector::parse(&format!("svg.{svg} a.node")).expect("selector");
    doc.select(&sel)
        .find(|a| {
            a.value()
                .attr("aria-label")
                .is_some_and(|t| t.starts_with(&format!("{name}:")))
        })
        .and_then(|a| a.value().attr("class").map(str::to_owned))
        .unwrap_or_else(|| panic!("no node {name} in svg.{svg}"))
}

#[test]
fn nodes_show_their_worst_verdict_in_words_and_names_whole_in_both_drawings() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let long = "a-consumer-whose-name-is-longer-than-forty-characters";
        let (a, _) = pact(&seed, "release-orchestrator", "1", "plan-tools", "a");
        verify(
            &seed,
            a,
            "release-orchestrator",
            "plan-tools",
            "9",
            false,
            false,
        );
        let (b, _) = pact(&seed, "release-orchestrator", "1", "planning-agent", "b");
        verify(
            &seed,
            b,
            "release-orchestrator",
            "planning-agent",
            "9",
            false,
            true,
        );
        let (c, _) = pact(&seed, "ops-console", "1", "plan-tools", "c");
        verify(&seed, c, "ops-console", "plan-tools", "9", true, false);
        pact(&seed, long, "1", "planning-agent", "d");
        seed.version("Lonely", "1");
        let doc = html_page(&app.get_page("/ui/network"), "network");
        for svg in ["network", "network-phone"] {
            for (name, class) in [
                ("release-orchestrator", "fail"),
                ("plan-tools", "fail"),
                ("planning-agent", "pending"),
                ("ops-console", "pass"),
                (long, "unverified"),
                ("Lonely", "none"),
            ] {
                let got = node_class(&doc, svg, name);
                assert!(got.split(' ').any(|w| w == class), "{svg} {name}: {got}");
            }
            let names = texts(&doc, &format!("svg.{svg} a.node .name"));
            assert!(
                names.contains(&"release-orchestrator".to_owned()),
                "{names:?}"
            );
            let shortened: Vec<&String> = names.iter().filter(|n| n.contains('…')).collect();
            assert_eq!(
                shortened.len(),
                1,
                "only the long name is shortened: {names:?}"
            );
            let (head, tail) = shortened[0].split_once('…').expect("an ellipsis");
            assert!(long.starts_with(head) && long.ends_with(tail), "{names:?}");
            let titles = texts(&doc, &format!("svg.{svg} a.node title"));
            assert!(
                titles
                    .iter()
                    .any(|t| t.starts_with(&format!("{long}: unverified"))),
                "{titles:?}"
            );
            assert!(
                titles.contains(
                    &"planning-agent: fail (pending), the worst verdict of its integrations"
                        .to_owned()
                ),
                "{titles:?}"
            );
            let markers = attrs(&doc, &format!("svg.{svg} a.edge line"), "marker-end");
            assert!(
                markers
                    .iter()
                    .all(|m| m.starts_with(&format!("url(#{svg}-arrow-"))),
                "{markers:?}"
            );
        }
        assert_eq!(
            texts(&doc, "svg.network a.node .mark"),
            texts(&doc, "svg.network-phone a.node .mark")
        );
        let mut marks = texts(&doc, "svg.network a.node .mark");
        marks.sort();
        assert_eq!(marks, ["!", "?", "✓", "✗", "✗"]);
        assert_eq!(attrs(&doc, "svg.network", "viewBox").len(), 1);
        let note = texts(&doc, ".legend-note").join(" ");
        assert!(
            note.contains("! fail (pending)") && note.contains("✗ fail"),
            "{note}"
        );
    });
}
