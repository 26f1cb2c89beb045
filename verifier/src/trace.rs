//! W3C trace context (Trace Context Level 1) on every A2A and MCP request
//! the verifier makes: `traceparent: 00-<trace id>-<span id>-01` and
//! `tracestate: accord=<run id>`. Each interaction is one trace (a new
//! trace id, reported with its result), each request one span (a new span
//! id), so a provider team finds the run in its own tracing and the
//! stand-ins can tell whether a downstream call continues the trace.
//!
//! The interaction's trace is held in a task-local ([`within`]) rather than
//! threaded through every driver: the requests are built deep in the A2A
//! and MCP wire code, always on the interaction's own task. A request made
//! outside any interaction (a contract-level `tools/list`, the conclusion)
//! gets a trace of its own.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

tokio::task_local! {
    static CURRENT: Trace;
}

/// One interaction's trace.
#[derive(Debug, Clone)]
pub struct Trace {
    /// The run's id, sent in `tracestate` as `accord=<run id>`.
    pub run_id: Arc<str>,
    /// What the interaction's requests note, shared by every clone (one
    /// allocation per interaction).
    noted: Arc<Noted>,
}

/// What an interaction's requests note on its trace.
#[derive(Debug, Default)]
struct Noted {
    /// The trace id: 32 lower-case hex digits, never all zeros; drawn at
    /// its first use (a Pact HTTP interaction never uses it).
    id: OnceLock<String>,
    /// The ids of the tasks and contexts the interaction created (a trace
    /// id made from one of them is TRACE_ID_REUSED).
    ids: Mutex<Vec<String>>,
    /// A request carried it (a Pact HTTP interaction sends none).
    used: AtomicBool,
    /// When the interaction's cancel was acknowledged (downstream work
    /// after it is SIDE_EFFECT_AFTER_CANCEL).
    cancel_acked: Mutex<Option<std::time::Instant>>,
}

impl Trace {
    /// A new trace of the run `run_id`.
    pub fn new(run_id: Arc<str>) -> Trace {
        Trace {
            run_id,
            noted: Arc::default(),
        }
    }

    /// The trace id: 32 lower-case hex digits, never all zeros, the same
    /// for every request of the interaction.
    pub fn trace_id(&self) -> &str {
        self.noted.id.get_or_init(random_hex::<16>)
    }

    /// The `traceparent` of a new span of this trace.
    pub fn traceparent(&self) -> String {
        format!("00-{}-{}-01", self.trace_id(), random_hex::<8>())
    }

    /// Whether a request carried this trace.
    pub fn was_used(&self) -> bool {
        self.noted.used.load(Ordering::Relaxed)
    }

    /// When the interaction's cancel was acknowledged, if it was.
    pub fn cancel_acked(&self) -> Option<std::time::Instant> {
        self.noted.cancel_acked.lock().ok().and_then(|at| *at)
    }

    /// The task and context ids noted during the interaction.
    pub fn task_ids(&self) -> Vec<String> {
        self.noted
            .ids
            .lock()
            .map(|ids| ids.clone())
            .unwrap_or_default()
    }

    /// The `tracestate` every request of the run carries.
    pub fn tracestate(&self) -> String {
        format!("accord={}", self.run_id)
    }
}

/// A run id: 16 lower-case hex digits (a `tracestate` value may hold it).
pub fn new_run_id() -> String {
    random_hex::<8>()
}

/// Runs `f` with `trace` as the current interaction's trace.
pub async fn within<F: std::future::Future>(trace: Trace, f: F) -> F::Output {
    CURRENT.scope(trace, f).await
}

/// The current interaction's trace, if any.
pub fn current() -> Option<Trace> {
    CURRENT.try_with(Trace::clone).ok()
}

/// Notes that the current interaction's cancel was acknowledged now.
pub fn note_cancel_acked() {
    if let Some(trace) = current()
        && let Ok(mut at) = trace.noted.cancel_acked.lock()
    {
        at.get_or_insert_with(std::time::Instant::now);
    }
}

