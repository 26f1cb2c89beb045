//! What the mock saw: each expected interaction and how often it was
//! exercised, and every request it could not answer as the contract says.
//! The same JSON is served at `/__accord/interactions` and
//! `/__accord/mismatches` and printed by `accord mock --json`.

use accord_dsl::matching::Mismatch;
use accord_dsl::model::Query;
use serde::Serialize;
use serde_json::Value;

use crate::Shared;

/// One expected interaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Expected {
    /// Position in the contract (0-based).
    pub index: usize,
    pub description: String,
    /// `Synchronous/HTTP`, …
    #[serde(rename = "type")]
    pub interaction_type: &'static str,
    /// How many requests it answered.
    pub exercised: u32,
}

/// A request the mock could not answer as the contract says (Pact's
/// mock-server mismatch types), or an interaction never exercised.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum MockMismatch {
    /// An expected interaction was never exercised.
    MissingRequest {
        interaction: usize,
        description: String,
        method: String,
        path: String,
    },
    /// A request no interaction expects (no method and path like it).
    RequestNotFound {
        method: String,
        path: String,
        /// Its query parameters, if it had any.
        #[serde(skip_serializing_if = "Option::is_none")]
        query: Option<Query>,
        /// Why, when the request could not even be read (a body over the
        /// limit, …).
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A request whose method and path an interaction expects, but not
    /// the rest of it: that interaction's mismatches.
    RequestMismatch {
        interaction: usize,
        description: String,
        method: String,
        path: String,
        mismatches: Vec<Mismatch>,
    },
}

impl MockMismatch {
    /// One readable line.
    pub fn line(&self) -> String {
        match self {
            MockMismatch::MissingRequest {
                description,
                method,
                path,
                ..
            } => format!("expected but not received: {method} {path} ({description})"),
            MockMismatch::RequestNotFound {
                method,
                path,
                query,
                reason,
            } => {
                let target = with_query(path, query.as_ref());
                match reason {
                    Some(why) => format!("unexpected request: {method} {target}: {why}"),
                    None => format!("unexpected request: {method} {target}"),
                }
            }
            MockMismatch::RequestMismatch {
                description,
                method,
                path,
                mismatches,
                ..
            } => {
                let why: Vec<String> = mismatches
                    .iter()
                    .map(|m| format!("{} {}: {}", m.kind.as_str(), m.path, m.message))
                    .collect();
                format!(
                    "request mismatch for {method} {path} ({description}): {}",
                    why.join("; ")
                )
            }
        }
    }
}

/// The most mismatches kept per recorded request.
const MAX_DETAILS: usize = 20;

/// The most bytes of a text or a value's JSON kept in a recorded mismatch.
const MAX_TEXT: usize = 1024;

impl MockMismatch {
    /// What the report keeps of a request (its answer had it all): at most
    /// [`MAX_DETAILS`] mismatches, and a long text or value (a large body
    /// the mismatch quoted) in a few words, so that the records kept stay
    /// small whatever the requests held.
    pub(crate) fn trimmed(self) -> MockMismatch {
        match self {
            MockMismatch::RequestMismatch {
                interaction,
                description,
                method,
                path,
                mut mismatches,
            } => {
                mismatches.truncate(MAX_DETAILS);
                for m in &mut mismatches {
                    m.path = short(std::mem::take(&mut m.path));
                    m.message = short(std::mem::take(&mut m.message));
                    m.expected = m.expected.take().map(small);
                    m.actual = m.actual.take().map(small);
                }
                MockMismatch::RequestMismatch {
                    interaction,
                    description,
                    method,
                    path: short(path),
                    mismatches,
                }
            }
            MockMismatch::RequestNotFound {
                method,
                path,
                query,
                reason,
            } => {
                let long = query.as_ref().is_some_and(|q| {
                    q.iter()
                        .flat_map(|(n, vs)| vs.iter().chain([n]))
                        .map(String::len)
                        .sum::<usize>()
                        > MAX_TEXT
                });
                MockMismatch::RequestNotFound {
                    method: short(method),
                    path: short(path),
                    query: query.filter(|_| !long),
                    reason: reason.map(short),
                }
            }
            missing @ MockMismatch::MissingRequest { .. } => missing,
        }
    }
}

