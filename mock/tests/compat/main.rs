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
#[path = "../../../consumer-dsl/tests/compat/harness.rs"]
mod harness;
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

use std::process::ExitCode;

use report::{Outcome, Report};

fn main() -> ExitCode {
    let (root, cases) = match harness::cases() {
        Ok(found) => found,
        Err(code) => return code,
    };
    let filter = harness::filter_arg(std::env::args().skip(1));
    let fx = fixtures::Fixtures::new(&root);
    let client = wire::client();
    let mut report = Report::default();
    let mine = cases.iter().filter(|c| runs_here(c));
    for case in mine.filter(|c| harness::selected(c, filter.as_deref())) {
        report.add(case, run_case(&fx, &client, case));
    }
    harness::finish(&report)
}

/// The scenarios accord-dsl's harness hands to this one.
fn runs_here(case: &suite::Case) -> bool {
    dsl_scope::skip_reason(case).as_deref() == Some(dsl_scope::IN_MOCK_HARNESS)
}

/// Runs one scenario's steps; the world (and its mock) is dropped at the end.
fn run_case(
    fx: &fixtures::Fixtures,
    client: &reqwest::blocking::Client,
    case: &suite::Case,
) -> Outcome {
    let mut world = world::World::new(fx.clone(), client.clone(), &case.file);
    harness::run_steps(case, |step| steps::run(&mut world, step))
}
