//! The coverage page of a provider (`/ui/pacticipants/{p}/coverage`): the
//! same report as the API — each declared operation with its risk class,
//! verdict and the case kinds it has; every gap named — linked from the
//! pacticipant page of a provider that declares anything.

use super::{attrs, html_page, texts};
use crate::operation_coverage::{declare, publish};
use crate::support::each_backend;

const LOOKUP: &str = "  - mcp: look up\n    as: alice\n    tool: plan_lookup\n    \
    arguments: { plan_id: plan-1 }\n    expect: { structured: { status: ready } }\n    \
    comments: { tags: [incident] }\n";

#[test]
fn the_coverage_page_names_every_gap_and_is_linked_from_the_provider() {
    each_backend(|app| {
        publish(app, "planner", "1.0", "main", LOOKUP);
        declare(app, "2.0", &[]);
        let page = app.get_page("/ui/pacticipants/plan-tools");
        let doc = html_page(&page, "pacticipant page");
        let links = attrs(&doc, ".page-links a", "href");
        assert!(
            links.contains(&"/ui/pacticipants/plan-tools/coverage".to_owned()),
            "{links:?}"
        );
        let consumer = html_page(&app.get_page("/ui/pacticipants/planner"), "consumer page");
        let links = attrs(&consumer, ".page-links a", "href");
        assert!(
            !links.iter().any(|l| l.contains("coverage")),
            "it declares nothing: {links:?}"
        );

        let page = app.get_page("/ui/pacticipants/plan-tools/coverage");
        let doc = html_page(&page, "coverage page");
        assert_eq!(texts(&doc, "h1"), vec!["Coverage of plan-tools 2.0"]);
        let gaps = texts(&doc, ".gaps li");
        assert_eq!(gaps.len(), 2, "{gaps:?}");
        assert!(
            gaps[0].starts_with("COVERAGE_NO_CONTRACT tool plan_delete (destructive)"),
            "{gaps:?}"
        );
        assert!(
            gaps[1].starts_with("COVERAGE_BOUNDARY_CASE_MISSING tool plan_lookup (read-only)"),
            "{gaps:?}"
        );
        let rows = texts(&doc, "tr.operation");
        assert_eq!(rows.len(), 2);
        assert!(
            rows[1].contains("plan_lookup")
                && rows[1].contains("read-only")
                && rows[1].contains("planner")
                && rows[1].ends_with("gap"),
            "{rows:?}"
        );
        let kept = texts(&doc, "section[aria-labelledby=kept] li");
        assert_eq!(kept, vec!["planner: look up tool plan_lookup"]);
        let same = html_page(
            &app.get_page("/ui/pacticipants/plan-tools/coverage?version=2.0"),
            "by version",
        );
        assert_eq!(texts(&same, ".gaps li"), gaps);
    });
}

#[test]
fn an_unknown_provider_or_version_is_a_404_page() {
    each_backend(|app| {
        declare(app, "2.0", &[]);
        for path in [
            "/ui/pacticipants/nobody/coverage",
            "/ui/pacticipants/plan-tools/coverage?version=7",
        ] {
            let reply = app.get_page(path);
            assert_eq!(reply.status, 404, "{path}: {}", reply.text);
            assert!(
                reply.header("content-type").starts_with("text/html"),
                "{path}"
            );
        }
    });
}
