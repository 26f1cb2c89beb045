//! HTTP handlers, one module per resource. Thin: parse, call the store (or
//! a domain module) inside `AppState::run`, render HAL+JSON.

pub mod admission;
pub mod badges;
pub mod body;
pub mod branches;
pub mod can_i_deploy;
pub mod coverage;
pub mod declarations;
pub mod declared;
pub mod deployments;
pub mod diagnostic;
pub mod drift_ladder;
pub mod drift_policy;
pub mod drift_reports;
pub mod environments;
pub mod evaluations;
pub mod findings;
pub mod for_verification;
pub mod index;
pub mod integrations;
pub mod labels;
pub mod matrix;
pub mod pact_resource;
pub mod pact_versions;
pub mod pacticipants;
pub mod pacts;
pub mod placed;
pub mod promotions;
pub mod provider_pacts;
pub mod publish;
pub mod publish_legacy;
pub mod registry;
pub mod releases;
pub mod reply;
pub mod tags;
pub mod tokens;
pub mod verifications;
pub mod version_view;
pub mod versions;
pub mod webhook_runs;
pub mod webhook_status;
pub mod webhooks;

/// A stored timestamp as the Pact Broker writes it (RFC 3339, UTC).
pub fn time(at: chrono::NaiveDateTime) -> String {
    at.and_utc()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
