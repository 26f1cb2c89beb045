//! `accord verify`'s live output: one line per interaction as it completes
//! and, when stdout is a terminal, a progress bar kept below the lines
//! (count, failures, elapsed time). Off a terminal (CI logs, pipes) only the
//! lines are written, so logs hold no control characters. Without the
//! bar, lines are written in batches at most [`BATCH`] apart (and at the
//! end): a write per line was a system call per interaction.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use accord_verifier::render::interaction_line;
use accord_verifier::{InteractionResult, Outcome, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The longest a finished interaction's line waits to be written.
const BATCH: Duration = Duration::from_millis(100);

/// Prints each interaction's line; with a bar, above it.
#[derive(Debug)]
pub struct Live {
    bar: Option<ProgressBar>,
    failed: AtomicUsize,
    /// Lines not yet written (without a bar), since the last write.
    waiting: Mutex<(String, Instant)>,
}

impl Live {
    /// Lines only.
    pub fn lines() -> Live {
        Live {
            bar: None,
            failed: AtomicUsize::new(0),
            waiting: Mutex::new((String::new(), Instant::now())),
        }
    }

    /// Lines and a bar drawn on `target` (stdout when it is a terminal).
    pub fn with_bar(target: ProgressDrawTarget) -> Live {
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40.cyan/blue} {pos}/{len} interactions {msg} [{elapsed}]",
            )
            .expect("the template is valid")
            .progress_chars("=> "),
        );
        Live {
            bar: Some(bar),
            failed: AtomicUsize::new(0),
            waiting: Mutex::new((String::new(), Instant::now())),
        }
    }

    /// Lines on stdout, with the bar when stdout is a terminal.
    pub fn on_stdout() -> Live {
        if std::io::stdout().is_terminal() {
            Live::with_bar(ProgressDrawTarget::stdout())
        } else {
            Live::lines()
        }
    }

    /// Clears the bar (or writes the lines still waiting) before the
    /// summary is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        self.write_waiting(true);
    }

    /// Writes the waiting lines when `BATCH` has passed since the last
    /// write, or `now`.
    fn write_waiting(&self, now: bool) {
        let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        let (text, since) = &mut *waiting;
        if text.is_empty() || !(now || since.elapsed() >= BATCH) {
            return;
        }
        let mut out = std::io::stdout().lock();
        // a closed stdout (a pipe read no further) is not the run's failure
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        text.clear();
        *since = Instant::now();
    }
}

impl Progress for Live {
    fn planned(&self, interactions: usize) {
        if let Some(bar) = &self.bar {
            bar.set_length(interactions as u64);
        }
    }

    fn finished(&self, consumer: &str, result: &InteractionResult) {
        let line = interaction_line(consumer, result);
        let Some(bar) = &self.bar else {
            {
                let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
                waiting.0.push_str(&line);
                waiting.0.push('\n');
            }
            self.write_waiting(false);
            return;
        };
        bar.println(line);
        if result.outcome == Outcome::Failed {
            let failed = self.failed.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("({failed} failed)"));
        }
        bar.inc(1);
    }
}

#[cfg(test)]
mod tests {
    use indicatif::{InMemoryTerm, TermLike};

    use super::*;

    fn result(description: &str, outcome: Outcome) -> InteractionResult {
        InteractionResult {
            index: 0,
            interaction_id: None,
            description: description.into(),
            interaction_type: "Synchronous/HTTP",
            pending: false,
            outcome,
            findings: Vec::new(),
            warnings: Vec::new(),
            checks: Vec::new(),
            duration_ms: 3,
            states_not_set_up: false,
            trace_id: None,
            downstream: Vec::new(),
        }
    }

    #[test]
    fn the_bar_counts_interactions_and_failures_below_the_lines() {
        let term = InMemoryTerm::new(10, 120);
        let live = Live::with_bar(ProgressDrawTarget::term_like(Box::new(term.clone())));
        live.planned(4);
        live.finished("web", &result("get item 1", Outcome::Passed));
        live.finished("web", &result("get item 2", Outcome::Failed));
        let screen = term.contents();
        assert!(screen.contains("PASS"), "{screen}");
        assert!(screen.contains("web: get item 2 (3 ms)"), "{screen}");
        let last = screen.lines().last().unwrap_or_default();
        assert!(last.contains("2/4 interactions (1 failed)"), "{screen}");
        live.finish();
        assert!(
            !term.contents().contains("interactions"),
            "cleared: {}",
            term.contents()
        );
        assert_eq!(term.width(), 120);
    }
}
