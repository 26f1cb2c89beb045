//! Waiting for a fast provider's answer without going to sleep.
//!
//! A verifier sends one request and waits for its answer before the next
//! (a provider state is set up before the request that needs it). When
//! the runtime has nothing else to do it sleeps in `epoll_wait`, and on an
//! idle core the wake-up when the answer lands costs as much as a loopback
//! round trip itself: against nginx on this project's 2-core machine a
//! sleeping client spends about half of each round trip waking up
//! (`verifier/bench/wire.sh`).
//!
//! [`Hot::wait`] polls the answer and, while it is pending, yields to the
//! runtime — which then polls its I/O driver without sleeping — for up to
//! [`WINDOW`]; after that it waits as usual. It spins only where it pays:
//! - when the run's threads leave a core free ([`Hot::leave_a_core`]): a
//!   provider on the same machine needs one, and spinning threads that
//!   take every core slow it down (`--jobs 4` on 2 cores: 113 -> 132 ms
//!   wall when both threads spun);
//! - while the provider's recent answers (a moving average of the time to
//!   the answer's head) came within [`WINDOW`]: a slower provider gets a
//!   plain wait, and each spin costs at most [`WINDOW`] of CPU.

use std::future::Future;
use std::pin::pin;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::Poll;
use std::time::{Duration, Instant};

/// How long a wait spins before it sleeps, and the average answer time
/// above which it does not spin at all.
pub(crate) const WINDOW: Duration = Duration::from_micros(200);

/// The spin policy of one transport (shared by its lanes).
#[derive(Debug)]
pub(crate) struct Hot {
    /// Whether spinning is allowed at all: the run's threads leave a core
    /// free (until told, one thread is assumed).
    allowed: AtomicBool,
    /// Moving average of the time from sending to the answer's head, in
    /// nanoseconds (each new time weighs 1/8).
    average_ns: AtomicU64,
}

impl Hot {
    /// The policy for one thread on this machine.
    pub(crate) fn new() -> Hot {
        let hot = Hot::allowing(false);
        hot.leave_a_core(1);
        hot
    }

    fn allowing(allowed: bool) -> Hot {
        Hot {
            allowed: AtomicBool::new(allowed),
            average_ns: AtomicU64::new(0),
        }
    }

    /// Spins only when `threads` spinning threads leave a core of this
    /// machine free.
    pub(crate) fn leave_a_core(&self, threads: usize) {
        self.allowed.store(threads < cores(), Ordering::Relaxed);
    }

    /// True when the next wait spins first.
    fn spins(&self) -> bool {
        self.allowed.load(Ordering::Relaxed)
            && self.average_ns.load(Ordering::Relaxed) < WINDOW.as_nanos() as u64
    }

    /// Awaits `answer`, spinning first where it pays, and records how long
    /// it took.
    pub(crate) async fn wait<F: Future>(&self, answer: F) -> F::Output {
        let start = Instant::now();
        let out = if self.spins() {
            spin(answer, start + WINDOW).await
        } else {
            answer.await
        };
        self.record(start.elapsed());
        out
    }

    fn record(&self, took: Duration) {
        let took = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        // lanes racing here lose a sample at worst
        let old = self.average_ns.load(Ordering::Relaxed);
        let new = old - old / 8 + took / 8;
        self.average_ns.store(new, Ordering::Relaxed);
    }
}

/// This machine's cores, read once: every transport asks (one per
/// thread of a run), and reading them takes a few system calls.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Polls `fut` and yields to the runtime while it is pending, until
/// `until`; then awaits it.
async fn spin<F: Future>(fut: F, until: Instant) -> F::Output {
    let mut fut = pin!(fut);
    loop {
        let polled = std::future::poll_fn(|cx| Poll::Ready(fut.as_mut().poll(cx))).await;
        if let Poll::Ready(out) = polled {
            return out;
        }
        if Instant::now() >= until {
            return fut.await;
        }
        tokio::task::yield_now().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;
    use std::task::Context;

    /// A future that counts its polls and is ready once `ready` is set.
    struct Counted {
        polls: Arc<AtomicUsize>,
        ready: tokio::sync::oneshot::Receiver<u8>,
    }

    impl Future for Counted {
        type Output = u8;
        fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u8> {
            self.polls.fetch_add(1, Ordering::Relaxed);
            match std::pin::Pin::new(&mut self.ready).poll(cx) {
                Poll::Ready(v) => Poll::Ready(v.unwrap_or(0)),
                Poll::Pending => Poll::Pending,
            }
        }
    }

    /// Waits for an answer sent by another thread `after` the wait's
    /// first poll (not from its start: building the runtime may take
    /// longer than `after` on a loaded machine); the answer and how often
    /// it was polled.
    fn answered_after(hot: &Hot, after: Duration) -> (u8, usize) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let polls = Arc::new(AtomicUsize::new(0));
        let seen = polls.clone();
        let sender = std::thread::spawn(move || {
            while seen.load(Ordering::Relaxed) == 0 {
                std::thread::yield_now();
            }
            std::thread::sleep(after);
            let _ = tx.send(7);
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let counted = Counted {
            polls: polls.clone(),
            ready: rx,
        };
        let out = runtime.block_on(hot.wait(counted));
        sender.join().expect("sender");
        (out, polls.load(Ordering::Relaxed))
    }

    #[test]
    fn a_fast_answer_is_polled_while_it_is_awaited() {
        let hot = Hot::allowing(true);
        let (out, polls) = answered_after(&hot, Duration::from_micros(50));
        assert_eq!(out, 7);
        // spun: polled again and again, not once and once more on its wake
        assert!(polls > 2, "polled {polls} times");
    }

    #[test]
    fn a_slow_answer_spins_at_most_the_window_then_sleeps() {
        let hot = Hot::allowing(true);
        let (out, polls) = answered_after(&hot, Duration::from_millis(50));
        assert_eq!(out, 7);
        assert!(polls > 2, "spun first: polled {polls} times");
        // the 50 ms answer moved the average past the window: no more spin
        assert!(!hot.spins());
        let (_, polls) = answered_after(&hot, Duration::from_millis(5));
        assert_eq!(polls, 2, "a plain wait: the first poll and the wake's");
    }

    #[test]
    fn threads_that_take_every_core_never_spin() {
        let hot = Hot::new();
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        hot.leave_a_core(cores);
        assert!(!hot.spins(), "{cores} threads on {cores} cores");
        if cores > 1 {
            hot.leave_a_core(cores - 1);
            assert!(hot.spins(), "{} threads on {cores} cores", cores - 1);
        }
    }

    #[test]
    fn a_wait_not_allowed_to_spin_sleeps() {
        let hot = Hot::allowing(false);
        let (out, polls) = answered_after(&hot, Duration::from_millis(5));
        assert_eq!(out, 7);
        assert_eq!(polls, 2);
    }

    #[test]
    fn the_average_follows_the_answers() {
        let hot = Hot::allowing(true);
        for _ in 0..40 {
            hot.record(Duration::from_millis(1));
        }
        assert!(!hot.spins(), "1 ms answers");
        for _ in 0..40 {
            hot.record(Duration::from_micros(20));
        }
        assert!(hot.spins(), "20 us answers again");
    }
}
