//! An interaction's teardown sent while its answer is judged.
//!
//! At one connection a verifier's wall time is its provider's round trips
//! plus whatever it computes between an answer and its next request. An
//! interaction with a provider state is setup, send, teardown: judging the
//! answer (building the contract response, matching it) sat between the
//! send's answer and the teardown's request. When nothing after the send
//! reaches the provider — no observation reads, no further repeat, no
//! stand-ins whose calls are attributed by time, no probes — the engine
//! arms a [`Release`]; the driver fires it as soon as its answer is in,
//! the teardown goes out, and the judging runs while the provider answers
//! it. What reaches the provider, and in what order, is unchanged: the
//! teardown still follows the interaction's last request.

use std::sync::atomic::{AtomicU8, Ordering};

use tokio::sync::Notify;

const PENDING: u8 = 0;
/// The driver's answer is in: the teardown may go.
const RELEASED: u8 = 1;
/// The interaction ended (judged) without a release: the teardown goes now.
const DONE: u8 = 2;
/// The interaction ended in an operational error before a release: no
/// teardown, as without a release.
const ABORTED: u8 = 3;

/// The signal between an interaction's send and its teardown.
#[derive(Debug)]
pub struct Release {
    /// Whether a driver's [`Release::release`] does anything: the engine
    /// arms it only when nothing after the send reaches the provider.
    armed: bool,
    state: AtomicU8,
    notify: Notify,
}

impl Release {
    /// A release that fires at the driver's [`Release::release`] when
    /// `armed`, else only when the interaction ends.
    pub fn new(armed: bool) -> Release {
        Release {
            armed,
            state: AtomicU8::new(PENDING),
            notify: Notify::new(),
        }
    }

    /// Called by a driver when its last request of the interaction has
    /// been answered (or failed) and nothing it does after reaches the
    /// provider. When armed, lets the teardown go and yields twice: once
    /// so the teardown hands its request to the connection, once so the
    /// connection writes it, before the caller goes on judging (on the
    /// single-threaded runtime a run uses; elsewhere it only lets the
    /// teardown go earlier).
    pub async fn release(&self) {
        if !self.armed || self.settle(RELEASED) != PENDING {
            return;
        }
        tokio::task::yield_now().await;
        tokio::task::yield_now().await;
    }

    /// The interaction ended: `ok` lets a teardown not yet released go,
    /// an error keeps it back.
    pub fn finish(&self, ok: bool) {
        self.settle(if ok { DONE } else { ABORTED });
    }

    /// Sets `to` unless already settled, wakes the teardown; returns the
    /// state before.
    fn settle(&self, to: u8) -> u8 {
        let (Ok(was) | Err(was)) =
            self.state
                .compare_exchange(PENDING, to, Ordering::AcqRel, Ordering::Acquire);
        if was == PENDING {
            self.notify.notify_one();
        }
        was
    }

    /// Waits for the release or the interaction's end: true when the
    /// teardown is to be sent.
    pub async fn wait(&self) -> bool {
        loop {
            match self.state.load(Ordering::Acquire) {
                PENDING => self.notify.notified().await,
                ABORTED => return false,
                _ => return true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    }

    #[test]
    fn an_armed_release_lets_the_waiter_run_before_the_caller_goes_on() {
        let release = Release::new(true);
        let order = std::cell::RefCell::new(Vec::new());
        runtime().block_on(async {
            let sender = async {
                order.borrow_mut().push("answer in");
                release.release().await;
                order.borrow_mut().push("judged");
                release.finish(true);
            };
            let teardown = async {
                assert!(release.wait().await);
                order.borrow_mut().push("teardown sent");
            };
            tokio::join!(sender, teardown);
        });
        assert_eq!(order.into_inner(), ["answer in", "teardown sent", "judged"]);
    }

    /// As in a run: the interaction on a task of its own, the connection
    /// a task woken by the teardown's request, which must write before
    /// the judging starts. `join!` polls its futures in turn, so both
    /// orders are tried.
    fn connection_wrote_before_judging(teardown_first: bool) -> bool {
        runtime().block_on(async move {
            let release = Arc::new(Release::new(true));
            let written = Arc::new(AtomicBool::new(false));
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            let w = written.clone();
            let connection = tokio::spawn(async move {
                let _ = rx.await;
                w.store(true, Ordering::SeqCst);
            });
            let lane = tokio::spawn(async move {
                let sender = async {
                    release.release().await;
                    let seen = written.load(Ordering::SeqCst);
                    release.finish(true);
                    seen
                };
                let teardown = async {
                    assert!(release.wait().await);
                    let _ = tx.send(());
                };
                if teardown_first {
                    tokio::join!(teardown, sender).1
                } else {
                    tokio::join!(sender, teardown).0
                }
            });
            let seen = lane.await.expect("lane");
            connection.await.expect("connection");
            seen
        })
    }

    #[test]
    fn a_task_woken_by_the_waiter_runs_before_the_caller_goes_on() {
        for teardown_first in [false, true] {
            assert!(
                connection_wrote_before_judging(teardown_first),
                "teardown polled first: {teardown_first}"
            );
        }
    }

    #[test]
    fn unarmed_the_teardown_waits_for_the_end_and_an_error_keeps_it_back() {
        for (ok, sent) in [(true, true), (false, false)] {
            let release = Release::new(false);
            let order = std::cell::RefCell::new(Vec::new());
            runtime().block_on(async {
                let sender = async {
                    release.release().await;
                    order.borrow_mut().push("judged");
                    release.finish(ok);
                };
                let teardown = async {
                    let go = release.wait().await;
                    order.borrow_mut().push(if go { "sent" } else { "kept" });
                };
                tokio::join!(sender, teardown);
            });
            let expected = ["judged", if sent { "sent" } else { "kept" }];
            assert_eq!(order.into_inner(), expected);
        }
    }

    #[test]
    fn released_then_failed_the_teardown_has_gone_already() {
        let release = Release::new(true);
        runtime().block_on(async {
            let sender = async {
                release.release().await;
                release.finish(false);
            };
            let (_, go) = tokio::join!(sender, release.wait());
            assert!(go);
        });
    }
}
