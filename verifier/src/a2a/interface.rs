//! Which of the card's interfaces an `A2A/Task` interaction is replayed
//! on: pure.
//!
//! The card's `supportedInterfaces` of version 1.x whose binding the
//! verifier speaks (JSON-RPC, HTTP+JSON; gRPC is refused with a reason),
//! in the card's order. `--a2a-binding` picks one binding; otherwise the
//! first interface of a binding the contract's `agentCard.interfaces`
//! relies on, else the card's first. The card is the provider's: an
//! interface is admitted (`admit`) with credentials only on an origin the
//! user chose (`crate::origin`).

use accord_dsl::model::accord::AgentCardExpectations;
use serde_json::Value;

use super::wire::{Binding, Interface};
use crate::config::A2aBinding;
use crate::finding::{Finding, Layer, codes};
use crate::origin::{Origins, Reach};

/// The interfaces of a card the verifier can speak, in the card's order.
pub fn spoken(card: &Value) -> Vec<Interface> {
    let Some(list) = card.get("supportedInterfaces").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .filter(|i| {
            i.get("protocolVersion")
                .and_then(Value::as_str)
                .is_some_and(|v| v.split('.').next() == Some("1"))
        })
        .filter_map(|i| {
            Some(Interface {
                binding: Binding::of(i.get("protocolBinding")?.as_str()?)?,
                url: i.get("url")?.as_str()?.to_owned(),
                tenant: i
                    .get("tenant")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                    .map(str::to_owned),
                credentials: false,
            })
        })
        .collect()
}

/// The interface to replay on, or the finding that says why there is none.
pub fn choose(
    card: &Value,
    wanted: A2aBinding,
    relied: Option<&AgentCardExpectations>,
) -> Result<Interface, Box<Finding>> {
    let spoken = spoken(card);
    let by = |b: Binding| spoken.iter().find(|i| i.binding == b).cloned();
    let chosen = match wanted {
        A2aBinding::JsonRpc => by(Binding::JsonRpc),
        A2aBinding::HttpJson => by(Binding::HttpJson),
        // `all` is split into one run per binding before any send
        A2aBinding::Auto | A2aBinding::All => relied
            .into_iter()
            .flat_map(|c| &c.interfaces)
            .filter_map(|i| Binding::of(&i.protocol_binding))
            .find_map(by)
            .or_else(|| spoken.first().cloned()),
    };
    chosen.ok_or_else(|| {
        let offered: Vec<String> = card
            .get("supportedInterfaces")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|i| {
                format!(
                    "{} {}",
                    i.get("protocolBinding")
                        .and_then(Value::as_str)
                        .unwrap_or("?"),
                    i.get("protocolVersion")
                        .and_then(Value::as_str)
                        .unwrap_or("?")
                )
            })
            .collect();
        let asked = match wanted {
            A2aBinding::Auto | A2aBinding::All => "JSONRPC or HTTP+JSON interface".to_owned(),
            A2aBinding::JsonRpc => "JSONRPC interface".to_owned(),
            A2aBinding::HttpJson => "HTTP+JSON interface".to_owned(),
        };
        let detail = format!(
            "the Agent Card offers no {asked} of A2A 1.x (it offers: {}); gRPC is not replayed",
            if offered.is_empty() {
                "none".to_owned()
            } else {
                offered.join(", ")
            }
        );
        Box::new(Finding::new(
            Layer::Declaration,
            codes::UNSUPPORTED_PROTOCOL_BINDING,
            "supportedInterfaces",
            detail,
        ))
    })
}

/// The chosen interface as it may be used: with credentials on an origin
/// the user chose; on another origin without them (with the finding that
/// says so) when the user allows it; else not at all (`Err`, the finding).
pub fn admit(
    mut chosen: Interface,
    origins: &Origins,
) -> Result<(Interface, Option<Finding>), Box<Finding>> {
    let finding = |what: String| {
        let detail = format!(
            "the Agent Card's {} interface {} is not on an origin credentials go to ({}): {what}",
            chosen.binding.as_str(),
            chosen.url,
            origins.given()
        );
        Finding::new(
            Layer::Declaration,
            codes::INTERFACE_URL_OTHER_ORIGIN,
            "supportedInterfaces",
            detail,
        )
        .values(
            Some(serde_json::json!(origins.given())),
            Some(Value::String(chosen.url.clone())),
        )
    };
    match origins.reach(&chosen.url) {
        Reach::Given => {
            chosen.credentials = true;
            Ok((chosen, None))
        }
        Reach::Uncredentialed(origin) => {
            let f = finding(format!(
                "replayed on {origin} without credentials or --header values"
            ));
            Ok((chosen, Some(f)))
        }
        Reach::Refused(why) => Err(Box::new(finding(format!(
            "{why}; nothing was sent there (--allow-origin trusts an origin)"
        )))),
    }
}

