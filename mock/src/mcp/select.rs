//! Which interaction answers a `tools/call` (pure): the arguments against
//! each interaction's example under its rules (rooted at the call:
//! `$.arguments.plan_id`), and the credential against the one the
//! interaction is sent with.
//!
//! Arguments are compared as Pact compares a request body: every argument
//! the interaction sends must be there and match, and an argument it does
//! not send is a mismatch — the contract must say everything the
//! consumer's code relies on sending. Anything else in `params` (`_meta`,
//! the tasks extension) is the client's business — but an interaction
//! that relies on `progress` needs the call to carry a progress token:
//! MCP sends progress only to a call that asks for it.
//!
//! Interactions sent with a valid credential are tried before the ones
//! that expect a refusal (`auth.credential: none | expired | invalid`):
//! without `--principal` tokens any bearer token stands for a principal,
//! so an expired-token case is reached only when no valid case fits.

use accord_dsl::matching::path::{Seg, render_location};
use accord_dsl::matching::{Mismatch, MismatchKind, match_json};
use accord_dsl::model::accord::{Credential, Expectations, McpToolCall, McpToolCallInteraction};
use serde_json::{Map, Value, json};

use crate::auth::{Demand, Principals};

/// How a call relates to the interactions of its tool.
#[derive(Debug)]
pub(super) enum Selection<'a> {
    /// This interaction (contract index) answers it.
    Matched(usize, &'a McpToolCallInteraction),
    /// The arguments are this interaction's, but the credential is not its
    /// principal's: refused as an authorization layer would (401).
    Unauthorized(usize, &'a McpToolCallInteraction, Box<Mismatch>),
    /// No interaction fits; the closest and how the call differs from it.
    Mismatched(usize, &'a McpToolCallInteraction, Vec<Mismatch>),
    /// No interaction calls the tool.
    NoInteraction,
}

/// A `tools/call` as received, as far as choosing its interaction goes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Received<'r> {
    pub(super) arguments: &'r Map<String, Value>,
    /// It carries `params._meta.progressToken`.
    pub(super) progress_token: bool,
    /// Its bearer token.
    pub(super) bearer: Option<&'r str>,
}

/// The interaction among `calls` (those of the called tool, with their
/// contract index) that answers `received`.
pub(super) fn select<'a>(
    calls: &[(usize, &'a McpToolCallInteraction)],
    received: &Received<'_>,
    principals: &Principals,
) -> Selection<'a> {
    let refusal = |i: &McpToolCallInteraction| Demand::of(&i.meta.expectations) == Demand::Refusal;
    let ordered = calls
        .iter()
        .filter(|(_, i)| !refusal(i))
        .chain(calls.iter().filter(|(_, i)| refusal(i)));
    let mut unauthorized = None;
    let mut closest: Option<(usize, &McpToolCallInteraction, Vec<Mismatch>)> = None;
    for &(index, interaction) in ordered {
        let mut mismatches = argument_mismatches(&interaction.call, received.arguments);
        if !interaction.call.progress.is_empty() && !received.progress_token {
            let why = "Missing progress token: the interaction relies on progress notifications, which are sent only to a call that carries one";
            mismatches.push(Mismatch::new(
                MismatchKind::Body,
                "$._meta.progressToken",
                why,
            ));
        }
        let credential =
            credential_mismatch(&interaction.meta.expectations, principals, received.bearer);
        match credential {
            None if mismatches.is_empty() => return Selection::Matched(index, interaction),
            Some(why) if mismatches.is_empty() && !refusal(interaction) => {
                unauthorized.get_or_insert((index, interaction, why));
                continue;
            }
            Some(why) => mismatches.push(why),
            None => {}
        }
        if closest
            .as_ref()
            .is_none_or(|(_, _, seen)| mismatches.len() < seen.len())
        {
            closest = Some((index, interaction, mismatches));
        }
    }
    match (unauthorized, closest) {
        (Some((index, i, why)), _) => Selection::Unauthorized(index, i, Box::new(why)),
        (None, Some((index, i, mismatches))) => Selection::Mismatched(index, i, mismatches),
        (None, None) => Selection::NoInteraction,
    }
}

/// How `arguments` differ from what `call` sends, under its rules; a
/// missing or unexpected argument is one mismatch each, at its own path.
pub(super) fn argument_mismatches(
    call: &McpToolCall,
    arguments: &Map<String, Value>,
) -> Vec<Mismatch> {
    let rules = call
        .rules
        .matching_rules
        .body()
        .cloned()
        .unwrap_or_default();
    let expected = json!({"arguments": call.arguments});
    let actual = json!({"arguments": arguments});
    let mut out = Vec::new();
    for m in match_json(&expected, &actual, &rules, false) {
        let key_set = m.path == "$.arguments"
            && (m.message.starts_with("Expected a Map with keys")
                || m.message.starts_with("Expected an empty Map"));
        if !key_set {
            out.push(m);
            continue;
        }
        for (name, value) in &call.arguments {
            if !arguments.contains_key(name) {
                let msg = format!("Missing argument '{name}': the interaction sends it");
                out.push(
                    Mismatch::new(MismatchKind::Body, at(name), msg)
                        .values(Some(value.clone()), None),
                );
            }
        }
        for (name, value) in arguments {
            if !call.arguments.contains_key(name) {
                let msg = format!("Unexpected argument '{name}': the interaction does not send it");
                out.push(
                    Mismatch::new(MismatchKind::Body, at(name), msg)
                        .values(None, Some(value.clone())),
                );
            }
        }
    }
    out
}

/// `$.arguments.<name>` (bracketed when the name needs it).
fn at(name: &str) -> String {
    render_location(&[Seg::Key("arguments"), Seg::Key(name)])
}

/// Why the credential presented (`bearer`) is not the one the interaction
/// is sent with, if it is not.
pub(super) fn credential_mismatch(
    expectations: &Expectations,
    principals: &Principals,
    bearer: Option<&str>,
) -> Option<Mismatch> {
    let why = match Demand::of(expectations) {
        Demand::Open => None,
        Demand::Principal(p) => principals.refuses(&p, bearer),
        Demand::Refusal => {
            let kind = expectations
                .auth
                .as_ref()
                .map_or(Credential::None, |a| a.credential);
            match (kind, bearer) {
                (Credential::None, Some(_)) => Some(
                    "the interaction is sent without a credential (auth.credential: none), the request presents a bearer token"
                        .to_owned(),
                ),
                (Credential::Expired | Credential::Invalid, None) => Some(format!(
                    "the interaction is sent with an {} bearer token, the request presents none",
                    if kind == Credential::Expired { "expired" } else { "invalid" }
                )),
                _ => None,
            }
        }
    }?;
    Some(Mismatch::new(MismatchKind::Header, "Authorization", why))
}

/// The text of the tool error a call that fits no interaction gets: which
/// argument failed which rule, against the closest interaction.
pub(super) fn mismatch_text(tool: &str, closest: &str, mismatches: &[Mismatch]) -> String {
    let lines: Vec<String> = mismatches.iter().map(line).collect();
    format!(
        "Error executing tool {tool}: the call matches no interaction of the contract; closest is \"{closest}\": {}",
        lines.join("; ")
    )
}

/// One mismatch as the caller reads it.
fn line(m: &Mismatch) -> String {
    let what = match m.path.strip_prefix("$.arguments") {
        _ if m.kind == MismatchKind::Header => return format!("credential: {}", m.message),
        Some(rest) => {
            let name = rest.trim_start_matches('.');
            if name.is_empty() {
                "the arguments".to_owned()
            } else {
                format!("argument '{name}'")
            }
        }
        None => m.path.clone(),
    };
    match &m.rule {
        Some(rule) => format!("{what} failed rule {rule}: {}", m.message),
        None if m.message.starts_with("Missing ")
            || m.message.starts_with("Unexpected argument") =>
        {
            m.message.clone()
        }
        None => format!("{what} failed equality: {}", m.message),
    }
}

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