/// Notes the id of a task or context the current interaction created.
pub fn note_task_id(id: &str) {
    if let Some(trace) = current()
        && let Ok(mut ids) = trace.noted.ids.lock()
    {
        ids.push(id.to_owned());
    }
}

/// `builder` with `traceparent` (a new span of the current trace, or of a
/// trace of its own outside an interaction) and `tracestate`.
pub fn headers(builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    let span = span();
    builder
        .header("traceparent", span.traceparent)
        .header("tracestate", span.tracestate)
}

/// The two trace headers of one request, for a request built as a
/// [`crate::transport::Outgoing`] (which borrows its header values).
#[derive(Debug)]
pub struct Span {
    pub traceparent: String,
    pub tracestate: String,
}

impl Span {
    /// The headers as `Outgoing` lists them, in the order sent.
    pub fn headers(&self) -> [(&str, &str); 2] {
        [
            ("traceparent", self.traceparent.as_str()),
            ("tracestate", self.tracestate.as_str()),
        ]
    }
}

/// A new span of the current trace (or of a trace of its own outside an
/// interaction), the trace marked as carried by a request.
pub fn span() -> Span {
    let new = || Trace::new(Arc::from("none"));
    // the current trace is borrowed, not cloned
    let (traceparent, tracestate) = CURRENT
        .try_with(|t| {
            t.noted.used.store(true, Ordering::Relaxed);
            (t.traceparent(), t.tracestate())
        })
        .unwrap_or_else(|_| {
            let t = new();
            (t.traceparent(), t.tracestate())
        });
    Span {
        traceparent,
        tracestate,
    }
}

/// The trace id of a `traceparent` value, when it is well formed (version
/// 00, 32 + 16 hex digits, neither all zeros).
pub fn trace_id_of(traceparent: &str) -> Option<&str> {
    let mut parts = traceparent.trim().split('-');
    let (version, trace, span, flags) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let hex = |s: &str, n: usize| {
        s.len() == n
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            && s.bytes().any(|b| b != b'0')
    };
    let ok = version == "00" && parts.next().is_none() && hex(trace, 32) && hex(span, 16);
    (ok && flags.len() == 2).then_some(trace)
}

/// `N` random bytes as lower-case hex, never all zeros.
fn random_hex<const N: usize>() -> String {
    loop {
        let bytes: [u8; N] = rand::random();
        if bytes.iter().any(|b| *b != 0) {
            return hex::encode(bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceparent_continues_its_trace_with_a_new_span_each_time() {
        let t = Trace::new(Arc::from("0123456789abcdef"));
        let (a, b) = (t.traceparent(), t.traceparent());
        assert_eq!(trace_id_of(&a), Some(t.trace_id()));
        assert_eq!(trace_id_of(&b), Some(t.trace_id()));
        assert_ne!(a, b, "a new span id per request");
        assert_eq!(a.len(), 55);
        assert_eq!(t.tracestate(), "accord=0123456789abcdef");
    }

    #[test]
    fn malformed_traceparents_carry_no_trace_id() {
        for bad in [
            "",
            "00-abc-def-01",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        ] {
            assert_eq!(trace_id_of(bad), None, "{bad}");
        }
    }

    #[tokio::test]
    async fn the_current_trace_is_the_interactions_inside_and_none_outside() {
        let t = Trace::new(Arc::from("r"));
        let inside = within(t.clone(), async {
            note_task_id("task-1");
            current()
        })
        .await;
        assert_eq!(
            inside.as_ref().map(Trace::trace_id),
            Some(t.trace_id()),
            "one id, drawn once, for every clone"
        );
        assert_eq!(t.task_ids(), ["task-1"]);
        assert!(!t.was_used(), "no request carried it");
        assert!(current().is_none());
    }
}
