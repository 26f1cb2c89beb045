//! The provider half of the pact-compatibility-suite
//! (`features/V*/http_provider.feature`, `message_provider.feature`)
//! driven through accord-verifier against a stub provider on loopback.
//!
//! Run: `cargo test -p accord-verifier --test compat [-- FILTER]`. The
//! closing line reads `compat: N passed, M failed, K skipped`; scenarios out
//! of scope (the broker, request filters, …) are SKIPPED with the reason.
//! The suite's reading (tables, fixtures, feature files, the report) is
//! shared with accord-dsl's consumer-side harness: those modules are
//! included from `consumer-dsl/tests/compat/` rather than copied.

#[path = "../../../consumer-dsl/tests/compat/cells.rs"]
#[allow(dead_code)]
mod cells;
#[path = "../../../consumer-dsl/tests/compat/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "../../../consumer-dsl/tests/compat/harness.rs"]
mod harness;
#[path = "../../../consumer-dsl/tests/compat/parts.rs"]
#[allow(dead_code)]
mod parts;
#[path = "../../../consumer-dsl/tests/compat/report.rs"]
mod report;
#[path = "../../../consumer-dsl/tests/compat/suite.rs"]
#[allow(dead_code)]
mod suite;

mod messages;
mod scope;
mod steps;
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
    let mut report = Report::default();
    let provider_cases = cases.iter().filter(|c| scope::is_provider_feature(c));
    for case in provider_cases.filter(|c| harness::selected(c, filter.as_deref())) {
        report.add(case, run_case(&fx, case));
    }
    harness::finish(&report)
}

fn run_case(fx: &fixtures::Fixtures, case: &suite::Case) -> Outcome {
    if let Some(reason) = scope::skip_reason(case) {
        return Outcome::Skipped(reason);
    }
    let mut world = world::World::new(fx.clone());
    harness::run_steps(case, |step| steps::run(&mut world, step))
}
