//! A2A event streams (`SendStreamingMessage`, `SubscribeToTask`): Server-Sent
//! Events read one at a time as they arrive, so the replay can act while a
//! task runs (cancel it once WORKING, send the input it asks for), with
//! the SSE framing parsed by `eventsource-stream`.
//!
//! An answer that is not `text/event-stream` is a unary answer (A2A sends
//! an error before the first event as a normal response). Each frame is a
//! JSON-RPC response with the request's id (JSON-RPC) or a bare
//! `StreamResponse` (HTTP+JSON); `event: error` frames carry a mid-stream
//! error. The stream's bytes count against the response size cap.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use accord_dsl::model::accord::A2aOperation;
use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures_util::{Stream, StreamExt};
use serde_json::{Map, Value};

use super::wire::{A2aError, Answer, Binding, Client, Outcome, rest_error, rpc_outcome};
use crate::transport::{CutOff, Received};

/// How long to wait for the next frame: the per-request timeout, or once
/// the task ended, what is left of the close grace counted from that end
/// (not from each later event).
pub fn wait_for(ended: Option<Instant>, timeout: Duration) -> Duration {
    match ended {
        Some(at) => super::flow::CLOSE_GRACE.saturating_sub(at.elapsed()),
        None => timeout,
    }
}

type Frames = Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

/// What opening a stream gave.
#[derive(Debug)]
pub enum Opened {
    /// A unary answer instead of a stream (an error, or a server that
    /// does not stream).
    Answer(Answer),
    /// The events, to read one by one.
    Events(EventStream),
}

/// The next thing a stream had.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// One `StreamResponse`.
    Event(Value),
    /// An error frame.
    Error(A2aError),
    /// A frame that is not A2A: why.
    Malformed(String),
    /// The server closed the stream.
    Closed,
    /// Nothing arrived within the wait.
    Idle,
    /// The stream was still open at its whole deadline (`--stream-timeout`):
    /// an agent that sends a progress event just inside every wait cannot
    /// hold the run for ever.
    Deadline(Duration),
    /// The stream broke or grew past the cap.
    Cut(CutOff),
}

/// An open event stream.
pub struct EventStream {
    frames: Frames,
    binding: Binding,
    started: Instant,
    /// No stream lasts past this, however busy (`Limits::stream_timeout`).
    budget: Instant,
    /// The bytes received went past the cap; reading stopped.
    overflow: Arc<AtomicBool>,
    /// Time to the response head.
    pub ack: Duration,
    pub status: u16,
    /// Every frame's data, for the canaries (capped like a body).
    pub raw: Vec<u8>,
    cap: usize,
    /// How many A2A events (not keep-alives, not errors) it gave.
    pub events: usize,
}

impl std::fmt::Debug for EventStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "EventStream({:?}, {} bytes)",
            self.binding,
            self.raw.len()
        )
    }
}

