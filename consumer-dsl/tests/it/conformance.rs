//! The pact-specification conformance cases: every file under
//! `../shared/conformance/pact-specification/*/testcases/` must agree with
//! its `match`.
//!
//! The suite lives outside the project. When it is missing the test says
//! so and passes, except under `CI=true`, where it fails.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{conformance_dir, json_files};
use accord_dsl::PactSpec;
use accord_dsl::matching::{Mismatch, match_message, match_request_for, match_response};
use accord_dsl::pact::parts::{message_from_json_at, request_from_json_at, response_from_json_at};
use serde_json::Value;

/// `version-1.1` → V1.1 and `request` from `.../version-1.1/testcases/request/...`.
fn classify(root: &Path, file: &Path) -> Option<(PactSpec, String)> {
    let rel = file.strip_prefix(root).ok()?;
    let mut parts = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    let version = parts.next()?;
    let spec = version.strip_prefix("version-")?.parse().ok()?;
    let _testcases = parts.next()?;
    Some((spec, parts.next()?))
}

/// Runs one case: `Ok(mismatches)` or `Err(why it could not run)`.
fn run_case(
    file: &Path,
    spec: PactSpec,
    kind: &str,
    case: &Value,
) -> Result<Vec<Mismatch>, String> {
    let origin = file.display().to_string();
    let (e, a) = (&case["expected"], &case["actual"]);
    let err = |e: accord_dsl::DslError| e.to_string();
    Ok(match kind {
        "request" => match_request_for(
            &request_from_json_at(e, spec, &origin, "$.expected").map_err(err)?,
            &request_from_json_at(a, spec, &origin, "$.actual").map_err(err)?,
            spec,
        ),
        "response" => match_response(
            &response_from_json_at(e, spec, &origin, "$.expected").map_err(err)?,
            &response_from_json_at(a, spec, &origin, "$.actual").map_err(err)?,
        ),
        "message" => match_message(
            &message_from_json_at(e, spec, &origin, "$.expected").map_err(err)?,
            &message_from_json_at(a, spec, &origin, "$.actual").map_err(err)?,
        ),
        other => return Err(format!("unknown case kind '{other}'")),
    })
}

#[derive(Default)]
struct Tally {
    total: usize,
    agree: usize,
}

#[test]
fn pact_specification_cases_agree_with_their_expected_outcome() {
    let Some(root) = conformance_dir("pact-specification") else {
        return;
    };
    let mut files = Vec::new();
    json_files(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no cases under {}", root.display());
    let mut by_version: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for file in &files {
        let Some((spec, kind)) = classify(&root, file) else {
            failures.push(format!("{}: cannot tell version and kind", file.display()));
            continue;
        };
        let tally = by_version.entry(spec.to_string()).or_default();
        tally.total += 1;
        let text = std::fs::read_to_string(file).expect("readable case file");
        let case: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let want = case["match"].as_bool().expect("case has a boolean 'match'");
        let comment = case["comment"].as_str().unwrap_or_default();
        match run_case(file, spec, &kind, &case) {
            Ok(mismatches) if mismatches.is_empty() == want => tally.agree += 1,
            Ok(mismatches) => {
                let listed: Vec<String> = mismatches.iter().map(|m| format!("    {m}")).collect();
                failures.push(format!(
                    "{} ({comment}): expected match={want}, got {} mismatch(es)\n{}",
                    file.display(),
                    mismatches.len(),
                    listed.join("\n")
                ));
            }
            Err(why) => failures.push(format!(
                "{} ({comment}): could not run: {why}",
                file.display()
            )),
        }
    }
    let agree: usize = by_version.values().map(|t| t.agree).sum();
    println!("conformance: {agree}/{} agree", files.len());
    for (version, t) in &by_version {
        println!("  V{version}: {}/{}", t.agree, t.total);
    }
    for f in &failures {
        println!("DISAGREE {f}");
    }
    assert!(
        failures.is_empty(),
        "{} case(s) disagree (see output)",
        failures.len()
    );
}
