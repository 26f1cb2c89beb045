//! Sends the corpus and checks each answer; failures are collected and
//! reported together at the end, with counts.

use serde_json::Value;

use crate::raw_http::{Framing, RawReply, RawRequest, send};
use crate::snapshot::Snapshot;
use crate::support::TestApp;

/// What a request must get, beyond the rules every answer follows.
#[derive(Debug, Clone)]
pub enum Expect {
    /// Any answer but a 5xx.
    Answer,
    /// A 400 whose `errors` names exactly this field.
    Refused(String),
    /// When refused with 400/422, the errors name this body field.
    Field(String),
}

/// One backend's run.
pub struct Run {
    addr: String,
    token: String,
    snapshot: Snapshot,
    baseline: String,
    sent: usize,
    by_class: [usize; 6],
    refused_writes: usize,
    failures: Vec<String>,
}

impl Run {
    /// A run against `app`, authenticated with `token`.
    pub fn new(app: &TestApp, token: &str) -> Run {
        let snapshot = Snapshot::new(app);
        let baseline = snapshot.take();
        Run {
            addr: app.url.trim_start_matches("http://").to_owned(),
            token: token.to_owned(),
            snapshot,
            baseline,
            sent: 0,
            by_class: [0; 6],
            refused_writes: 0,
            failures: Vec::new(),
        }
    }

    /// `method target` with `body` as JSON (when given).
    pub fn json(&mut self, method: &str, target: &str, body: Option<&Value>, expect: Expect) {
        let mut request = RawRequest::new(method, target);
        if let Some(b) = body {
            request = request
                .header("Content-Type", "application/json")
                .body(b.to_string(), Framing::Length);
        }
        self.check(request, expect);
    }

    /// `method target` with raw `bytes` labelled `media`.
    pub fn bytes(
        &mut self,
        method: &str,
        target: &str,
        media: &str,
        bytes: Vec<u8>,
        expect: Expect,
    ) {
        let request = RawRequest::new(method, target)
            .header("Content-Type", media)
            .body(bytes, Framing::Length);
        self.check(request, expect);
    }

    /// A body of `size` bytes over the limit, declared and then chunked:
    /// both must be a 413.
    pub fn over_limit(&mut self, method: &str, target: &str, size: usize) {
        let big = format!("{{\"pad\":\"{}\"}}", "p".repeat(size)).into_bytes();
        for framing in [Framing::Length, Framing::Chunked] {
            let request = RawRequest::new(method, target)
                .header("Content-Type", "application/json")
                .body(big.clone(), framing);
            let reply = self.check(request, Expect::Answer);
            if reply.status != 413 {
                self.fail(
                    method,
                    target,
                    &reply,
                    &format!("{framing:?} over the limit is not 413"),
                );
            }
        }
    }

    fn check(&mut self, request: RawRequest, expect: Expect) -> RawReply {
        let only_json = self.sent % 2 == 1;
        let accept = if only_json {
            "application/json"
        } else {
            "application/hal+json, application/problem+json"
        };
        let method = request.method.clone();
        let mut target = String::from_utf8_lossy(&request.target).into_owned();
        if let Some((body, _)) = &request.body {
            let shown: String = String::from_utf8_lossy(body).chars().take(120).collect();
            target = format!("{target} <{shown}>");
        }
        let request = request
            .header("Accept", accept)
            .header("Authorization", &format!("Bearer {}", self.token));
        let reply = send(&self.addr, &request);
        self.sent += 1;
        self.by_class[usize::from(reply.status / 100).min(5)] += 1;
        if let Some(problem) = judge(&reply, &expect, only_json) {
            self.fail(&method, &target, &reply, &problem);
        }
        if method != "GET" {
            let now = self.snapshot.take();
            if reply.status >= 400 {
                self.refused_writes += 1;
                if now != self.baseline {
                    self.fail(
                        &method,
                        &target,
                        &reply,
                        "a refused write changed the database",
                    );
                }
            }
            self.baseline = now;
        }
        reply
    }

    fn fail(&mut self, method: &str, target: &str, reply: &RawReply, problem: &str) {
        let shown: String = target.chars().take(300).collect();
        let body: String = reply.text().chars().take(300).collect();
        self.failures.push(format!(
            "{method} {shown}: {problem} (got {} {body})",
            reply.status
        ));
    }

    /// Prints the counts and fails with every problem found.
    pub fn finish(self, backend: &str) {
        let [_, _, ok, redirect, client, server] = self.by_class;
        println!(
            "hostile corpus on {backend}: {} requests, {ok} 2xx, {redirect} 3xx, {client} 4xx, {server} 5xx; \
             {} refused writes, each checked against every table",
            self.sent, self.refused_writes
        );
        assert!(
            self.failures.is_empty(),
            "{} of {} requests on {backend} broke a rule:\n{}",
            self.failures.len(),
            self.sent,
            self.failures
                .iter()
                .take(60)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// The rule a reply broke, if any.
fn judge(reply: &RawReply, expect: &Expect, only_json: bool) -> Option<String> {
    if reply.status >= 500 {
        return Some("a 5xx".into());
    }
    if reply.status < 400 {
        return match expect {
            Expect::Refused(field) => Some(format!("not refused; the edge must name {field}")),
            _ => None,
        };
    }
    let media = reply.header("content-type").unwrap_or("");
    let want = if only_json {
        "application/json"
    } else {
        "application/problem+json"
    };
    if !media.starts_with(want) {
        return Some(format!("an error labelled {media:?}, not {want}"));
    }
    let body = reply.json();
    if body["status"] != reply.status || body["detail"].as_str().is_none_or(str::is_empty) {
        return Some("an error body without its status and a detail".into());
    }
    let named: Vec<&String> = body["errors"]
        .as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    if matches!(reply.status, 400 | 422) && named.is_empty() {
        return Some("a 400/422 that names no field".into());
    }
    match expect {
        Expect::Refused(field) if reply.status != 400 || !named.contains(&field) => {
            Some(format!("not a 400 naming {field}"))
        }
        Expect::Field(path) if matches!(reply.status, 400 | 422) => {
            // the field itself, the object holding it, or (for a value that
            // clashes with another field) the detail that names it
            let last = path.rsplit(['.', '[']).next().unwrap_or(path);
            let detail = body["detail"].as_str().unwrap_or("");
            let names_it = named
                .iter()
                .any(|k| k.contains(last) || path.starts_with(k.as_str()))
                || detail.contains(last);
            (!names_it).then(|| format!("the errors do not name {path}: {named:?}"))
        }
        _ => None,
    }
}
