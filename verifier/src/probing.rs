//! After an interaction, before its teardown: `auth.probes` — what it
//! created is accessed as each probing principal through the
//! interaction's driver (counters are not judged around probes: a refusal
//! may well count, as an audit record does) — and the checks a driver
//! derives (invalid inputs: no counter may move).

use accord_dsl::Interaction;
use serde_json::{Map, Value};

use crate::driver::{Authorization, Driver, Exchange, Sent};
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::replay::Context;

/// Makes the interaction's `auth.probes`, each as its principal (a token
/// from a setup reply's `tokens` object, else `--principal`).
pub async fn probe_all(
    cx: &Context,
    driver: &dyn Driver,
    interaction: &Interaction,
    exchange: &Exchange<'_>,
    replies: &Map<String, Value>,
) -> Result<Vec<Finding>, VerifyError> {
    let meta = interaction.meta();
    let probes = meta
        .expectations
        .auth
        .as_ref()
        .map_or(&[][..], |a| &a.probes[..]);
    let mut findings = Vec::new();
    for (index, probe) in probes.iter().enumerate() {
        let from_state = replies
            .get("tokens")
            .and_then(|t| t.get(&probe.principal))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let configured = cx
            .principals
            .get(&probe.principal)
            .map(|t| t.expose().to_owned());
        let Some(token) = from_state.or(configured) else {
            return Err(VerifyError::UnknownPrincipal {
                interaction: meta.description.clone(),
                principal: probe.principal.clone(),
            });
        };
        let as_prober = Exchange {
            authorization: Authorization::Bearer(&token),
            ..*exchange
        };
        findings.extend(driver.probe(interaction, &as_prober, probe, index).await?);
    }
    Ok(findings)
}

/// The driver's derived checks, between the engine's last reading
/// (`before`) and one after them: a counter that moved while only invalid
/// calls were made is INVALID_INPUT_ACCEPTED — unless a call the driver
/// reports as served explains it (`Sent::counters_explained`).
pub async fn derived(
    driver: &dyn Driver,
    interaction: &Interaction,
    exchange: &Exchange<'_>,
    before: Option<crate::observe::Counters>,
) -> Result<Sent, VerifyError> {
    // `before`: the engine's last reading, after the sends
    let mut sent = driver.derived_checks(interaction, exchange).await?;
    let Some(before) = before.filter(|_| !sent.checks.is_empty() && !sent.counters_explained)
    else {
        return Ok(sent);
    };
    let after = exchange.observe().await?.unwrap_or_default();
    let names: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for counter in names {
        let delta =
            after.get(counter).copied().unwrap_or(0) - before.get(counter).copied().unwrap_or(0);
        if delta != 0 {
            let detail = format!(
                "counter '{counter}' changed by {delta} while only calls the inputSchema forbids were made"
            );
            sent.findings.push(
                Finding::new(
                    Layer::Schema,
                    codes::INVALID_INPUT_ACCEPTED,
                    counter,
                    detail,
                )
                .values(Some(Value::from(0)), Some(Value::from(delta))),
            );
        }
    }
    Ok(sent)
}
