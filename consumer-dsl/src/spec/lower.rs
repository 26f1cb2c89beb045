//! Lowering a parsed spec document into a contract: the one place where the
//! spec language and the builder become the model.

use serde_json::{Map, Value, json};

use super::ast::{CommonSpec, InteractionSpec, Kind, McpToolSpec, SpecDocument};
use super::ast_values::Principals;
use super::resolver::SchemaResolver;
use super::template::Compiled;
use super::{lower_a2a, lower_capabilities, lower_card, lower_http, lower_mcp};
use crate::DslError;
use crate::generators::Generators;
use crate::matching::MatchingRules;
use crate::model::accord::{
    A2aOperation, Approval, Auth, BodyRules, Expectations, Probe, Repeat, RepeatJudgement,
};
use crate::model::{
    AccordMetadata, Contract, Interaction, InteractionMeta, PactSpec, Pacticipant, ProviderState,
};

/// MCP protocol versions a contract may pin.
pub const MCP_VERSIONS: [&str; 2] = ["2026-07-28", "2025-11-25"];

/// What lowering needs besides the document: the origin for errors, the
/// schema resolver and the principals table.
pub(crate) struct Ctx<'a> {
    pub origin: &'a str,
    pub resolver: &'a dyn SchemaResolver,
    pub principals: &'a Principals,
    /// The pinned MCP version (default the latest).
    pub mcp_version: &'a str,
    /// The `mcp_tools:` the consumer declares.
    pub mcp_tools: &'a [McpToolSpec],
}

impl Ctx<'_> {
    /// An [`DslError::Invalid`] at `path`.
    pub fn err(&self, path: &str, message: impl Into<String>) -> DslError {
        DslError::invalid(self.origin, path, message)
    }

    /// The tenant of a declared principal.
    pub fn tenant_of(&self, path: &str, principal: &str) -> Result<Option<String>, DslError> {
        match self.principals.get(principal) {
            Some(p) => Ok(p.tenant.clone()),
            None => {
                let known: Vec<&str> = self.principals.keys().map(String::as_str).collect();
                Err(self.err(
                    path,
                    format!(
                        "unknown principal `{principal}`; declared under principals: {}",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                ))
            }
        }
    }
}

/// Lowers a parsed document into a contract.
pub fn lower(
    doc: &SpecDocument,
    origin: &str,
    resolver: &dyn SchemaResolver,
) -> Result<Contract, DslError> {
    let cx = Ctx {
        origin,
        resolver,
        principals: &doc.principals,
        mcp_version: doc.protocols.mcp.as_deref().unwrap_or(MCP_VERSIONS[0]),
        mcp_tools: &doc.mcp_tools,
    };
    let interactions = doc
        .interactions
        .iter()
        .enumerate()
        .map(|(i, it)| lower_interaction(&cx, &format!("interactions[{i}]"), it))
        .collect::<Result<Vec<_>, _>>()?;
    check_unique(&cx, &interactions)?;
    let mut contract = Contract {
        consumer: Pacticipant {
            name: doc.consumer.clone(),
            extra: Map::new(),
        },
        provider: Pacticipant {
            name: doc.provider.clone(),
            extra: Map::new(),
        },
        interactions,
        agent_card: doc
            .agent_card
            .as_ref()
            .map(|c| lower_card::agent_card(&cx, c))
            .transpose()?,
        mcp_tools: doc.mcp_tools.iter().map(lower_card::mcp_tool).collect(),
        ..Contract::default()
    };
    lower_capabilities::check(&cx, &contract)?;
    contract.accord = Some(accord_metadata(&cx, doc, &contract)?);
    Ok(contract)
}

/// Pact identifies an interaction by its description and provider states:
/// two with the same pair would be indistinguishable.
fn check_unique(cx: &Ctx<'_>, interactions: &[Interaction]) -> Result<(), DslError> {
    for (i, it) in interactions.iter().enumerate() {
        let m = it.meta();
        let twin = interactions[..i].iter().position(|o| {
            o.meta().description == m.description && o.meta().provider_states == m.provider_states
        });
        if let Some(j) = twin {
            return Err(cx.err(
                &format!("interactions[{i}]"),
                format!(
                    "same description and provider states as interactions[{j}] (`{}`)",
                    m.description
                ),
            ));
        }
    }
    Ok(())
}

