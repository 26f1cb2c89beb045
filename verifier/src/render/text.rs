//! Human output: a line per interaction, then a summary grouped by
//! consumer and by layer. A failing pending contract is shown as such.

use std::fmt::Write;

use crate::finding::Finding;
use crate::report::{ContractResult, InteractionResult, Outcome, VerificationReport};

/// One line for an interaction, as it completes.
pub fn interaction_line(consumer: &str, i: &InteractionResult) -> String {
    let verdict = match (i.outcome, i.pending) {
        (Outcome::Passed, _) => "PASS",
        (Outcome::Failed, false) => "FAIL",
        (Outcome::Failed, true) => "FAIL (pending)",
    };
    let extra = match i.findings.len() {
        0 => String::new(),
        1 => " — 1 finding".to_string(),
        n => format!(" — {n} findings"),
    };
    format!(
        "{verdict:<14} {consumer}: {} ({} ms){extra}",
        i.description, i.duration_ms
    )
}

/// The summary after the run.
pub fn summary(report: &VerificationReport) -> String {
    let mut out = String::new();
    let t = report.totals();
    let _ = writeln!(
        out,
        "\nVerified {} interaction(s) of provider {}: {} passed, {} failed, {} pending failure(s)",
        t.interactions, report.provider, t.passed, t.failed, t.pending_failed
    );
    for contract in &report.contracts {
        contract_summary(&mut out, contract);
    }
    let layers = report.by_layer();
    if !layers.is_empty() {
        let _ = writeln!(out, "\nBy layer:");
        for (layer, code, n) in layers {
            let _ = writeln!(out, "  {:<14} {code:<34} {n}", layer.as_str());
        }
    }
    if !report.declarations.is_empty() {
        let _ = writeln!(out, "\nDeclarations read:");
        for d in &report.declarations {
            let _ = writeln!(
                out,
                "  {} ({}, read {}): {} entries, {}",
                d.kind, d.protocol_version, d.profile, d.entries, d.digest
            );
            if let Some(etag) = &d.etag {
                let _ = writeln!(out, "    ETag {etag}");
            }
            for used in &d.used {
                let _ = writeln!(out, "    replayed on {used}");
            }
        }
    }
    let unset = report
        .interactions()
        .filter(|(_, i)| i.states_not_set_up)
        .count();
    if unset > 0 {
        let _ = writeln!(
            out,
            "\nWarning: {unset} interaction(s) have provider states, but no --state-change-url was given: their states were not set up."
        );
    }
    let verdict = if report.passed() { "PASSED" } else { "FAILED" };
    let _ = writeln!(out, "\nVerification {verdict}");
    out
}

fn contract_summary(out: &mut String, c: &ContractResult) {
    let failed = c
        .interactions
        .iter()
        .filter(|i| i.outcome == Outcome::Failed)
        .count();
    let own = c.findings.len();
    let state = match (failed, c.failed_pending()) {
        (0, _) if own > 0 => format!("{own} contract-level finding(s)"),
        (0, _) => "passed".to_string(),
        (n, true)
            if c.interactions
                .iter()
                .all(|i| i.pending || i.outcome == Outcome::Passed) =>
        {
            format!("{n} pending failure(s) — pending, does not fail the run")
        }
        (n, _) => format!("{n} failed"),
    };
    let pending = match (c.wip, c.pending) {
        (true, _) => " [WIP, pending]",
        (false, true) => " [pending]",
        (false, false) => "",
    };
    let _ = writeln!(
        out,
        "\nConsumer {}{pending} ({}): {state}",
        c.consumer, c.source
    );
    for f in &c.findings {
        let _ = writeln!(out, "  (contract) {}", finding_line(f));
    }
    for i in c
        .interactions
        .iter()
        .filter(|i| i.outcome == Outcome::Failed || !i.warnings.is_empty())
    {
        let tag = if i.pending { " (pending)" } else { "" };
        // the trace id finds the failing run in the provider's own tracing
        let trace = match &i.trace_id {
            Some(id) if i.outcome == Outcome::Failed => format!(" — trace {id}"),
            _ => String::new(),
        };
        let _ = writeln!(out, "  {}{tag}{trace}", i.description);
        for f in &i.findings {
            let _ = writeln!(out, "    {}", finding_line(f));
        }
        for w in &i.warnings {
            let _ = writeln!(out, "    warning: {}", finding_line(w));
        }
        if i.outcome == Outcome::Failed && !i.downstream.is_empty() {
            let _ = writeln!(out, "    downstream: {}", chain(&i.downstream));
        }
    }
}

/// Most downstream calls a failing interaction's chain line names.
const CHAIN_SHOWN: usize = 12;

/// What the stand-ins saw, in order: `tools meeting.search +4 ms, …`, a
/// call whose `traceparent` did not continue the trace marked.
fn chain(calls: &[crate::downstream::DownstreamEntry]) -> String {
    let mut parts: Vec<String> = calls
        .iter()
        .take(CHAIN_SHOWN)
        .map(|c| {
            let trace = if c.continues_trace {
                ""
            } else {
                " (trace not continued)"
            };
            format!("{} {} +{} ms{trace}", c.dependency, c.name, c.at_ms)
        })
        .collect();
    if calls.len() > CHAIN_SHOWN {
        parts.push(format!("… {} more", calls.len() - CHAIN_SHOWN));
    }
    parts.join(", ")
}

