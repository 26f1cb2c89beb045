//! What the run prints: one line per scenario, a table per feature file,
//! and the closing line.

use indexmap::IndexMap;

use crate::suite::Case;

/// The result of one scenario.
#[derive(Debug)]
pub enum Outcome {
    Passed,
    Failed {
        step: String,
        line: usize,
        error: String,
    },
    Skipped(String),
}

/// Counts of one feature file.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    passed: usize,
    failed: usize,
    skipped: usize,
}

/// Outcomes of the whole run.
#[derive(Debug, Default)]
pub struct Report {
    by_file: IndexMap<String, Tally>,
    failures: Vec<String>,
    /// How many scenarios were skipped for each reason.
    skip_reasons: IndexMap<String, usize>,
}

impl Report {
    /// Records and prints one scenario's outcome.
    pub fn add(&mut self, case: &Case, outcome: Outcome) {
        let tally = self.by_file.entry(case.file.clone()).or_default();
        let place = format!("{}:{} {}", case.file, case.line, case.name);
        match outcome {
            Outcome::Passed => {
                tally.passed += 1;
                println!("PASS {place}");
            }
            Outcome::Failed { step, line, error } => {
                tally.failed += 1;
                let text = format!("FAIL {place}\n     at line {line}: {step}\n     {error}");
                println!("{text}");
                self.failures.push(text);
            }
            Outcome::Skipped(reason) => {
                tally.skipped += 1;
                println!("SKIP {place} — {reason}");
                *self.skip_reasons.entry(reason).or_default() += 1;
            }
        }
    }

    pub fn failed(&self) -> usize {
        self.by_file.values().map(|t| t.failed).sum()
    }

    /// Prints the per-file table, the failures again, and the closing line.
    pub fn print(&self) {
        println!(
            "\n{:<48} {:>6} {:>6} {:>7}",
            "feature", "passed", "failed", "skipped"
        );
        for (file, t) in &self.by_file {
            println!(
                "{file:<48} {:>6} {:>6} {:>7}",
                t.passed, t.failed, t.skipped
            );
        }
        if !self.skip_reasons.is_empty() {
            println!("\nskipped (out of scope):");
            for (reason, n) in &self.skip_reasons {
                println!("{n:>5}  {reason}");
            }
        }
        if !self.failures.is_empty() {
            println!("\nfailures:");
            for f in &self.failures {
                println!("{f}");
            }
        }
        let passed: usize = self.by_file.values().map(|t| t.passed).sum();
        let skipped: usize = self.by_file.values().map(|t| t.skipped).sum();
        let failed = self.failed();
        println!(
            "\ncompat: {passed} passed, {failed} failed, {skipped} skipped ({} in scope)",
            passed + failed
        );
    }
}
