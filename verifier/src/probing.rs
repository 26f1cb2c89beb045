//! `auth.probes`: after an interaction, what it created is accessed as
//! each probing principal through the interaction's driver. Counters are
//! not judged around probes: a refusal may well count (an audit record).

use accord_dsl::Interaction;
use serde_json::{Map, Value};

use crate::driver::{Authorization, Driver, Exchange};
use crate::error::VerifyError;
use crate::finding::Finding;
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
