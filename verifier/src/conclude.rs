//! After the interactions: the contract-level expectations (`agentCard`,
//! `mcpTools`), each judged once by the driver that claims it; an
//! expectation no driver claims is a finding, so a contract never passes on
//! what was not checked. Then every driver closes what it kept open.

use std::sync::Arc;

use crate::config::SourcedContract;
use crate::driver::{ContractCheck, ContractPart};
use crate::finding::{Finding, Layer, codes};
use crate::replay::Context;

/// After the interactions: each contract's own expectations judged by the
/// driver that handles them (an expectation no driver judges is a finding:
/// it never passes silently), then every driver closes what it kept open.
pub async fn conclude(cx: &Context, contracts: &[Arc<SourcedContract>]) -> Vec<Vec<Finding>> {
    let check = ContractCheck {
        transport: &cx.transport,
        base_url: &cx.base_url,
        mcp_url: &cx.mcp_url,
        agent_card_url: &cx.agent_card_url,
        principals: &cx.principals,
        custom_headers: &cx.custom_headers,
        trusted_card_keys: &cx.trusted_card_keys,
    };
    let mut all = Vec::new();
    for sourced in contracts {
        let contract = &sourced.contract;
        let mut findings = Vec::new();
        for part in ContractPart::of(contract) {
            match cx
                .drivers
                .iter()
                .find(|d| d.contract_parts().contains(&part))
            {
                Some(d) => findings.extend(d.check_contract(contract, &check).await),
                None => findings.push(Finding::new(
                    Layer::Declaration,
                    codes::EXPECTATION_UNCHECKED,
                    part.as_str(),
                    format!(
                        "no driver of this verifier judges `{}` expectations yet",
                        part.as_str()
                    ),
                )),
            }
        }
        all.push(findings);
    }
    for d in &cx.drivers {
        d.finish(&cx.transport).await;
    }
    all
}
