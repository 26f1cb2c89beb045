//! How the A2A driver plugs into the engine: the card and the interface
//! for each send, the replay, the probes and the contract-level
//! `agentCard` check.

use std::sync::Arc;

use accord_dsl::model::accord::{A2aTaskInteraction, Probe};
use accord_dsl::{Contract, Interaction};

use super::flow::{Created, Run};
use super::wire::{Client, Interface};
use super::{A2aDriver, CardSource, card, interface, lock};
use crate::driver::{BoxFuture, ContractCheck, ContractPart, Driver, Exchange, Sent};
use crate::error::VerifyError;
use crate::finding::Finding;
use crate::report::Declaration;

/// The key of an interaction's created task: its address, stable for the run.
fn key(interaction: &Interaction) -> usize {
    std::ptr::from_ref(interaction) as usize
}

/// The card, the interface to replay on (admitted by its origin: with
/// credentials or without) and the finding of an interface on another
/// origin; or the finding that says why nothing is sent.
fn target<'r>(
    read: &'r super::Read,
    exchange: &Exchange<'_>,
) -> Result<(&'r serde_json::Value, Interface, Option<Finding>), Box<Finding>> {
    let card = read.as_ref().map_err(|f| Box::new(f.clone()))?;
    let chosen = interface::choose(card, exchange.a2a_binding, exchange.agent_card)?;
    let (admitted, elsewhere) = interface::admit(chosen, exchange.origins)?;
    Ok((card, admitted, elsewhere))
}

impl A2aDriver {
    /// True when an interaction of `contract` reported the unread card.
    fn card_said_for(&self, contract: &Contract) -> bool {
        let said = lock(&self.card_said);
        contract.interactions.iter().any(|i| said.contains(&key(i)))
    }

    /// The card as read once per run (shared, not copied per send).
    async fn read_card(&self, exchange: &Exchange<'_>) -> Arc<super::Read> {
        let source = CardSource {
            transport: exchange.transport,
            url: exchange.agent_card_url,
            custom_headers: exchange.custom_headers,
        };
        self.card(source).await
    }

    async fn replay(
        &self,
        interaction: &Interaction,
        it: &A2aTaskInteraction,
        exchange: &Exchange<'_>,
    ) -> Result<Sent, VerifyError> {
        let read = self.read_card(exchange).await;
        let (card, chosen, elsewhere) = match target(&read, exchange) {
            Ok(t) => t,
            Err(f) => {
                if read.is_err() {
                    // said here: the contract-level check does not repeat it
                    lock(&self.card_said).insert(key(interaction));
                }
                return Ok(Sent {
                    findings: vec![*f],
                    not_sent: true,
                    ..Sent::default()
                });
            }
        };
        let base = Client {
            transport: exchange.transport,
            interface: &chosen,
            authorization: exchange.authorization,
            custom_headers: exchange.custom_headers,
            version: "1.0",
        };
        let client = Client {
            version: it.task.a2a_version.as_deref().unwrap_or("1.0"),
            ..base
        };
        let used = format!("{} {}", chosen.binding.as_str(), chosen.url);
        let first_use = lock(&self.used).insert(used);
        // expected parts (steps, follow-ups) get the state values the send gets
        let (task, unchecked) = crate::expected::a2a_task(&it.task, exchange.state_values);
        let mut run = Run::new(client, base, exchange, &it.meta, &task, card);
        run.streaming_probed = Some(&self.streaming_probed);
        let mut sent = run.go().await?;
        sent.findings.extend(unchecked);
        if first_use {
            // a deployment choice the consumer cannot see: said once, not failed
            sent.warnings.extend(interface::insecure(&chosen));
            // replayed without credentials where the user allowed it: said once
            sent.findings.extend(elsewhere);
        }
        let skill = it.task.skill.as_deref();
        sent.findings
            .extend(skill.and_then(|s| interface::skill_missing(card, s)));
        sent.temporal_measured = true;
        let task_id = run.record.task_id.clone();
        for id in task_id.iter().chain(&run.record.context_id) {
            crate::trace::note_task_id(id);
        }
        // an address may be reused by another run's contract (`--a2a-binding all`)
        lock(&self.created).remove(&key(interaction));
        lock(&self.refused).remove(&key(interaction));
        if let Some(task_id) = task_id.filter(|_| !run.send_refused) {
            let created = Created {
                task_id,
                interface: chosen.clone(),
            };
            lock(&self.created).insert(key(interaction), created);
        } else if run.send_refused {
            lock(&self.refused).insert(key(interaction));
        }
        Ok(sent)
    }
}

