//! The tasks, shared by the handlers; a change counter that streams and
//! blocking sends wait on; the timers that end a hold; and the SSE stream
//! of a task (its first events, then its log until it settles).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use accord_dsl::model::accord::TaskState;
use actix_web::web::{self, Bytes};
use indexmap::IndexMap;
use serde_json::{Value, json};
use tokio::sync::watch;

use super::task::{HOLD, MockTask};
use crate::Shared;
use crate::report::MockMismatch;
use crate::wire;

/// The most tasks kept (settled ones are forgotten first).
pub(crate) const MAX_TASKS: usize = 1_000;

/// The most bytes of user messages kept over all tasks (their JSON text,
/// [`MockTask::bytes`]); past it the oldest tasks are forgotten, settled
/// ones first.
pub(crate) const MAX_STORE_BYTES: usize = 64 * 1024 * 1024;

/// Which part of an interaction an operation exercised: its cancel, or
/// its follow-up at this position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Part {
    Cancel,
    FollowUp(usize),
}

/// What the handlers share about tasks.
#[derive(Debug)]
pub(crate) struct Store {
    tasks: Mutex<IndexMap<String, MockTask>>,
    changes: watch::Sender<u64>,
    /// How often each (interaction slot, part) was exercised.
    parts: Mutex<HashMap<(usize, Part), u32>>,
    courier: super::push::Courier,
}

impl Store {
    pub(crate) fn new() -> Arc<Store> {
        Arc::new(Store {
            tasks: Mutex::new(IndexMap::new()),
            changes: watch::Sender::new(0),
            parts: Mutex::new(HashMap::new()),
            courier: super::push::Courier::default(),
        })
    }

    /// Stores a new task; past [`MAX_TASKS`] (and a tenth more, so the
    /// pass is rare), the oldest settled tasks are forgotten in one pass
    /// (a consumer's test suite, or a benchmark, may create many).
    pub(crate) fn insert(&self, task: MockTask) {
        let mut tasks = self.tasks();
        let newest = task.id.clone();
        tasks.insert(task.id.clone(), task);
        if tasks.len() > MAX_TASKS + MAX_TASKS / 10 {
            let mut excess = tasks.len() - MAX_TASKS;
            tasks.retain(|_, t| {
                let forget = excess > 0 && t.settled();
                excess -= usize::from(forget);
                !forget
            });
        }
        forget_past_bytes(&mut tasks, &newest);
    }

    /// After `id` grew (a follow-up message), forgets the oldest other
    /// tasks while all hold more than [`MAX_STORE_BYTES`].
    pub(crate) fn grew(&self, id: &str) {
        forget_past_bytes(&mut self.tasks(), id);
    }

    pub(crate) fn tasks(&self) -> MutexGuard<'_, IndexMap<String, MockTask>> {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn exercised(&self, slot: usize, part: Part) {
        *self
            .parts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry((slot, part))
            .or_default() += 1;
    }

    pub(crate) fn times(&self, slot: usize, part: Part) -> u32 {
        self.parts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(slot, part))
            .copied()
            .unwrap_or(0)
    }

    pub(crate) fn reset(&self) {
        self.parts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Tells streams and waiting sends that a task changed, delivers the
    /// `events` to the task's webhooks, and arms the timer of a hold.
    pub(crate) fn changed(self: &Arc<Store>, id: &str, events: Vec<Value>) {
        let (holding, configs) = {
            let tasks = self.tasks();
            match tasks.get(id) {
                Some(t) => (t.holding().then_some(t.state), t.push.clone()),
                None => (None, Vec::new()),
            }
        };
        self.changes.send_modify(|n| *n += 1);
        if !events.is_empty() && !configs.is_empty() {
            self.courier.deliver(configs, events);
        }
        if let Some(state) = holding {
            let (store, id) = (self.clone(), id.to_owned());
            actix_web::rt::spawn(async move {
                actix_web::rt::time::sleep(HOLD).await;
                let events = match store.tasks().get_mut(&id) {
                    Some(t) if t.holding() && t.state == state => t.release(state),
                    _ => return,
                };
                store.changed(&id, events);
            });
        }
    }

    /// Waits until task `id` settled (terminal or interrupted) or is gone.
    pub(crate) async fn settled(&self, id: &str) {
        let mut rx = self.changes.subscribe();
        loop {
            if self.tasks().get(id).is_none_or(MockTask::settled) {
                return;
            }
            if rx.changed().await.is_err() {
                return;
            }
        }
    }
}

/// How long a stream waiting for its task stays silent before it sends a
/// comment line.
const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_millis(500);