/// `text`, or its first [`MAX_TEXT`] bytes and how long it was.
fn short(text: String) -> String {
    if text.len() <= MAX_TEXT {
        return text;
    }
    let mut end = MAX_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// `value`, or a sentence saying it was large (its JSON is not written out
/// past [`MAX_TEXT`] bytes to find out).
fn small(value: Value) -> Value {
    let mut count = Counted(0);
    match serde_json::to_writer(&mut count, &value) {
        Ok(()) => value,
        Err(_) => Value::String(format!(
            "a value of more than {MAX_TEXT} bytes of JSON, not kept"
        )),
    }
}

/// Counts bytes written, and fails past [`MAX_TEXT`].
struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        if self.0 > MAX_TEXT {
            return Err(std::io::Error::other("too long"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `path?a=1&b=2` (the parameters as received, not re-encoded).
fn with_query(path: &str, query: Option<&Query>) -> String {
    let pairs: Vec<String> = query
        .into_iter()
        .flatten()
        .flat_map(|(n, vs)| vs.iter().map(move |v| format!("{n}={v}")))
        .collect();
    if pairs.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", pairs.join("&"))
    }
}

/// The whole report: it is OK when every expected interaction was
/// exercised and no request went unanswered.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MockReport {
    pub ok: bool,
    pub interactions: Vec<Expected>,
    pub mismatches: Vec<MockMismatch>,
    /// How many more requests went unanswered than `mismatches` lists: the
    /// mock keeps the first 100 in full and counts the rest.
    #[serde(skip_serializing_if = "is_zero")]
    pub more_mismatches: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// An interaction the mock expects, as the report names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wanted {
    /// Position in the contract.
    pub index: usize,
    pub description: String,
    pub interaction_type: &'static str,
    /// The HTTP method, or the A2A / MCP method (`SendMessage`, `tools/call`).
    pub method: String,
    /// The HTTP path, or what the method addresses (the A2A endpoint, the tool).
    pub path: String,
}

impl MockReport {
    /// The report of what was recorded: the missing interactions first,
    /// then the unanswered requests in arrival order. `exercised` is
    /// indexed by contract position.
    pub(crate) fn of(
        wanted: &[Wanted],
        exercised: &[u32],
        unanswered: &[MockMismatch],
    ) -> MockReport {
        let count = |w: &Wanted| exercised.get(w.index).copied().unwrap_or(0);
        let interactions = wanted
            .iter()
            .map(|w| Expected {
                index: w.index,
                description: w.description.clone(),
                interaction_type: w.interaction_type,
                exercised: count(w),
            })
            .collect();
        let mut mismatches: Vec<MockMismatch> = wanted
            .iter()
            .filter(|w| count(w) == 0)
            .map(|w| MockMismatch::MissingRequest {
                interaction: w.index,
                description: w.description.clone(),
                method: w.method.clone(),
                path: w.path.clone(),
            })
            .collect();
        mismatches.extend(unanswered.iter().cloned());
        MockReport {
            ok: mismatches.is_empty(),
            interactions,
            mismatches,
            more_mismatches: 0,
        }
    }

    /// The summary a terminal shows: one line per interaction, then the
    /// mismatches.
    pub fn table(&self) -> String {
        let mut out = String::new();
        for i in &self.interactions {
            let mark = if i.exercised > 0 { "ok  " } else { "MISS" };
            out.push_str(&format!(
                "{mark} {:>3}x  {}  {}\n",
                i.exercised, i.interaction_type, i.description
            ));
        }
        for m in &self.mismatches {
            out.push_str(&format!("FAIL {}\n", m.line()));
        }
        if self.more_mismatches > 0 {
            out.push_str(&format!(
                "FAIL and {} more unexpected request(s), not kept\n",
                self.more_mismatches
            ));
        }
        let problems = (self.mismatches.len() as u64).saturating_add(self.more_mismatches);
        let verdict = if self.ok {
            "every interaction was exercised, no unexpected request".to_owned()
        } else {
            format!("{problems} problem(s)")
        };
        out.push_str(&format!("mock: {verdict}\n"));
        out
    }
}

/// The most unexpected requests kept in full for the report; past it,
/// they are only counted (a client that sends bad requests in a loop
/// cannot grow the mock without end).
pub(crate) const MAX_UNANSWERED: usize = 100;

/// What the handlers recorded.
#[derive(Debug)]
pub(crate) struct Recorded {
    /// Per contract interaction (by position): how many requests it answered.
    pub(crate) exercised: Vec<u32>,
    /// The first [`MAX_UNANSWERED`] requests not answered as the contract
    /// says.
    pub(crate) unanswered: Vec<MockMismatch>,
    /// How many more there were.
    pub(crate) more: u64,
}

impl Recorded {
    pub(crate) fn new(exercised: Vec<u32>) -> Recorded {
        Recorded {
            exercised,
            unanswered: Vec::new(),
            more: 0,
        }
    }

    /// Keeps `m` in full while there is room, else counts it.
    pub(crate) fn unexpected(&mut self, m: MockMismatch) {
        if self.unanswered.len() < MAX_UNANSWERED {
            self.unanswered.push(m.trimmed());
        } else {
            self.more = self.more.saturating_add(1);
        }
    }

    pub(crate) fn reset(&mut self) {
        self.exercised.iter_mut().for_each(|n| *n = 0);
        self.unanswered = Vec::new();
        self.more = 0;
    }
}

/// The report of what `shared` recorded.
pub(crate) fn report(shared: &Shared) -> MockReport {
    let mut wanted: Vec<Wanted> = shared
        .http
        .all()
        .iter()
        .map(|(index, i)| Wanted {
            index: *index,
            description: i.meta.description.clone(),
            interaction_type: "Synchronous/HTTP",
            method: i.request.method.to_ascii_uppercase(),
            path: i.request.path.clone(),
        })
        .collect();
    wanted.extend(shared.a2a.iter().flat_map(|a| a.wanted()));
    wanted.extend(shared.mcp.iter().flat_map(|m| m.wanted()));
    wanted.sort_by_key(|w| w.index);
    let recorded = shared.recorded();
    let mut report = MockReport::of(&wanted, &recorded.exercised, &recorded.unanswered);
    report.more_mismatches = recorded.more;
    report.ok &= recorded.more == 0;
    if let Some(a2a) = &shared.a2a {
        let missing = a2a.missing(&recorded.exercised);
        report.ok &= missing.is_empty();
        report.mismatches.extend(missing);
    }
    report
}
