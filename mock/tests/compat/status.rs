//! The mock's status: OK or not, the interactions expected but not
//! received, the unexpected requests, and the mismatches of the requests
//! it could not answer (their sentences are accord-dsl's matcher's, worded
//! as Pact words them).

use accord_dsl::matching::Mismatch;
use accord_mock::{MockMismatch, MockReport};
use gherkin::Step;
use regex::Captures;

use crate::steps::{StepFn, number};
use crate::world::World;

pub const STEPS: &[(&str, StepFn)] = &[
    (r"^the mock server status will (NOT )?be OK$", status_ok),
    (
        r"^the mock server status will be mismatches$",
        has_mismatches,
    ),
    (
        r"^the mock server status will be an expected but not received error for interaction \{(\d+)\}$",
        missing,
    ),
    (
        r#"^the mock server status will be an unexpected "([^"]+)" request received error for interaction \{(\d+)\}$"#,
        unexpected_interaction,
    ),
    (
        r#"^the mock server status will be an unexpected "([^"]+)" request received error for path "([^"]+)"$"#,
        unexpected_path,
    ),
    (
        r#"^the mismatches will contain a "([^"]+)" mismatch with path "([^"]+)" with error "(.*)"$"#,
        mismatch_at,
    ),
    (
        r#"^the mismatches will contain a "([^"]+)" mismatch with error "(.*)"$"#,
        mismatch_of,
    ),
];

fn lines(report: &MockReport) -> Vec<String> {
    report.mismatches.iter().map(MockMismatch::line).collect()
}

fn status_ok(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let report = w.report()?;
    let want = caps.get(1).is_none();
    if report.ok == want {
        Ok(())
    } else {
        Err(format!("expected ok={want}: {:?}", lines(&report)))
    }
}

fn has_mismatches(w: &mut World, _: &Captures, _: &Step) -> Result<(), String> {
    let report = w.report()?;
    let mismatched = report
        .mismatches
        .iter()
        .any(|m| matches!(m, MockMismatch::RequestMismatch { .. }));
    if mismatched {
        Ok(())
    } else {
        Err(format!("no request mismatch: {:?}", lines(&report)))
    }
}

fn missing(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let report = w.report()?;
    let expected = w.interaction(number(caps, 1)?)?;
    let found = report.mismatches.iter().any(|m| {
        matches!(m, MockMismatch::MissingRequest { description, method, path, .. }
            if *description == expected.meta.description
                && method.eq_ignore_ascii_case(&expected.request.method)
                && *path == expected.request.path)
    });
    if found {
        Ok(())
    } else {
        Err(format!(
            "no missing-request for {}: {:?}",
            expected.meta.description,
            lines(&report)
        ))
    }
}

/// A request-not-found with this method whose path and query are the
/// interaction's (the request the consumer made is that interaction's).
fn unexpected_interaction(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let report = w.report()?;
    let i = w.interaction(number(caps, 2)?)?;
    let found = report.mismatches.iter().any(|m| {
        matches!(m, MockMismatch::RequestNotFound { method, path, query, .. }
            if *method == caps[1] && *path == i.request.path && *query == i.request.query)
    });
    if found {
        Ok(())
    } else {
        Err(format!(
            "no request-not-found for {} {} {:?}: {:?}",
            &caps[1],
            i.request.path,
            i.request.query,
            lines(&report)
        ))
    }
}

fn unexpected_path(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let report = w.report()?;
    let found = report.mismatches.iter().any(|m| {
        matches!(m, MockMismatch::RequestNotFound { method, path, .. }
            if *method == caps[1] && *path == caps[2])
    });
    if found {
        Ok(())
    } else {
        Err(format!(
            "no request-not-found for {} {}: {:?}",
            &caps[1],
            &caps[2],
            lines(&report)
        ))
    }
}

/// Every mismatch of the requests the mock could not answer.
fn request_mismatches(report: &MockReport) -> Vec<&Mismatch> {
    report
        .mismatches
        .iter()
        .flat_map(|m| match m {
            MockMismatch::RequestMismatch { mismatches, .. } => mismatches.iter().collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// Finds a mismatch of `kind` (`body`, `query`, `header`,
/// `body-content-type`, …) at `path` (any when `None`) whose sentence
/// contains `error`, as the reference harness looks for one.
fn find(w: &World, kind: &str, path: Option<&str>, error: &str) -> Result<(), String> {
    let report = w.report()?;
    let all = request_mismatches(&report);
    let found = all.iter().any(|m| {
        m.kind.as_str() == kind && path.is_none_or(|p| m.path == p) && m.message.contains(error)
    });
    if found {
        return Ok(());
    }
    let seen: Vec<String> = all.iter().map(|m| m.to_string()).collect();
    Err(format!(
        "no {kind} mismatch{} with error {error:?}; the mismatches: {seen:#?}",
        path.map(|p| format!(" at {p}")).unwrap_or_default()
    ))
}

fn mismatch_at(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    find(w, &caps[1], Some(&caps[2]), &caps[3])
}

fn mismatch_of(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    find(w, &caps[1], None, &caps[2])
}
