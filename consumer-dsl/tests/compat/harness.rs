//! What every compat harness does around its own step definitions (this
//! one, the verifier's provider half, the mock's consumer half): find the
//! suite (a missing one passes, except under `CI=true`), read the filter,
//! run a scenario's steps until one fails (a panic fails the scenario, not
//! the run), and end with the report's exit status.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::ExitCode;

use gherkin::Step;

use crate::report::{Outcome, Report};
use crate::suite::{self, Case};

/// The suite's root and its cases, or the exit status to end with.
pub fn cases() -> Result<(PathBuf, Vec<Case>), ExitCode> {
    let root = suite::locate().map_err(|why| missing_suite(&why))?;
    let cases = suite::load_cases(&root).map_err(|why| {
        eprintln!("compat: cannot read the suite: {why}");
        ExitCode::FAILURE
    })?;
    Ok((root, cases))
}

fn missing_suite(why: &str) -> ExitCode {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        eprintln!("compat: FAILED — the pact-compatibility-suite is missing under CI=true: {why}");
        ExitCode::FAILURE
    } else {
        println!("compat: skipped — the pact-compatibility-suite is missing: {why}");
        println!(
            "compat: set ACCORD_CONFORMANCE_DIR to the folder holding pact-compatibility-suite/"
        );
        ExitCode::SUCCESS
    }
}

/// The first argument that is not a libtest option (nor an option's value:
/// `cargo test` hands every test binary the same arguments).
pub fn filter_arg(args: impl Iterator<Item = String>) -> Option<String> {
    const TAKES_VALUE: &[&str] = &[
        "--test-threads",
        "--skip",
        "--format",
        "--color",
        "--logfile",
        "-Z",
    ];
    let mut args = args;
    while let Some(arg) = args.next() {
        if TAKES_VALUE.contains(&arg.as_str()) {
            args.next();
        } else if !arg.starts_with('-') {
            return Some(arg);
        }
    }
    None
}

/// The case passes the filter (its feature path or name contains it).
pub fn selected(case: &Case, filter: Option<&str>) -> bool {
    filter.is_none_or(|f| case.file.contains(f) || case.name.contains(f))
}

/// Runs the case's steps in order until one fails.
pub fn run_steps(case: &Case, mut run: impl FnMut(&Step) -> Result<(), String>) -> Outcome {
    for step in &case.steps {
        let result = catch_unwind(AssertUnwindSafe(|| run(step)));
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

/// A step definition of the verifier's and the mock's harnesses.
#[allow(dead_code)]
pub type StepFn<W> = fn(&mut W, &regex::Captures, &Step) -> Result<(), String>;

/// Runs `step` with the first definition whose phrase matches it.
#[allow(dead_code)]
pub fn dispatch<W>(
    steps: &[(regex::Regex, StepFn<W>)],
    world: &mut W,
    step: &Step,
) -> Result<(), String> {
    for (re, f) in steps {
        if let Some(caps) = re.captures(&step.value) {
            return f(world, &caps, step);
        }
    }
    Err(format!("no step definition for {:?}", step.value))
}

/// Prints the report; failure when any scenario failed.
pub fn finish(report: &Report) -> ExitCode {
    report.print();
    if report.failed() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
