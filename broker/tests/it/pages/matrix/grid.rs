//! `/ui/matrix?view=grid`: consumer versions × provider versions, each
//! verdict at its coordinates, both axes paginated saying what they hide,
//! the switch between rows and grid keeping the filters, bad input a 4xx.

use scraper::Html;
use serde_json::json;

use super::{page, rows, verify, world};
use crate::pages::{attrs, texts};
use crate::seed::Seed;
use crate::support::each_backend;

/// The grid: its provider versions (column headings) and, per consumer
/// version (row heading), the text of each cell in column order.
struct Grid {
    columns: Vec<String>,
    rows: Vec<(String, Vec<String>)>,
}

fn grid(doc: &Html) -> Grid {
    let tr = scraper::Selector::parse("table.version-grid tbody tr").expect("selector");
    let th = scraper::Selector::parse("th[scope=row] .version").expect("selector");
    let td = scraper::Selector::parse("td").expect("selector");
    let text = |e: scraper::ElementRef<'_>| e.text().collect::<Vec<_>>().join(" ");
    let words = |s: String| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let rows = doc
        .select(&tr)
        .map(|row| {
            let head = row.select(&th).map(text).next().unwrap_or_default();
            let cells = row.select(&td).map(|c| words(text(c))).collect();
            (words(head), cells)
        })
        .collect();
    Grid {
        columns: texts(doc, "table.version-grid thead th.pv .version"),
        rows,
    }
}

impl Grid {
    /// The text of the cell of consumer version `cv` (its row's heading)
    /// and provider version `pv` (its column's index).
    fn at(&self, cv: &str, pv: &str) -> &str {
        let col = self.columns.iter().position(|c| c == pv);
        let col = col.unwrap_or_else(|| panic!("no column {pv} in {:?}", self.columns));
        let (_, cells) = self.rows.iter().find(|(head, _)| head == cv).expect("row");
        &cells[col]
    }

    fn heads(&self) -> Vec<&str> {
        self.rows.iter().map(|(h, _)| h.as_str()).collect()
    }
}

#[test]
fn the_grid_puts_each_verdict_at_its_consumer_and_provider_version() {
    each_backend(|app| {
        let w = world(app);
        verify(
            app,
            &w.sha1,
            "Foo",
            json!({"success": true, "providerApplicationVersion": "57"}),
        );
        let doc = page(app, "/ui/matrix?consumer=Foo&provider=Bar&view=grid");
        let g = grid(&doc);
        assert_eq!(g.columns, ["57", "56"]);
        assert_eq!(g.heads(), ["3", "2", "1"]);
        assert_eq!(g.at("2", "57"), "failed schema temporal");
        assert_eq!(g.at("2", "56"), "not verified");
        assert_eq!(g.at("1", "57"), "passed");
        assert_eq!(g.at("1", "56"), "passed");
        assert_eq!(g.at("3", "57"), "not verified");
        assert_eq!(g.at("3", "56"), "not verified");
        // the failing cell (row 2, column 1): layer marks with their codes, a link
        let failing = "table.version-grid tbody tr:nth-child(2) td:nth-of-type(1)";
        assert_eq!(
            attrs(&doc, &format!("{failing} .layer"), "title"),
            ["schema: RESPONSE_MISMATCH", "temporal: ACK_DEADLINE_MISSED"]
        );
        assert_eq!(
            attrs(&doc, &format!("{failing} a.verdict"), "aria-label"),
            ["failed: Foo 2 with Bar 57"]
        );
        assert_eq!(
            attrs(&doc, &format!("{failing} a.verdict"), "href"),
            [format!(
                "/ui/pacts/provider/Bar/consumer/Foo/pact-version/{}/verification-results/1",
                w.sha2
            )]
        );
        assert_eq!(
            attrs(&doc, "td.empty .not-verified", "title")[0],
            "not verified: Foo 3 with Bar 57"
        );
        assert_eq!(
            attrs(&doc, "td.cell .verdict", "class"),
            ["verdict fail", "verdict pass", "verdict pass"]
        );
        // headings: every provider version a column, every consumer version a row, with labels
        assert_eq!(texts(&doc, "thead th[scope=col]").len(), 3);
        assert_eq!(texts(&doc, "tbody th[scope=row]").len(), 3);
        assert_eq!(
            texts(&doc, "thead th.pv .labels"),
            ["deployed to production"]
        );
        assert_eq!(
            texts(&doc, "tbody th[scope=row] .labels"),
            ["tag beta", "deployed to production"]
        );
        assert!(
            texts(&doc, "table.version-grid caption")[0].contains("one row per consumer version")
        );
        assert_eq!(
            texts(&doc, ".pager-status"),
            ["Showing all 3 consumer versions; all 2 provider versions"]
        );
        assert_eq!(
            attrs(&doc, "tbody th[scope=row] a.contract", "href")[0],
            "/ui/pacts/provider/Bar/consumer/Foo/version/3"
        );
        // a pending failure says so in the grid too
        let doc = page(app, "/ui/matrix?consumer=Baz&provider=Bar&view=grid");
        assert!(
            grid(&doc)
                .at("7", "57")
                .starts_with("fail (pending) The pact was pending")
        );
        assert_eq!(
            attrs(&doc, "td.cell .verdict", "class"),
            ["verdict pending"]
        );
    });
}