/// `layer CODE path: detail (expected …, actual …)`; a finding that names
/// missing or unexpected fields says so ("`priority` is missing") where
/// its detail does not already.
pub fn finding_line(f: &Finding) -> String {
    let mut line = format!(
        "{} {} {}: {}",
        f.layer.as_str(),
        f.reason_code,
        f.path,
        f.detail
    );
    if let Some(named) = f.named_keys()
        && !f.detail.contains(named.as_str())
    {
        let _ = write!(line, " — {named}");
    }
    let show = |v: &Option<crate::finding::Quote>| v.as_ref().map(|v| short(&v.to_string()));
    if let (Some(e), Some(a)) = (show(&f.expected), show(&f.actual)) {
        let _ = write!(line, " (expected {e}, actual {a})");
    }
    line
}

fn short(s: &str) -> String {
    const MAX: usize = 120;
    match s.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", s.get(..cut).unwrap_or(s)),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::finding::{Layer, codes};

    fn report(pending: bool) -> VerificationReport {
        let f = Finding::new(Layer::Schema, codes::RESPONSE_MISMATCH, "$.id", "differs")
            .values(Some(json!(1)), Some(json!("1")));
        VerificationReport {
            declarations: Vec::new(),
            provider: "items".into(),
            provider_version: None,
            contracts: vec![ContractResult {
                findings: Vec::new(),
                consumer: "web".into(),
                provider: "items".into(),
                source: "web.json".into(),
                pending,
                wip: false,
                interactions: vec![InteractionResult {
                    index: 0,
                    interaction_id: None,
                    description: "get item".into(),
                    interaction_type: "Synchronous/HTTP",
                    pending,
                    outcome: Outcome::Failed,
                    findings: vec![f],
                    warnings: Vec::new(),
                    checks: Vec::new(),
                    duration_ms: 2,
                    states_not_set_up: false,
                    trace_id: None,
                    downstream: Vec::new(),
                }],
            }],
        }
    }

    #[test]
    fn the_summary_names_consumer_layer_code_path_expected_and_actual() {
        let s = summary(&report(false));
        assert!(s.contains("Consumer web (web.json): 1 failed"), "{s}");
        assert!(
            s.contains("schema RESPONSE_MISMATCH $.id: differs (expected 1, actual \"1\")"),
            "{s}"
        );
        assert!(s.contains("RESPONSE_MISMATCH"));
        assert!(s.ends_with("Verification FAILED\n"));
    }

    #[test]
    fn a_missing_field_is_named_once_and_absent_values_are_not_printed() {
        let f = Finding::new(
            Layer::Compatibility,
            codes::BREAKING_FIELD_REMOVED,
            "mcpTools[t].result.priority",
            "the outputSchema no longer declares `$.priority`, which the consumer reads",
        )
        .keys(&["priority"], &[]);
        let line = finding_line(&f);
        assert!(line.ends_with("reads — `priority` is missing"), "{line}");
        assert!(!line.contains("expected"), "{line}");
        assert!(!line.contains("null"), "{line}");
        let said = Finding::new(
            Layer::Schema,
            codes::RESPONSE_MISMATCH,
            "$",
            "x: `priority` is missing",
        )
        .keys(&["priority"], &[]);
        assert_eq!(finding_line(&said).matches("is missing").count(), 1);
    }

    #[test]
    fn a_failed_interaction_names_its_trace_id() {
        let mut r = report(false);
        r.contracts[0].interactions[0].trace_id = Some("4bf92f3577b34da6a3ce929d0e0e4736".into());
        let s = summary(&r);
        assert!(
            s.contains("  get item — trace 4bf92f3577b34da6a3ce929d0e0e4736\n"),
            "{s}"
        );
    }

    #[test]
    fn a_failed_interaction_shows_what_its_stand_ins_saw() {
        let mut r = report(false);
        let call = |name: &str, at_ms, continues_trace| crate::downstream::DownstreamEntry {
            dependency: "tools".into(),
            kind: "mcp",
            name: name.into(),
            at_ms,
            traceparent: None,
            continues_trace,
        };
        r.contracts[0].interactions[0].downstream = vec![
            call("meeting.search", 4, true),
            call("ticket.create", 9, false),
        ];
        let s = summary(&r);
        assert!(
            s.contains(
                "    downstream: tools meeting.search +4 ms, tools ticket.create +9 ms (trace not continued)\n"
            ),
            "{s}"
        );
        r.contracts[0].interactions[0].downstream = (0..15).map(|n| call("x", n, true)).collect();
        assert!(summary(&r).contains(", … 3 more\n"));
    }

    #[test]
    fn a_failing_pending_contract_is_shown_as_pending() {
        let r = report(true);
        let s = summary(&r);
        assert!(s.contains("[pending]"), "{s}");
        assert!(
            s.contains("pending failure(s) — pending, does not fail the run"),
            "{s}"
        );
        assert!(s.ends_with("Verification PASSED\n"));
        let line = interaction_line("web", &r.contracts[0].interactions[0]);
        assert!(line.starts_with("FAIL (pending)"), "{line}");
    }
}