impl Client<'_> {
    /// Opens a streaming operation (`SendStreamingMessage`, `SubscribeToTask`).
    pub async fn open_stream(
        &self,
        op: A2aOperation,
        params: Map<String, Value>,
    ) -> Result<Opened, CutOff> {
        let limits = self.transport.limits();
        let started = Instant::now();
        let request = self.request(op, params, true)?;
        // HTTP+JSON subscribe: the spec's POST, else the proto's GET
        let retry = (op == A2aOperation::SubscribeToTask
            && self.interface.binding == Binding::HttpJson)
            .then(|| as_get(&request))
            .flatten();
        let send = |request: reqwest::RequestBuilder| async move {
            tokio::time::timeout(limits.request_timeout, request.send())
                .await
                .map_err(|_| CutOff::Timeout(limits.request_timeout))?
                .map_err(crate::transport::failed)
        };
        let mut response = send(request).await?;
        if let Some(get) = retry.filter(|_| matches!(response.status().as_u16(), 404 | 405)) {
            response = send(get).await?;
        }
        let ack = started.elapsed();
        let status = response.status().as_u16();
        let sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.to_ascii_lowercase().starts_with("text/event-stream"));
        if !sse || !(200..300).contains(&status) {
            let received: Received = self.transport.read(response, started).await?;
            return Ok(Opened::Answer(self.answer(received)));
        }
        // every byte received counts against the cap, framed or not (a
        // line that never ends must not grow without bound)
        let cap = limits.max_response_bytes;
        let overflow = Arc::new(AtomicBool::new(false));
        let flag = overflow.clone();
        let chunks = futures_util::stream::unfold((response, 0usize), move |(mut r, seen)| {
            let flag = flag.clone();
            async move {
                match r.chunk().await {
                    Ok(Some(bytes)) if seen + bytes.len() > cap => {
                        flag.store(true, Ordering::Relaxed);
                        None
                    }
                    Ok(Some(bytes)) => {
                        let seen = seen + bytes.len();
                        Some((Ok(bytes), (r, seen)))
                    }
                    Ok(None) => None,
                    Err(e) => Some((Err(e), (r, seen))),
                }
            }
        });
        Ok(Opened::Events(EventStream {
            frames: Box::pin(chunks.eventsource()),
            binding: self.interface.binding,
            started,
            budget: started + limits.stream_timeout,
            ack,
            status,
            raw: Vec::new(),
            cap,
            overflow,
            events: 0,
        }))
    }
}

/// The same request as a `GET` without a body.
fn as_get(request: &reqwest::RequestBuilder) -> Option<reqwest::RequestBuilder> {
    let (client, built) = request.try_clone()?.build_split();
    let mut built = built.ok()?;
    *built.method_mut() = reqwest::Method::GET;
    *built.body_mut() = None;
    built.headers_mut().remove("content-type");
    Some(reqwest::RequestBuilder::from_parts(client, built))
}

impl EventStream {
    /// Time since the request was sent.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The next frame, waiting at most `wait` (and never past the
    /// stream's whole budget).
    pub async fn next(&mut self, wait: Duration) -> Next {
        let deadline = (Instant::now() + wait).min(self.budget);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let frame = match tokio::time::timeout(left, self.frames.next()).await {
                Err(_) if Instant::now() >= self.budget => {
                    return Next::Deadline(self.budget - self.started);
                }
                Err(_) => return Next::Idle,
                Ok(None) if self.overflow.load(Ordering::Relaxed) => {
                    return Next::Cut(CutOff::TooLarge(self.cap));
                }
                Ok(None) => return Next::Closed,
                Ok(Some(Err(EventStreamError::Transport(e)))) => {
                    return Next::Cut(crate::transport::failed(e));
                }
                Ok(Some(Err(e))) => return Next::Malformed(e.to_string()),
                Ok(Some(Ok(frame))) => frame,
            };
            if self.raw.len() + frame.data.len() > self.cap {
                return Next::Cut(CutOff::TooLarge(self.cap));
            }
            self.raw.extend_from_slice(frame.data.as_bytes());
            self.raw.push(b'\n');
            if frame.data.trim().is_empty() {
                // a keep-alive or priming frame
                continue;
            }
            let next = self.decode(&frame);
            if matches!(next, Next::Event(_)) {
                self.events += 1;
            }
            return next;
        }
    }

    fn decode(&self, frame: &Event) -> Next {
        let Ok(value) = serde_json::from_str::<Value>(&frame.data) else {
            return Next::Malformed("an event whose data is not JSON".into());
        };
        let outcome = match self.binding {
            Binding::JsonRpc => rpc_outcome(&value, self.status),
            Binding::HttpJson if frame.event == "error" => match rest_error(&value) {
                Some(e) => Outcome::Error(e),
                None => Outcome::NotA2a("an error event without an A2A error body".into()),
            },
            Binding::HttpJson => Outcome::Result(value),
        };
        match outcome {
            Outcome::Result(v) => Next::Event(v),
            Outcome::Error(e) => Next::Error(e),
            Outcome::NotA2a(why) => Next::Malformed(why),
        }
    }
}

