//! Runtime drift: what routers, gateways and sidecars observe of a provider
//! version in production, as contract signals only — the Agent Card and
//! `tools/list` digests they saw and counts of contract violations — never
//! a request, a response or a message.
//!
//! Pure: `report` is the report's shape and its checks, `payload` finds a
//! field that would carry content, `verified` compares observed digests
//! with verified ones, `reliance` says what a contract relies on, `judge` which
//! consumers a change breaks by their own expectations, `policy`
//! turns signals into actions. `assess` puts them together on a
//! connection and acts; `notify` queues the `drift_detected` webhooks. The store is `store::drift_reports` and
//! `store::drift_actions`, the handlers `api::drift_reports` and
//! `api::drift_policy`.

pub mod assess;
pub mod clear;
pub mod judge;
pub mod notify;
pub mod payload;
pub mod policy;
pub mod reliance;
pub mod report;
pub mod verified;
