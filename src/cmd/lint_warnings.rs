//! The lint warnings of the contracts `publish` and `verify` are given, one
//! line each on standard error: a misspelt attribute (`"statsu"`) is kept
//! by Pact's robustness rule and checks nothing, so the person who wrote it
//! must hear of it where the contract is used, not only from `lint`.

use accord_dsl::Contract;
use accord_dsl::pact::{LintProblem, Severity};
use accord_verifier::ContractSource;

/// The lines for `contract`'s warnings: `warning: ORIGIN: PATH: MESSAGE (CODE)`.
pub fn lines(origin: &str, contract: &Contract) -> Vec<String> {
    lines_of(origin, &accord_dsl::pact::lint(contract))
}

/// The lines for the warnings among problems already found.
fn lines_of(origin: &str, problems: &[LintProblem]) -> Vec<String> {
    problems
        .iter()
        .filter(|p| p.severity == Severity::Warning)
        .map(|p| format!("warning: {origin}: {}: {} ({})", p.path, p.message, p.code))
        .collect()
}

/// Prints `contract`'s warnings on standard error.
pub fn print(origin: &str, contract: &Contract) {
    for line in lines(origin, contract) {
        eprintln!("{line}");
    }
}

/// Prints the warnings of every contract of `source`, and returns the
/// source with its files read (so they are read and parsed once). Files
/// that cannot be loaded print nothing here and are returned as given:
/// the verification reports why.
pub fn print_for_source(source: ContractSource, provider: &str) -> ContractSource {
    let source = match source {
        ContractSource::Files(_) => match accord_verifier::load::load(&source, provider) {
            Ok(read) => ContractSource::Loaded(read),
            Err(_) => source,
        },
        loaded => loaded,
    };
    if let ContractSource::Loaded(list) = &source {
        // linted once: the run refuses on the same problems, kept
        for sourced in list {
            for line in lines_of(&sourced.source, sourced.lint()) {
                eprintln!("{line}");
            }
        }
    }
    source
}