fn accord_metadata(
    cx: &Ctx<'_>,
    doc: &SpecDocument,
    c: &Contract,
) -> Result<AccordMetadata, DslError> {
    let uses_a2a = c.agent_card.is_some()
        || c.interactions
            .iter()
            .any(|i| matches!(i, Interaction::A2aTask(_)));
    let uses_mcp = !c.mcp_tools.is_empty()
        || c.interactions
            .iter()
            .any(|i| matches!(i, Interaction::McpToolCall(_)));
    let p = &doc.protocols;
    if let Some(v) = p.a2a.as_deref().filter(|v| *v != "1.0") {
        return Err(cx.err(
            "protocols.a2a",
            format!("A2A version `{v}` is not supported; write \"1.0\""),
        ));
    }
    if let Some(v) = p.mcp.as_deref().filter(|v| !MCP_VERSIONS.contains(v)) {
        return Err(cx.err(
            "protocols.mcp",
            format!(
                "MCP version `{v}` is not supported; write one of {}",
                MCP_VERSIONS.join(", ")
            ),
        ));
    }
    if let Some(v) = p.json_schema.as_deref().filter(|v| *v != "2020-12") {
        return Err(cx.err(
            "protocols.json_schema",
            format!("JSON Schema dialect `{v}` is not supported; write \"2020-12\""),
        ));
    }
    Ok(AccordMetadata {
        a2a: p
            .a2a
            .clone()
            .or_else(|| uses_a2a.then(|| "1.0".to_string())),
        mcp: p
            .mcp
            .clone()
            .or_else(|| uses_mcp.then(|| MCP_VERSIONS[0].to_string())),
        ..AccordMetadata::default()
    })
}

fn lower_interaction(
    cx: &Ctx<'_>,
    path: &str,
    it: &InteractionSpec,
) -> Result<Interaction, DslError> {
    let description = match &it.kind {
        Kind::Http(d) | Kind::A2a(d) | Kind::Mcp(d) | Kind::Message(d) | Kind::SyncMessage(d) => {
            d.clone()
        }
        Kind::Unset => {
            return Err(cx.err(
                path,
                "the interaction has no kind (http, a2a, mcp, message, sync_message)",
            ));
        }
    };
    if description.trim().is_empty() {
        return Err(cx.err(
            path,
            "the description (the value of the kind key) must not be empty",
        ));
    }
    let meta = meta(cx, path, description, &it.common)?;
    let lowered = match &it.kind {
        Kind::Http(_) => lower_http::http(cx, path, meta, &it.http),
        Kind::Message(_) => lower_http::message(cx, path, meta, &it.message),
        Kind::SyncMessage(_) => lower_http::sync_message(cx, path, meta, &it.message),
        Kind::A2a(_) => lower_a2a::task(cx, path, meta, &it.a2a),
        _ => lower_mcp::tool_call(cx, path, meta, &it.mcp),
    }?;
    check_cancel_limits(cx, path, &lowered)?;
    Ok(lowered)
}

/// Limits about a cancel need one: `cancellation_effect_ms` a cancel
/// scenario or a CancelTask follow-up, `no_side_effects_after_cancel_ack`
/// a cancel scenario with its observation window (`observe_ms`), without
/// which the counters would be read again at once and prove nothing.
fn check_cancel_limits(cx: &Ctx<'_>, path: &str, it: &Interaction) -> Result<(), DslError> {
    let Some(t) = &it.meta().expectations.temporal else {
        return Ok(());
    };
    let task = match it {
        Interaction::A2aTask(a) => Some(&a.task),
        _ => None,
    };
    let cancel = task.and_then(|t| t.cancel.as_ref());
    let cancel_follow_up = task.is_some_and(|t| {
        t.follow_ups
            .iter()
            .any(|f| f.operation == A2aOperation::CancelTask)
    });
    if t.cancellation_effect_within_ms.is_some() && cancel.is_none() && !cancel_follow_up {
        return Err(cx.err(
            &format!("{path}.within.cancellation_effect_ms"),
            "needs an A2A `cancel` scenario or a CancelTask follow-up",
        ));
    }
    if t.no_new_side_effect_after_cancel_ack && cancel.and_then(|c| c.observe_ms).is_none() {
        return Err(cx.err(
            &format!("{path}.within.no_side_effects_after_cancel_ack"),
            "needs an A2A `cancel` scenario with `observe_ms` (how long after the cancel acknowledgement the counters are read again)",
        ));
    }
    Ok(())
}