/// Whether the card also offers A2A 0.x (an interface of version `0.…`,
/// or a v0.3 card's top-level `protocolVersion`): a request without
/// `A2A-Version` is then legitimately served as 0.3.
pub fn speaks_v03(card: &Value) -> bool {
    let old = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .is_some_and(|v| v.starts_with("0."))
    };
    old(card.get("protocolVersion"))
        || card
            .get("supportedInterfaces")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|i| old(i.get("protocolVersion")))
}

/// An interface on plain HTTP to another host than this one: credentials
/// and task data would cross the network in the clear. Loopback is the
/// local test setup, and allowed.
pub fn insecure(interface: &Interface) -> Option<Finding> {
    let url = reqwest::Url::parse(&interface.url).ok()?;
    let host = url
        .host_str()?
        .trim_start_matches('[')
        .trim_end_matches(']');
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    (url.scheme() == "http" && !loopback).then(|| {
        let detail = format!(
            "the {} interface {} is not HTTPS",
            interface.binding.as_str(),
            interface.url
        );
        Finding::new(
            Layer::Declaration,
            codes::INTERFACE_URL_NOT_HTTPS,
            "supportedInterfaces",
            detail,
        )
    })
}

/// A skill the interaction names that the card does not declare.
pub fn skill_missing(card: &Value, skill: &str) -> Option<Finding> {
    let declared = card
        .get("skills")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|s| s.get("id").and_then(Value::as_str) == Some(skill));
    (!declared).then(|| {
        let detail = format!(
            "the interaction addresses skill `{skill}`, which the Agent Card does not declare"
        );
        Finding::new(Layer::Declaration, codes::SKILL_MISSING, "skill", detail)
    })
}

#[cfg(test)]
mod tests {
    use accord_dsl::model::accord::InterfaceExpectation;
    use serde_json::json;

    use super::*;

    fn card() -> Value {
        json!({"supportedInterfaces": [
            {"url": "grpc.example:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
            {"url": "http://a/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "http://a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "acme"},
            {"url": "http://a/old", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}]})
    }

    #[test]
    fn the_cards_first_spoken_interface_unless_the_contract_relies_on_another() {
        let got = choose(&card(), A2aBinding::Auto, None).expect("one");
        assert_eq!(got.url, "http://a/rpc");
        let relied = AgentCardExpectations {
            interfaces: vec![InterfaceExpectation {
                protocol_binding: "HTTP+JSON".into(),
                protocol_version: "1.0".into(),
            }],
            ..AgentCardExpectations::default()
        };
        let got = choose(&card(), A2aBinding::Auto, Some(&relied)).expect("one");
        assert_eq!(
            (got.url.as_str(), got.tenant.as_deref()),
            ("http://a/rest", Some("acme"))
        );
    }

    #[test]
    fn plain_http_is_insecure_off_loopback_and_an_unknown_skill_is_missing() {
        let remote = Interface {
            binding: Binding::JsonRpc,
            url: "http://agent.example/a2a".into(),
            tenant: None,
            credentials: false,
        };
        assert!(insecure(&remote).is_some());
        let local = Interface {
            url: "http://127.0.0.1:8080/a2a".into(),
            ..remote.clone()
        };
        assert!(insecure(&local).is_none());
        let tls = Interface {
            url: "https://agent.example/a2a".into(),
            ..remote
        };
        assert!(insecure(&tls).is_none());
        assert!(speaks_v03(&super::tests::card()));
        assert!(!speaks_v03(&json!({"supportedInterfaces": []})));
        let card = json!({"skills": [{"id": "work-planning"}]});
        assert!(skill_missing(&card, "work-planning").is_none());
        assert_eq!(
            skill_missing(&card, "shred").map(|f| f.reason_code),
            Some("SKILL_MISSING")
        );
    }

    #[test]
    fn a_card_without_a_spoken_interface_is_an_unsupported_binding() {
        let only_grpc = json!({"supportedInterfaces": [{"url": "g:1", "protocolBinding": "GRPC", "protocolVersion": "1.0"}]});
        let f = choose(&only_grpc, A2aBinding::Auto, None).expect_err("none");
        assert_eq!(f.reason_code, "UNSUPPORTED_PROTOCOL_BINDING");
        assert!(f.detail.contains("GRPC 1.0"));
        let f = choose(&only_grpc, A2aBinding::HttpJson, None).expect_err("none");
        assert!(f.detail.contains("HTTP+JSON"));
    }
}
