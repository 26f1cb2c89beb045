//! Further calls an interaction's judgement needs besides the recorded one
//! (a probe as another principal, the repeat of an idempotent call, an
//! invalid variant): sent in the profile's session, and classified by what
//! a caller can tell apart.

use std::time::Instant;

use accord_dsl::model::accord::McpToolCall;
use serde_json::{Map, Value, json};

use super::driver::{McpDriver, expects_success, lock, profile_key};
use super::task::{Bound, is_task};
use super::variants::{Verdict, judge_variant, variants};
use super::wire::{Endpoint, Era, Reply, Session};
use crate::driver::{Exchange, Generation, Sent};
use crate::transport::CutOff;

impl McpDriver {
    /// Sends `tools/call` with `params` as the endpoint's credential (in
    /// its legacy session, opened if needed; reopened once when it
    /// expired). A refused `initialize` is the answer. A task is followed
    /// to its end, for ten request timeouts at most.
    pub(super) async fn call_tool(
        &self,
        endpoint: &Endpoint<'_>,
        era: Era,
        params: Map<String, Value>,
    ) -> Result<Reply, CutOff> {
        let key = profile_key(endpoint, era);
        self.call_tool_within(endpoint, era, &key, params, None)
            .await
    }

    /// [`McpDriver::call_tool`] in the session of the profile `key`, a task
    /// followed for `completionWithinMs` when set.
    pub(super) async fn call_tool_within(
        &self,
        endpoint: &Endpoint<'_>,
        era: Era,
        key: &str,
        params: Map<String, Value>,
        completion_within_ms: Option<u64>,
    ) -> Result<Reply, CutOff> {
        let mut fresh = false;
        loop {
            let session = match era {
                Era::Legacy(_) => match self.session(endpoint, era, key, fresh).await? {
                    Ok(s) => Some(s),
                    Err(refused) => return Ok(refused),
                },
                Era::Modern => None,
            };
            set_log_level(endpoint, era, session.as_ref(), &params, self.id()).await?;
            let started = Instant::now();
            let reply = endpoint
                .call(
                    era,
                    session.as_ref(),
                    Some(self.id()),
                    "tools/call",
                    params.clone(),
                )
                .await?;
            // only a request that declares the tasks extension gets a task
            if era == Era::Modern && matches!(&reply.outcome, Ok(Ok(r)) if is_task(r)) {
                let timeout = endpoint.transport.limits().request_timeout;
                let bound = Bound::of(completion_within_ms, timeout);
                return self.follow(endpoint, reply, started, bound).await;
            }
            if fresh || session.is_none() || reply.status != 404 {
                return Ok(reply);
            }
            fresh = true;
        }
    }
}

impl McpDriver {
    /// [`McpDriver::call_tool`], classified, with the held credentials
    /// looked for in the answer (their findings go to `leaks`).
    pub(super) async fn call_answer(
        &self,
        endpoint: &Endpoint<'_>,
        era: Era,
        params: Map<String, Value>,
        exchange: &Exchange<'_>,
        path: &str,
        leaks: &mut Vec<crate::finding::Finding>,
    ) -> Answer {
        match self.call_tool(endpoint, era, params).await {
            Ok(reply) => {
                let answer = Answer::of(&reply);
                let canaries = crate::canary::Canaries::of(
                    exchange.principals,
                    endpoint.authorization,
                    exchange.custom_headers,
                );
                let failed = !matches!(answer, Answer::Served(_));
                leaks.extend(canaries.judge(&reply.body, failed, path));
                answer
            }
            Err(cut) => Answer::Broken(cut.finding(path).detail.into()),
        }
    }

    /// Sends the invalid-input variants of a call that expects success,
    /// once per tool and profile in a run (`variants.rs`).
    pub(super) async fn invalid_inputs(
        &self,
        call: &McpToolCall,
        era: Era,
        endpoint: &Endpoint<'_>,
        key: &str,
        exchange: &Exchange<'_>,
    ) -> Sent {
        let mut out = Sent::default();
        if !expects_success(call) {
            return out;
        }
        // a tool is in `varied` once its variants were sent: later calls
        // of it look nothing up
        let varied = format!("{key}\n{}", call.tool);
        if lock(&self.varied).contains(&varied) {
            return out;
        }
        let listed = lock(&self.listings).get(key).cloned();
        let schema = listed
            .as_ref()
            .and_then(|l| l.tool(&call.tool))
            .and_then(|t| t.get("inputSchema"))
            .cloned();
        let Some(schema) = schema else {
            return out;
        };
        if !lock(&self.varied).insert(varied) {
            return out;
        }
        let params = call_params(call, exchange.state_values);
        let recorded = params
            .get("arguments")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        for variant in variants(&schema, &recorded) {
            let mut p = params.clone();
            p.insert("arguments".into(), Value::Object(variant.arguments.clone()));
            let answer = self
                .call_answer(endpoint, era, p, exchange, &variant.path, &mut out.findings)
                .await;
            let mut seen = answer.seen(&[]);
            if let Some((cut, _)) = seen.char_indices().nth(120) {
                seen.truncate(cut);
                seen.push('…');
            }
            out.checks.push(format!(
                "invalid input, {} at {}: {seen}",
                variant.kind, variant.path
            ));
            // a served variant's work explains the counters it moved
            out.counters_explained |= matches!(answer, Answer::Served(_));
            match judge_variant(&call.tool, &variant, &answer) {
                Verdict::Refused => {}
                Verdict::Finding(f) => out.findings.push(f),
                Verdict::Warning(f) => out.warnings.push(f),
            }
        }
        out
    }
}

