//! Every send of one interaction (its `repeat`s) between observations:
//! each answer judged, the counters judged after each send or once over
//! all, the key a repeat keeps, and the fields that must not change. A
//! fault several sends show is one finding naming them (`repeats.rs`). A
//! send that never reached the provider is its own finding and ends the
//! sends: no counter is judged for it (the counters did not move because
//! nothing arrived: one fault, one finding).

use accord_dsl::Interaction;
use accord_dsl::model::accord::RepeatJudgement;
use serde_json::Value;

use crate::driver::{Driver, Exchange, Sent};
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::observe::{Counters, judge_side_effects};
use crate::replay::MAX_REPEAT;

/// What the sends of one interaction came to.
#[derive(Debug, Default)]
pub(crate) struct Sends {
    pub findings: Vec<Finding>,
    pub warnings: Vec<Finding>,
    /// The last reading: the counters as the sends left them.
    pub last: Option<Counters>,
    /// Every send reached the provider (see [`reached`]).
    pub reached: bool,
}

/// True unless nothing of the send reached the provider, or its answer
/// broke off on the way: the driver made no request ([`Sent::not_sent`]),
/// or a request failed at the transport level (REQUEST_FAILED).
fn reached(sent: &Sent) -> bool {
    !sent.not_sent
        && !sent
            .findings
            .iter()
            .any(|f| f.reason_code == codes::REQUEST_FAILED)
}

/// Sends every repeat, judging each answer and the counters (after each
/// send, or once over all of them).
pub(crate) async fn send_all(
    driver: &dyn Driver,
    interaction: &Interaction,
    exchange: &Exchange<'_>,
    approval: Option<&crate::approval::Resolved>,
    release: Option<&crate::release::Release>,
) -> Result<Sends, VerifyError> {
    let meta = interaction.meta();
    let declared = meta.expectations.side_effects.as_ref();
    let repeat = meta.expectations.repeat.as_ref();
    let times = repeat.map_or(1, |r| r.times.max(1));
    if times > MAX_REPEAT {
        return Err(VerifyError::RepeatTooLarge {
            interaction: meta.description.clone(),
            times,
            max: MAX_REPEAT,
        });
    }
    let each_matches = repeat.is_none_or(|r| r.each_matches);
    let per_send = repeat.is_some_and(|r| r.side_effects == RepeatJudgement::Each);
    let mut before = exchange.observe().await?;
    let first = before.clone();
    let mut findings = crate::repeats::Seen::default();
    let mut warnings = crate::repeats::Seen::default();
    // counters a driver already judged (an MCP tool's annotations): the
    // engine's own judgement of the same counter would repeat the fault
    let mut judged_counters: Vec<String> = Vec::new();
    // the approval owns its counter unless sideEffects names it
    if let Some(a) = approval
        && declared.is_none_or(|d| !d.contains_key(&a.counter))
    {
        judged_counters.push(a.counter.clone());
    }
    // the answer's own finding explains the counters (`explains_counters`)
    let mut explained = false;
    // one seed for the same request each time; with a key, one per send
    let seed: u64 = rand::random();
    let key = repeat.and_then(|r| r.key.as_deref());
    let views = repeat.is_some_and(|r| key.is_some() || !r.same_fields.is_empty());
    let mut key_value: Option<Value> = None;
    let mut answers = Vec::new();
    for n in 0..times {
        let fresh = (n == 0 || per_send).then_some(()).and(before.as_ref());
        let this_send = Exchange {
            observed: fresh,
            generation: crate::driver::Generation {
                seed: if key.is_some() {
                    seed.wrapping_add(u64::from(n))
                } else {
                    seed
                },
                pin: key.zip(key_value.as_ref()),
                views,
            },
            release: release.filter(|_| n + 1 == times && before.is_none()),
            ..*exchange
        };
        let mut sent = driver.send(interaction, &this_send).await?;
        let reached_now = reached(&sent);
        if let (0, Some(k), true) = (n, key, reached_now) {
            key_value = crate::verdicts::key_of(sent.request.as_ref(), k);
            if key_value.is_none() && times > 1 {
                findings.once([crate::verdicts::key_missing(k)]);
            }
        }
        answers.push(sent.answer.take());
        let read_after = sent.after.take();
        judged_counters.append(&mut sent.counters_judged);
        explained |= crate::verdicts::explains_counters(meta, &sent);
        if n == 0 || each_matches || !reached_now {
            judged_counters.extend(
                sent.findings
                    .iter()
                    .filter(|f| f.layer == Layer::Behavior)
                    .map(|f| f.path.clone()),
            );
            warnings.per_send(n, std::mem::take(&mut sent.warnings));
            findings.per_send(n, crate::verdicts::judge_send(meta, sent));
        }
        if !reached_now {
            // nothing arrived: the counters are not judged, nothing more is sent
            return Ok(Sends {
                findings: findings.into_findings(times),
                warnings: warnings.into_findings(times),
                last: before,
                reached: false,
            });
        }
        let last = n + 1 == times;
        if let Some(b) = before.as_ref().filter(|_| per_send || last) {
            let after = match read_after {
                Some(read) => read,
                None => exchange.observe().await?.unwrap_or_default(),
            };
            // the approval is judged over all sends; its counter once
            if let (true, false, Some(a), Some(f)) = (last, explained, approval, first.as_ref()) {
                let found = crate::approval::judge(a, declared, f, &after);
                if found.is_some() {
                    judged_counters.push(a.counter.clone());
                }
                findings.once(found);
            }
            let mut own = judge_side_effects(&meta.description, declared, b, &after)?;
            own.retain(|f| !judged_counters.contains(&f.path) && !explained);
            if times > 1 && !per_send {
                own.iter_mut().for_each(|f| {
                    crate::verdicts::idempotency(f, declared, times, key.zip(key_value.as_ref()))
                });
            }
            if per_send {
                findings.per_send(n, own);
            } else {
                findings.once(own);
            }
            before = Some(after);
        }
    }
    if let Some(r) = repeat.filter(|_| times > 1) {
        let failed = !findings.is_empty();
        findings.once(crate::verdicts::same_fields(
            &r.same_fields,
            &answers,
            failed,
        ));
    }
    Ok(Sends {
        findings: findings.into_findings(times),
        warnings: warnings.into_findings(times),
        last: before,
        reached: true,
    })
}
