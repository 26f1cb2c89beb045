//! A paginated `tools/list`: a listing over a few pages is read whole, an
//! endless one is stopped at the listing budget with one finding.

use std::time::Instant;

use accord_fixtures::mcp::{McpProvider, ToolPages};
use accord_verifier::{ContractSource, VerificationReport, VerifyConfig, verify_blocking};

use crate::mcp::{ERAS, contract};

fn run(server: &McpProvider, era: &str) -> VerificationReport {
    let mut config = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![contract(era)]),
    );
    config.state_change_url = Some(server.state_change_url());
    config.observe_url = Some(server.observe_url());
    verify_blocking(&config).expect("no operational failure")
}

/// Every finding of the report, the contract's own and its interactions'.
fn all_codes(report: &VerificationReport) -> Vec<&'static str> {
    let own = report.contracts.iter().flat_map(|c| &c.findings);
    let calls = report
        .contracts
        .iter()
        .flat_map(|c| &c.interactions)
        .flat_map(|i| &i.findings);
    own.chain(calls).map(|f| f.reason_code).collect()
}

#[test]
fn a_listing_over_three_pages_is_read_whole_and_passes() {
    for era in ERAS {
        let server = McpProvider::start().expect("server");
        server.set_tool_pages(ToolPages::Split(3));
        let report = run(&server, era);
        assert_eq!(all_codes(&report), Vec::<&str>::new(), "{era}");
        assert!(report.passed(), "{era}");
        // alice's and bob's listings, each over three pages
        let pages = server.with_state(|s| s.calls.get("tools/list").copied());
        assert!(pages >= Some(6), "{era}: {pages:?}");
    }
}

#[test]
fn an_endless_listing_is_stopped_at_its_budget_with_one_finding() {
    for era in ERAS {
        let server = McpProvider::start().expect("server");
        server.set_tool_pages(ToolPages::Endless(300 * 1024));
        let report = run(&server, era);
        // nothing that follows from the unread rest: no missing tool, no
        // unchecked expectation per call
        assert_eq!(all_codes(&report), ["TOOL_LIST_TOO_LARGE"], "{era}");
        assert!(!report.passed(), "{era}");
        // 16 MiB of 300 KiB pages, then no more, for any profile (the
        // 2026-07-28 header probe sends one tools/list body more)
        let pages = server.with_state(|s| s.calls.get("tools/list").copied());
        assert!(pages <= Some(56), "{era}: {pages:?}");
        assert!(
            report.declarations.is_empty(),
            "an unread listing has no digest"
        );
    }
}

/// The peak resident set of this process so far (`VmHWM`), in MiB.
fn peak_rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Not a test: the verifier against a server whose `tools/list` never
/// ends, pages of `ACCORD_PAGE_BYTES` (default 6.5 MB) in the era
/// `ACCORD_ERA` (default 2025-11-25: SSE replies). Prints the wall time,
/// the peak RSS and the findings; run it alone under `/usr/bin/time -v`.
#[test]
#[ignore = "a measurement, run by hand"]
fn measure_an_endless_listing() {
    let bytes = std::env::var("ACCORD_PAGE_BYTES")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(6_500_000);
    let era = std::env::var("ACCORD_ERA").unwrap_or_else(|_| "2025-11-25".into());
    let server = McpProvider::start().expect("server");
    server.set_tool_pages(ToolPages::Endless(bytes));
    let start = Instant::now();
    let report = run(&server, &era);
    let pages = server.with_state(|s| s.calls.get("tools/list").copied());
    println!(
        "era {era}, pages of {bytes} bytes: {:?} tools/list requests, {:.1} s, peak RSS {:?} MiB, findings {:?}",
        pages,
        start.elapsed().as_secs_f64(),
        peak_rss_mib(),
        all_codes(&report)
    );
}