/// What a caller can tell of an answer.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Answer {
    /// A result that is not `isError`: its `structuredContent` (else its
    /// `content`).
    Served(Value),
    /// `isError: true`, with the text of its blocks.
    ToolError(String),
    /// A JSON-RPC error.
    Protocol(i64, String),
    /// No JSON-RPC answer: an HTTP refusal.
    Http(u16),
    /// Not an answer at all.
    Broken(String),
}

impl Answer {
    pub(super) fn of(reply: &Reply) -> Answer {
        if let Some(f) = reply.task.as_ref().and_then(|t| t.finding()) {
            return Answer::Broken(f.detail.into());
        }
        match &reply.outcome {
            Ok(Ok(result)) if result.get("isError").and_then(Value::as_bool) == Some(true) => {
                Answer::ToolError(texts(result))
            }
            Ok(Ok(result)) => Answer::Served(
                result
                    .get("structuredContent")
                    .or_else(|| result.get("content"))
                    .cloned()
                    .unwrap_or(Value::Null),
            ),
            Ok(Err(e)) => Answer::Protocol(e.code, e.message.clone()),
            Err(_) if (400..500).contains(&reply.status) => Answer::Http(reply.status),
            Err(why) => Answer::Broken(format!("HTTP {}: {why}", reply.status)),
        }
    }

    /// The answer as a caller sees it, with the `masked` values (the ids
    /// that differ between two calls) replaced, for comparison.
    pub(super) fn seen(&self, masked: &[String]) -> String {
        let text = match self {
            Answer::Served(v) => format!("served {v}"),
            Answer::ToolError(t) => format!("isError: true, {t:?}"),
            Answer::Protocol(code, message) => format!("error {code} {message:?}"),
            Answer::Http(status) => format!("HTTP {status}"),
            Answer::Broken(why) => format!("no answer ({why})"),
        };
        let mut values: Vec<&String> = masked.iter().filter(|v| !v.is_empty()).collect();
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        values
            .into_iter()
            .fold(text, |t, v| t.replace(v.as_str(), "…"))
    }
}

/// The text of a result's text blocks, joined.
fn texts(result: &Value) -> String {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// `{name, arguments}` with the provider-side generators applied (rules and
/// generators are rooted at the call object: `$.arguments.plan_id`).
pub(super) fn call_params(
    call: &McpToolCall,
    state_values: &Map<String, Value>,
) -> Map<String, Value> {
    let fresh = Generation {
        seed: rand::random(),
        pin: None,
        views: false,
    };
    call_params_with(call, state_values, &fresh)
}

/// [`call_params`] from this send's seed, a repeat's idempotency key kept.
pub(super) fn call_params_with(
    call: &McpToolCall,
    state_values: &Map<String, Value>,
    generation: &Generation<'_>,
) -> Map<String, Value> {
    let mut params = Map::new();
    params.insert("name".into(), json!(call.tool));
    params.insert(
        "arguments".into(),
        arguments(call, state_values, generation),
    );
    let mut meta = Map::new();
    if !call.progress.is_empty() {
        meta.insert("progressToken".into(), json!(super::progress::TOKEN));
    }
    if !call.logs.is_empty() {
        meta.insert(
            super::logs::LOG_LEVEL_META.into(),
            json!(super::logs::LEVEL),
        );
    }
    if !meta.is_empty() {
        params.insert("_meta".into(), Value::Object(meta));
    }
    params
}

/// The call's arguments with its generators applied and the pinned key
/// written back (as is when it has neither).
fn arguments(
    call: &McpToolCall,
    state_values: &Map<String, Value>,
    generation: &Generation<'_>,
) -> Value {
    let arguments = Value::Object(call.arguments.clone());
    if call.rules.generators.is_empty() && generation.pin.is_none() {
        return arguments;
    }
    let mut root = json!({"arguments": arguments});
    generation.generate_json(&mut root, &call.rules.generators, state_values);
    root["name"] = json!(call.tool);
    generation.pin_into(&mut root);
    root["arguments"].take()
}

/// A call that asks for log messages (`_meta` [`super::logs::LOG_LEVEL_META`]):
/// in a legacy session the level is set with `logging/setLevel` first (its
/// answer is not judged: a provider that refuses it sends no messages,
/// which the call's judgement names).
async fn set_log_level(
    endpoint: &Endpoint<'_>,
    era: Era,
    session: Option<&Session>,
    params: &Map<String, Value>,
    id: u64,
) -> Result<(), CutOff> {
    let asks = params
        .get("_meta")
        .and_then(|m| m.get(super::logs::LOG_LEVEL_META))
        .is_some();
    if asks && let (Era::Legacy(_), Some(session)) = (era, session) {
        let mut level = Map::new();
        level.insert("level".into(), json!(super::logs::LEVEL));
        endpoint
            .call(era, Some(session), Some(id), "logging/setLevel", level)
            .await?;
    }
    Ok(())
}