/// What an opened stream answers where a refusal is expected: its first
/// frame, an error frame being the refusal (a server may open the stream
/// and refuse in it); any other frame means the operation was served.
pub async fn first_answer(stream: &mut EventStream, timeout: Duration) -> Answer {
    let first = stream.next(timeout).await;
    first_answer_of(stream, first)
}

/// The answer a stream's `first` frame stands for.
pub fn first_answer_of(stream: &EventStream, first: Next) -> Answer {
    let outcome = match first {
        Next::Error(e) => Outcome::Error(e),
        _ => Outcome::Result(serde_json::json!({"stream": true})),
    };
    Answer {
        status: stream.status,
        headers: Vec::new(),
        outcome,
        ack: stream.ack,
        total: stream.elapsed(),
        body: stream.raw.clone(),
    }
}

/// Reads a stream to its end into `record` (a follow-up's stream, nothing
/// to do while it runs), events timed from `since` (the replay's send):
/// the findings of a stream that broke, or stayed open after a terminal
/// state.
pub async fn collect(
    mut stream: EventStream,
    record: &mut super::events::Record,
    source: &str,
    timeout: Duration,
    since: Instant,
) -> (Vec<crate::finding::Finding>, Vec<u8>) {
    use crate::finding::{Finding, Layer, codes};
    let mut ended: Option<Instant> = None;
    let mut findings = Vec::new();
    loop {
        let wait = wait_for(ended, timeout);
        match stream.next(wait).await {
            Next::Event(v) => {
                // one clock for every event of the replay: since its send
                record.take_stream_event(&v, since.elapsed(), source);
                let now = record
                    .last_state()
                    .is_some_and(|s| s.is_terminal() || s.is_interrupted());
                if now && ended.is_none() {
                    ended = Some(Instant::now());
                }
            }
            Next::Closed => break,
            Next::Idle if ended.is_some() => {
                if record.last_state().is_some_and(|s| s.is_terminal()) {
                    let detail = "the stream stayed open after the terminal state";
                    findings.push(Finding::new(
                        Layer::Protocol,
                        codes::STREAM_NOT_CLOSED_AT_TERMINAL,
                        source,
                        detail,
                    ));
                }
                break;
            }
            Next::Idle => {
                let detail = format!("no event within {} ms", timeout.as_millis());
                findings.push(Finding::new(
                    Layer::Temporal,
                    codes::RESPONSE_TIMEOUT,
                    source,
                    detail,
                ));
                break;
            }
            Next::Error(e) => {
                let detail = format!("the stream ended with an error: {}", e.message);
                findings.push(Finding::new(
                    Layer::Schema,
                    codes::RESPONSE_MISMATCH,
                    source,
                    detail,
                ));
                break;
            }
            Next::Malformed(why) => {
                findings.push(Finding::new(
                    Layer::Protocol,
                    codes::MALFORMED_RESPONSE,
                    source,
                    why,
                ));
                break;
            }
            Next::Cut(cut) => {
                findings.push(cut.finding(source));
                break;
            }
            Next::Deadline(limit) => {
                findings.push(deadline(limit, source, record.last_state()));
                break;
            }
        }
    }
    (findings, stream.raw)
}

/// The finding of a stream still open at its whole deadline.
pub fn deadline(
    limit: Duration,
    source: &str,
    last: Option<accord_dsl::model::accord::TaskState>,
) -> crate::finding::Finding {
    use crate::finding::{Finding, Layer, codes};
    let state = last.map_or("no state".to_owned(), |s| s.to_string());
    let detail = format!(
        "the stream was still open after its whole deadline of {} s (--stream-timeout); the task last reported {state}; reading stopped",
        limit.as_secs_f64()
    );
    Finding::new(Layer::Temporal, codes::RESPONSE_TIMEOUT, source, detail)
        .values(Some(serde_json::json!(limit.as_millis() as u64)), None)
}
