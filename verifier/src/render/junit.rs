//! JUnit XML: a test suite per contract, a test case per interaction. A
//! pending failure is a `<skipped>` case whose message says so.

use std::fmt::Write;

use super::text::finding_line;
use crate::report::{Outcome, VerificationReport};

/// The report as JUnit XML.
pub fn junit(report: &VerificationReport) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    for c in &report.contracts {
        let failures = c.interactions.iter().filter(|i| i.fails_the_run()).count();
        let skipped = c
            .interactions
            .iter()
            .filter(|i| i.outcome == Outcome::Failed && i.pending)
            .count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">",
            escape(&format!("{} -> {}", c.consumer, c.provider)),
            c.interactions.len()
        );
        for i in &c.interactions {
            let seconds = i.duration_ms as f64 / 1000.0;
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{seconds:.3}\"",
                escape(&c.consumer),
                escape(&i.description)
            );
            if i.outcome == Outcome::Passed {
                out.push_str("/>\n");
                continue;
            }
            let text: Vec<String> = i.findings.iter().map(finding_line).collect();
            let codes: Vec<&str> = i.findings.iter().map(|f| f.reason_code).collect();
            let tag = if i.pending { "skipped" } else { "failure" };
            let prefix = if i.pending { "pending failure: " } else { "" };
            let _ = writeln!(
                out,
                ">\n      <{tag} message=\"{}\">{}</{tag}>\n    </testcase>",
                escape(&format!("{prefix}{}", codes.join(", "))),
                escape(&text.join("\n"))
            );
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Escapes text for XML attributes and content.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Finding, Layer, codes};
    use crate::report::{ContractResult, InteractionResult};

    #[test]
    fn failures_and_pending_failures_are_distinct_and_text_is_escaped() {
        let case = |description: &str, pending: bool| InteractionResult {
            index: 0,
            interaction_id: None,
            description: description.into(),
            interaction_type: "Synchronous/HTTP",
            pending,
            outcome: Outcome::Failed,
            findings: vec![Finding::new(
                Layer::Schema,
                codes::RESPONSE_MISMATCH,
                "$",
                "a<b",
            )],
            warnings: Vec::new(),
            checks: Vec::new(),
            duration_ms: 1500,
            states_not_set_up: false,
            trace_id: None,
            downstream: Vec::new(),
        };
        let report = VerificationReport {
            declarations: Vec::new(),
            provider: "p".into(),
            provider_version: None,
            contracts: vec![ContractResult {
                findings: Vec::new(),
                consumer: "c&d".into(),
                provider: "p".into(),
                source: "f".into(),
                pending: false,
                wip: false,
                interactions: vec![case("one", false), case("two", true)],
            }],
        };
        let xml = junit(&report);
        assert!(
            xml.contains("name=\"c&amp;d -&gt; p\" tests=\"2\" failures=\"1\" skipped=\"1\""),
            "{xml}"
        );
        assert!(xml.contains("<failure message=\"RESPONSE_MISMATCH\">schema RESPONSE_MISMATCH $: a&lt;b</failure>"), "{xml}");
        assert!(
            xml.contains("<skipped message=\"pending failure: RESPONSE_MISMATCH\">"),
            "{xml}"
        );
        assert!(xml.contains("time=\"1.500\""));
    }

    #[test]
    fn a_missing_field_is_named_in_the_failure_text() {
        let m = accord_dsl::matching::match_json(
            &serde_json::json!({"priority": "high", "ticket_id": 1}),
            &serde_json::json!({"ticket_id": 1}),
            &Default::default(),
            true,
        );
        let report = VerificationReport {
            declarations: Vec::new(),
            provider: "p".into(),
            provider_version: None,
            contracts: vec![ContractResult {
                findings: Vec::new(),
                consumer: "c".into(),
                provider: "p".into(),
                source: "f".into(),
                pending: false,
                wip: false,
                interactions: vec![InteractionResult {
                    index: 0,
                    interaction_id: None,
                    description: "get".into(),
                    interaction_type: "Synchronous/HTTP",
                    pending: false,
                    outcome: Outcome::Failed,
                    findings: vec![Finding::from_mismatch(&m[0])],
                    warnings: Vec::new(),
                    checks: Vec::new(),
                    duration_ms: 1,
                    states_not_set_up: false,
                    trace_id: None,
                    downstream: Vec::new(),
                }],
            }],
        };
        let xml = junit(&report);
        assert!(xml.contains(": `priority` is missing (expected"), "{xml}");
        assert!(!xml.contains("null"), "{xml}");
    }
}