/// How each event of a stream is framed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Framing {
    /// In a JSON-RPC response with this id.
    JsonRpc(Value),
    /// The bare `StreamResponse` (HTTP+JSON).
    Rest,
}

/// What a stream sends.
#[derive(Debug)]
pub(crate) struct Stream {
    /// Sent first (the task snapshot).
    pub first: Vec<Value>,
    /// The task whose log follows, from this position.
    pub follow: Option<(String, usize)>,
    /// For the report when the client goes away early: the method and path.
    pub what: (String, String),
}

struct Reader {
    store: Arc<Store>,
    shared: web::Data<Shared>,
    queue: VecDeque<Value>,
    follow: Option<(String, usize)>,
    rx: watch::Receiver<u64>,
    framing: Framing,
    what: (String, String),
    done: bool,
}

impl Drop for Reader {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let Some((id, _)) = &self.follow else {
            return;
        };
        let state = self
            .store
            .tasks()
            .get(id)
            .filter(|t| !t.settled())
            .map(|t| t.state);
        if let Some(state) = state {
            let reason =
                format!("the client closed the stream of task {id} before it ended (in {state})");
            self.shared.progress(|| {
                format!(
                    "{} {} -> stream closed by the client ({reason})",
                    self.what.0, self.what.1
                )
            });
            self.shared.unexpected(MockMismatch::RequestNotFound {
                method: self.what.0.clone(),
                path: self.what.1.clone(),
                query: None,
                reason: Some(reason),
            });
        }
    }
}

/// The SSE answer of `stream`.
pub(crate) fn respond(
    store: &Arc<Store>,
    shared: web::Data<Shared>,
    stream: Stream,
    framing: Framing,
) -> actix_web::HttpResponse {
    let reader = Reader {
        store: store.clone(),
        shared,
        queue: stream.first.into(),
        follow: stream.follow,
        rx: store.changes.subscribe(),
        framing,
        what: stream.what,
        done: false,
    };
    wire::sse_response(futures_util::stream::unfold(reader, next_frame), &[])
}

async fn next_frame(mut r: Reader) -> Option<(Bytes, Reader)> {
    loop {
        if let Some(event) = r.queue.pop_front() {
            let data = match &r.framing {
                Framing::JsonRpc(id) => wire::result(id, event),
                Framing::Rest => event,
            };
            return Some((wire::sse_frame(None, &data), r));
        }
        let Some((id, cursor)) = r.follow.clone() else {
            r.done = true;
            return None;
        };
        let (fresh, settled) = match r.store.tasks().get(&id) {
            Some(t) => (
                t.log.get(cursor..).unwrap_or_default().to_vec(),
                t.settled(),
            ),
            None => (Vec::new(), true),
        };
        if !fresh.is_empty() {
            r.follow = Some((id, cursor + fresh.len()));
            r.queue.extend(fresh);
            continue;
        }
        if settled {
            r.done = true;
            return None;
        }
        match tokio::time::timeout(KEEP_ALIVE, r.rx.changed()).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => {
                r.done = true;
                return None;
            }
            // a comment line: clients ignore it, and writing it is how a
            // client that went away is noticed while its task waits
            Err(_) => return Some((Bytes::from_static(b": keep-alive\n\n"), r)),
        }
    }
}

/// A task held in `state` is released by an operation the contract
/// expects there.
pub(crate) fn release(store: &Arc<Store>, id: &str, state: Option<TaskState>) {
    let events = match store.tasks().get_mut(id) {
        Some(t) if t.holding() && state.is_none_or(|s| s == t.state) => {
            let s = t.state;
            t.release(s)
        }
        _ => return,
    };
    store.changed(id, events);
}

/// A `{"task": …}` / bare task answer helper.
pub(crate) fn wrapped_task(task: Value) -> Value {
    json!({ "task": task })
}

/// Forgets the oldest tasks while their messages hold more than
/// [`MAX_STORE_BYTES`]: settled ones first, then any but `newest` (a
/// client that opens tasks with large messages and never lets them end
/// cannot grow the mock without end).
fn forget_past_bytes(tasks: &mut IndexMap<String, MockTask>, newest: &str) {
    let mut total: usize = tasks.values().map(|t| t.bytes).sum();
    for settled_only in [true, false] {
        if total <= MAX_STORE_BYTES {
            return;
        }
        tasks.retain(|id, t| {
            let forget = total > MAX_STORE_BYTES && id != newest && (t.settled() || !settled_only);
            if forget {
                total -= t.bytes;
            }
            !forget
        });
    }
}