fn meta(
    cx: &Ctx<'_>,
    path: &str,
    description: String,
    c: &CommonSpec,
) -> Result<InteractionMeta, DslError> {
    let provider_states = c
        .given
        .iter()
        .map(|s| ProviderState {
            name: s.name.clone(),
            params: s.params.clone(),
            extra: Default::default(),
        })
        .collect();
    let expectations = Expectations {
        side_effects: (!c.side_effects.is_empty())
            .then(|| super::lower_expect::side_effects(&c.side_effects)),
        temporal: c.within.as_ref().map(super::lower_expect::temporal),
        auth: auth(cx, path, c.principal.as_deref(), c.credential, &c.probe_as)?,
        negative: c.negative,
        repeat: repeat(cx, path, c)?,
        retryable: c.retryable,
        approval: c.approval.as_ref().map(|a| Approval {
            granted: a.granted,
            counter: a.counter.clone(),
        }),
    };
    Ok(InteractionMeta {
        description,
        key: c.key.clone(),
        pending: c.pending,
        provider_states,
        comments: c.comments.clone(),
        expectations,
        extra: Map::new(),
    })
}

fn repeat(cx: &Ctx<'_>, path: &str, c: &CommonSpec) -> Result<Option<Repeat>, DslError> {
    let Some(r) = &c.repeat else { return Ok(None) };
    if r.times == 0 {
        return Err(cx.err(
            &format!("{path}.repeat"),
            "an interaction is sent at least once",
        ));
    }
    Ok(Some(Repeat {
        times: r.times,
        side_effects: if r.each {
            RepeatJudgement::Each
        } else {
            RepeatJudgement::Total
        },
        each_matches: r.each_matches,
        key: r.key.clone(),
        same_fields: r.same_fields.clone(),
    }))
}

/// The `auth` expectation from `as`, `credential` and `probe_as`.
pub(crate) fn auth(
    cx: &Ctx<'_>,
    path: &str,
    principal: Option<&str>,
    credential: Option<crate::model::accord::Credential>,
    probes: &[super::ast::ProbeSpec],
) -> Result<Option<Auth>, DslError> {
    if principal.is_none() && credential.is_none() && probes.is_empty() {
        return Ok(None);
    }
    let tenant = match principal {
        Some(p) => cx.tenant_of(&format!("{path}.as"), p)?,
        None => None,
    };
    let probes = probes
        .iter()
        .enumerate()
        .map(|(i, p)| {
            Ok(Probe {
                principal: p.principal.clone(),
                tenant: cx.tenant_of(&format!("{path}.probe_as[{i}]"), &p.principal)?,
                operations: p.operations.clone(),
                unknown: p.unknown.clone(),
                after: p.after,
            })
        })
        .collect::<Result<Vec<_>, DslError>>()?;
    Ok(Some(Auth {
        principal: principal.map(str::to_string),
        tenant,
        credential: credential.unwrap_or_default(),
        probes,
    }))
}

/// The V4 rules and generators of one `body`-category template tree.
pub(crate) fn body_rules(out: &Compiled) -> Result<BodyRules, DslError> {
    let (matching_rules, generators) = categorised(
        out.is_empty(),
        &[("body", Value::Object(out.rules_by_path()))],
        &[("body", Value::Object(out.generators_by_path()))],
    )?;
    Ok(BodyRules {
        matching_rules,
        generators,
    })
}

/// Rules and generators from per-category JSON, empty ones left out.
pub(crate) fn categorised(
    empty: bool,
    rules: &[(&str, Value)],
    generators: &[(&str, Value)],
) -> Result<(MatchingRules, Generators), DslError> {
    if empty {
        return Ok((MatchingRules::default(), Generators::default()));
    }
    let keep = |parts: &[(&str, Value)]| -> Value {
        let m: Map<String, Value> = parts
            .iter()
            .filter(|(_, v)| v.as_object().is_none_or(|o| !o.is_empty()) && !v.is_null())
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        Value::Object(m)
    };
    let r = keep(rules);
    let g = keep(generators);
    let rules = if r == json!({}) {
        MatchingRules::default()
    } else {
        MatchingRules::from_pact_json(&r, PactSpec::V4)?
    };
    let generators = if g == json!({}) {
        Generators::default()
    } else {
        Generators::from_pact_json(&g)?
    };
    Ok((rules, generators))
}
