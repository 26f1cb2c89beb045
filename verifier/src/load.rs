//! Loading the contracts of a [`ContractSource`].

use std::path::PathBuf;

use accord_dsl::pact::read_contract_parallel;

use crate::config::{ContractSource, SourcedContract};
use crate::error::VerifyError;

/// The paths with each directory replaced by its `*.json` files, sorted by
/// name (Pact's `--dir`); files are kept as given.
fn expand_directories(paths: &[PathBuf]) -> Result<Vec<PathBuf>, VerifyError> {
    let mut out = Vec::new();
    for path in paths {
        if !path.is_dir() {
            out.push(path.clone());
            continue;
        }
        let unreadable = |source| VerifyError::ReadContract {
            path: path.clone(),
            source,
        };
        let mut found = Vec::new();
        for entry in std::fs::read_dir(path).map_err(unreadable)? {
            let file = entry.map_err(unreadable)?.path();
            if file.is_file() && file.extension().is_some_and(|e| e == "json") {
                found.push(file);
            }
        }
        if found.is_empty() {
            return Err(VerifyError::EmptyDirectory(path.clone()));
        }
        found.sort();
        out.extend(found);
    }
    Ok(out)
}

/// The contracts to verify, each checked to be for `provider`.
pub fn load(source: &ContractSource, provider: &str) -> Result<Vec<SourcedContract>, VerifyError> {
    match source {
        ContractSource::Loaded(list) => checked(list.clone(), false, provider),
        ContractSource::Files(paths) => checked(read_files(paths)?, true, provider),
    }
}

/// [`load`] of a source given away: loaded contracts are kept, not copied.
pub fn load_owned(
    source: ContractSource,
    provider: &str,
) -> Result<Vec<SourcedContract>, VerifyError> {
    match source {
        ContractSource::Loaded(list) => checked(list, false, provider),
        files => load(&files, provider),
    }
}

/// The files read, each large one on every core (its interactions are
/// parsed and read in parallel, the same contract as on one thread).
fn read_files(paths: &[PathBuf]) -> Result<Vec<SourcedContract>, VerifyError> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    expand_directories(paths)?
        .iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(path).map_err(|source| VerifyError::ReadContract {
                    path: path.clone(),
                    source,
                })?;
            let origin = path.display().to_string();
            let contract = read_contract_parallel(&text, &origin, threads)?;
            Ok(SourcedContract::new(contract, origin))
        })
        .collect()
}

/// The contracts if each is for `provider` and, when they are `files`
/// the user named, each can be run.
fn checked(
    contracts: Vec<SourcedContract>,
    files: bool,
    provider: &str,
) -> Result<Vec<SourcedContract>, VerifyError> {
    for c in &contracts {
        // a file the user named is refused whole; a broker's pact is
        // reported as failed and the others still run (see `unrunnable`)
        if files {
            let problems = unrunnable(c);
            if !problems.is_empty() {
                return Err(VerifyError::Unrunnable {
                    source_name: c.source.clone(),
                    problems,
                });
            }
        }
        if c.contract.provider.name != provider {
            return Err(VerifyError::WrongProvider {
                source_name: c.source.clone(),
                expected: provider.to_string(),
                found: c.contract.provider.name.clone(),
            });
        }
    }
    Ok(contracts)
}

/// Why a verifier cannot run `c` (the rule the broker refuses contracts
/// by, `accord_dsl::pact::blocking`); empty when it can.
pub fn unrunnable(c: &SourcedContract) -> Vec<String> {
    accord_dsl::pact::blocking_among(c.lint())
        .map(ToString::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use accord_dsl::Contract;

    use super::*;

    #[test]
    fn a_contract_is_linted_once_for_its_warnings_and_its_refusal() {
        let mut contract = Contract::default();
        contract.provider.name = "items".into();
        let sourced = SourcedContract::new(contract, "test");
        let first = sourced.lint().as_ptr();
        // no name: an error, not one that keeps a verifier from running it
        assert!(!sourced.lint().is_empty());
        assert!(unrunnable(&sourced).is_empty());
        // the refusal read the kept problems, and so does a copy
        assert!(std::ptr::eq(first, sourced.lint().as_ptr()));
        assert!(std::ptr::eq(first, sourced.clone().lint().as_ptr()));
        let loaded = ContractSource::Loaded(vec![sourced]);
        let kept = load_owned(loaded, "items").expect("for items");
        assert!(std::ptr::eq(first, kept[0].lint().as_ptr()));
    }
}