impl Driver for A2aDriver {
    fn handles(&self, interaction: &Interaction) -> bool {
        matches!(interaction, Interaction::A2aTask(_))
    }

    fn send<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
    ) -> BoxFuture<'a, Result<Sent, VerifyError>> {
        Box::pin(async move {
            let Interaction::A2aTask(it) = interaction else {
                return Ok(Sent::default());
            };
            self.replay(interaction, it, exchange).await
        })
    }

    fn probe<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
        probe: &'a Probe,
        index: usize,
    ) -> BoxFuture<'a, Result<Vec<Finding>, VerifyError>> {
        Box::pin(async move {
            if probe.after.is_some() {
                // made while the task ran, by the replay itself
                return Ok(Vec::new());
            }
            if lock(&self.refused).contains(&key(interaction)) {
                // the refused send is the finding: there is no task to probe
                return Ok(Vec::new());
            }
            let created = lock(&self.created).get(&key(interaction)).cloned();
            Ok(super::probe::probe(created.as_ref(), exchange, probe, index).await)
        })
    }

    fn derived_checks<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
    ) -> BoxFuture<'a, Result<Sent, VerifyError>> {
        Box::pin(async move {
            let read = self.read_card(exchange).await;
            let Ok((card, chosen, _)) = target(&read, exchange) else {
                return Ok(Sent::default());
            };
            let mut findings = Vec::new();
            // a request without A2A-Version is a 0.3 request where 0.3 is offered
            if !interface::speaks_v03(card) && lock(&self.version_probed).insert(chosen.url.clone())
            {
                findings.extend(super::probe::version(&chosen, exchange).await);
            }
            let created = lock(&self.created)
                .get(&key(interaction))
                .map(|c| c.task_id.clone());
            if let Some(task_id) = &created
                && lock(&self.declared_probed).insert(chosen.url.clone())
            {
                findings.extend(super::declared::probe(&chosen, exchange, card, task_id).await);
            }
            let streams = matches!(interaction, Interaction::A2aTask(it) if super::streaming::streams_itself(&it.task));
            if let Some(task_id) =
                created.filter(|_| !streams && !super::capability::declares(card, "streaming"))
            {
                let client = Client {
                    transport: exchange.transport,
                    interface: &chosen,
                    authorization: exchange.authorization,
                    custom_headers: exchange.custom_headers,
                    version: "1.0",
                };
                let probed = &self.streaming_probed;
                findings.extend(super::streaming::after(probed, &client, exchange, &task_id).await);
            }
            Ok(Sent {
                findings,
                ..Sent::default()
            })
        })
    }

    fn contract_parts(&self) -> &'static [ContractPart] {
        &[ContractPart::AgentCard]
    }

    fn check_contract<'a>(
        &'a self,
        contract: &'a Contract,
        cx: &'a ContractCheck<'a>,
    ) -> BoxFuture<'a, Vec<Finding>> {
        Box::pin(async move {
            let Some(expect) = &contract.agent_card else {
                return Vec::new();
            };
            let source = CardSource {
                transport: cx.transport,
                url: cx.agent_card_url,
                custom_headers: cx.custom_headers,
            };
            match self.card(source).await.as_ref() {
                Ok(read) => {
                    let mut found = card::check_card(expect, read);
                    found.extend(super::signature::check(
                        read,
                        cx.trusted_card_keys,
                        expect.signed,
                    ));
                    found
                }
                // an interaction of this contract already said it: once
                Err(_) if self.card_said_for(contract) => Vec::new(),
                Err(f) => vec![f.clone()],
            }
        })
    }

    fn declarations(&self) -> Vec<Declaration> {
        let used: Vec<String> = lock(&self.used).iter().cloned().collect();
        lock(&self.declared)
            .iter()
            .cloned()
            .map(|d| Declaration {
                used: used.clone(),
                ..d
            })
            .collect()
    }
}
