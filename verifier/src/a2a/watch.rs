//! The credential canaries (`crate::canary`) over the answers of the
//! verifier's own probes, outside a replay's watch.

use super::wire::Answer;
use crate::canary::Canaries;
use crate::driver::Exchange;
use crate::finding::Finding;

/// The credential canaries over every answer a probe gets: one finding
/// per credential leaked, at the first place it was seen.
pub struct Watch {
    canaries: Canaries,
    pub leaks: Vec<Finding>,
}

impl Watch {
    pub fn new(exchange: &Exchange<'_>) -> Self {
        Watch {
            canaries: Canaries::of_exchange(exchange),
            leaks: Vec::new(),
        }
    }

    /// Looks for the held credentials in `answer` (received at `at`).
    pub fn scan(&mut self, answer: Option<&Answer>, at: &str) {
        let Some(answer) = answer else {
            return;
        };
        let error = super::refusal::refused(answer);
        for f in self.canaries.judge(&answer.body, error, at) {
            let known = self
                .leaks
                .iter()
                .any(|l| l.reason_code == f.reason_code && l.detail == f.detail);
            if !known {
                self.leaks.push(f);
            }
        }
    }
}