#[test]
fn switching_between_rows_and_grid_keeps_the_filters() {
    each_backend(|app| {
        let _w = world(app);
        let rows_url =
            "/ui/matrix?consumer=Foo&provider=Bar&environment=production&latest=true&per_page=7";
        let doc = page(app, rows_url);
        let grid_url = format!("{rows_url}&view=grid");
        assert_eq!(
            attrs(&doc, "nav.views a.view-grid", "href"),
            [grid_url.as_str()]
        );
        assert_eq!(texts(&doc, "nav.views [aria-current=page]"), ["rows"]);
        assert!(attrs(&doc, "input[name=view]", "value").is_empty());
        let doc = page(app, &grid_url);
        let g = grid(&doc);
        assert_eq!(g.columns, ["56"]);
        assert_eq!(g.heads(), ["1"]);
        assert_eq!(g.at("1", "56"), "passed");
        assert_eq!(attrs(&doc, "nav.views a.view-rows", "href"), [rows_url]);
        assert_eq!(texts(&doc, "nav.views [aria-current=page]"), ["grid"]);
        // the form keeps the grid when the filters change
        assert_eq!(attrs(&doc, "input[name=view]", "value"), ["grid"]);
        // a tag narrows both axes: Foo 2 is tagged, no tagged Bar verified it
        let doc = page(
            app,
            "/ui/matrix?consumer=Foo&provider=Bar&tag=beta&view=grid",
        );
        let g = grid(&doc);
        assert!(g.columns.is_empty());
        assert_eq!(g.heads(), ["2"]);
        assert_eq!(
            texts(&doc, ".pager-status"),
            ["Showing all 1 consumer versions; no provider versions"]
        );
        // the grid needs both sides: with one, the rows and a notice
        let doc = page(app, "/ui/matrix?consumer=Foo&view=grid");
        assert_eq!(rows(&doc).len(), 3);
        assert!(texts(&doc, "p.notice")[0].contains("needs both a consumer and a provider"));
        assert!(attrs(&doc, "nav.views a", "href").is_empty());
    });
}

#[test]
fn the_grid_pages_both_axes_and_says_what_each_hides() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let (qux, bar) = (seed.pacticipant("Qux", None), seed.pacticipant("Bar", None));
        let mut contents = Vec::new();
        for n in 1..=25 {
            let v = seed.version_of(qux, &n.to_string(), None, &[]);
            contents.push(seed.publish_content(qux, v, bar, &format!("plan {n}")));
        }
        // provider version k verified consumer version k: passed when k is even
        for (k, content) in contents.iter().enumerate().take(12) {
            let pv = seed.version_of(bar, &(k + 1).to_string(), None, &[]);
            seed.verify(*content, qux, bar, pv, (k + 1) % 2 == 0);
        }
        let base = "/ui/matrix?consumer=Qux&provider=Bar&view=grid";
        let doc = page(app, base);
        assert_eq!(
            texts(&doc, ".pager-status"),
            [
                "Showing consumer versions 1–20 of 25 (5 more on other pages); provider versions 1–10 of 12 (2 more on other pages)"
            ]
        );
        let g = grid(&doc);
        assert_eq!(g.heads().len(), 20);
        assert_eq!((g.heads()[0], g.heads()[19]), ("25", "6"));
        assert_eq!(
            g.columns.first().zip(g.columns.last()),
            Some((&"12".to_owned(), &"3".to_owned()))
        );
        assert_eq!(g.at("12", "12"), "passed");
        assert_eq!(g.at("11", "11"), "failed");
        assert_eq!(g.at("12", "11"), "not verified");
        assert_eq!(
            attrs(&doc, "a.older-rows", "href"),
            [format!("{base}&page=2")]
        );
        assert_eq!(
            attrs(&doc, "a.older-cols", "href"),
            [format!("{base}&col_page=2")]
        );
        assert!(attrs(&doc, "a.newer-rows, a.newer-cols", "href").is_empty());
        let doc = page(app, &format!("{base}&page=2&col_page=2"));
        assert_eq!(
            texts(&doc, ".pager-status"),
            [
                "Showing consumer versions 21–25 of 25 (20 more on other pages); provider versions 11–12 of 12 (10 more on other pages)"
            ]
        );
        let g = grid(&doc);
        assert_eq!(g.heads(), ["5", "4", "3", "2", "1"]);
        assert_eq!(g.columns, ["2", "1"]);
        assert_eq!(g.at("2", "2"), "passed");
        assert_eq!(g.at("1", "1"), "failed");
        assert_eq!(g.at("2", "1"), "not verified");
        assert_eq!(
            attrs(&doc, "a.newer-rows", "href"),
            [format!("{base}&col_page=2")]
        );
        assert_eq!(
            attrs(&doc, "a.newer-cols", "href"),
            [format!("{base}&page=2")]
        );
        assert!(attrs(&doc, "a.older-rows, a.older-cols", "href").is_empty());
        // the crawler reaches the grid from the rows view by a plain link
        let doc = page(app, "/ui/matrix?consumer=Qux&provider=Bar");
        assert_eq!(attrs(&doc, "a.view-grid", "href"), [base]);
    });
}

#[test]
fn bad_grid_input_is_a_4xx_page() {
    each_backend(|app| {
        let _w = world(app);
        let base = "/ui/matrix?consumer=Foo&provider=Bar&view=grid";
        for (path, status) in [
            (format!("{base}&col_page=0"), 400),
            (format!("{base}&col_page=abc"), 400),
            (format!("{base}&col_page=-3"), 400),
            (format!("{base}&col_page=99999999999999999999"), 400),
            (
                "/ui/matrix?consumer=Foo&provider=Bar&view=table".to_owned(),
                400,
            ),
            (format!("{base}&col_page=2"), 404),
            (format!("{base}&page=2"), 404),
        ] {
            let reply = app.get_page(&path);
            assert_eq!(reply.status, status, "{path}: {}", reply.text);
            assert!(
                reply.header("content-type").starts_with("text/html"),
                "{path}"
            );
            let doc = Html::parse_document(&reply.text);
            assert!(
                texts(&doc, "h1")[0].starts_with(&status.to_string()),
                "{path}"
            );
        }
    });
}
