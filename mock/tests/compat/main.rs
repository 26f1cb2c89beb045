//! The consumer half of the pact-compatibility-suite driven through the
//! mock: the scenarios of `features/V*/http_consumer.feature` that start a
//! mock server run against a real [`accord_mock::MockServer`] on loopback,
//! with a real HTTP client (reqwest) making the consumer's requests.
//!
//! Run: `cargo test -p accord-mock --test compat [-- FILTER]`. FILTER keeps
//! the scenarios whose feature path or name contains it. The closing line
//! reads `compat: N passed, M failed, K skipped`; the exit status is
//! non-zero when any scenario fails. A missing suite is reported and
//! passes, except under `CI=true` where it fails.
//!
//! Which scenarios: exactly those accord-dsl's harness skips because they
//! need the mock (its `scope.rs` is included here and decides), so no
//! scenario is counted by both and none vanishes. The message consumer
//! features need no mock (a Pact message consumer test hands the message
//! to the consumer's handler and writes the file): they run in accord-dsl's
//! harness. The suite's reading (tables, fixtures, feature files, the
//! report) is shared with that harness: the modules are included from
//! `consumer-dsl/tests/compat/`, not copied.

#[path = "../../../consumer-dsl/tests/compat/cells.rs"]
#[allow(dead_code)]
mod cells;
#[path = "../../../consumer-dsl/tests/compat/scope.rs"]
mod dsl_scope;
#[path = "../../../consumer-dsl/tests/compat/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "../../../consumer-dsl/tests/compat/parts.rs"]
#[allow(dead_code)]
mod parts;
#[path = "../../../consumer-dsl/tests/compat/report.rs"]
#[allow(dead_code)] // nothing is skipped here today
mod report;
#[path = "../../../consumer-dsl/tests/compat/suite.rs"]
#[allow(dead_code)]
mod suite;

mod pact_file;
mod status;
mod steps;
mod wire;
mod world;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;

use report::{Outcome, Report};

fn main() -> ExitCode {
    let root = match suite::locate() {
        Ok(root) => root,
        Err(why) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            eprintln!(
                "compat: FAILED — the pact-compatibility-suite is missing under CI=true: {why}"
            );
            return ExitCode::FAILURE;
        }
        Err(why) => {
            println!("compat: skipped — the pact-compatibility-suite is missing: {why}");
            println!(
                "compat: set ACCORD_CONFORMANCE_DIR to the folder holding pact-compatibility-suite/"
            );
            return ExitCode::SUCCESS;
        }
    };
    let cases = match suite::load_cases(&root) {
        Ok(cases) => cases,
        Err(why) => {
            eprintln!("compat: cannot read the suite: {why}");
            return ExitCode::FAILURE;
        }
    };
    let filter = filter_arg(std::env::args().skip(1));
    let fx = fixtures::Fixtures::new(&root);
    let client = wire::client();
    let mut report = Report::default();
    let mine = cases.iter().filter(|c| runs_here(c));
    for case in mine.filter(|c| {
        filter
            .as_deref()
            .is_none_or(|f| c.file.contains(f) || c.name.contains(f))
    }) {
        report.add(case, run_case(&fx, &client, case));
    }
    report.print();
    if report.failed() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The scenarios accord-dsl's harness hands to this one.
fn runs_here(case: &suite::Case) -> bool {
    dsl_scope::skip_reason(case).as_deref() == Some(dsl_scope::IN_MOCK_HARNESS)
}

/// The first argument that is not a libtest option (nor an option's value:
/// `cargo test` hands every test binary the same arguments).
fn filter_arg(mut args: impl Iterator<Item = String>) -> Option<String> {
    const TAKES_VALUE: &[&str] = &["--test-threads", "--skip", "--format", "--color", "-Z"];
    while let Some(arg) = args.next() {
        if TAKES_VALUE.contains(&arg.as_str()) {
            args.next();
        } else if !arg.starts_with('-') {
            return Some(arg);
        }
    }
    None
}

/// Runs one scenario's steps in order until one fails; a panic fails the
/// scenario, not the run. The world (and its mock) is dropped at the end.
fn run_case(
    fx: &fixtures::Fixtures,
    client: &reqwest::blocking::Client,
    case: &suite::Case,
) -> Outcome {
    let mut world = world::World::new(fx.clone(), client.clone(), &case.file);
    for step in &case.steps {
        let result = catch_unwind(AssertUnwindSafe(|| steps::run(&mut world, step)));
        let error = match result {
            Ok(Ok(())) => continue,
            Ok(Err(e)) => e,
            Err(panic) => format!("panicked: {}", panic_text(panic.as_ref())),
        };
        return Outcome::Failed {
            step: format!("{}{}", step.keyword, step.value),
            line: step.position.line,
            error,
        };
    }
    Outcome::Passed
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}
