//! Runtime drift: what routers, gateways and sidecars observe of a provider
//! version in production, as contract signals only — the Agent Card and
//! `tools/list` digests they saw and counts of contract violations — never
//! a request, a response or a message.
//!
//! Pure: `report` is the report's shape and its checks, `payload` finds a
//! field that would carry content. The store is `store::drift_reports`,
//! the handlers `api::drift_reports`.

pub mod payload;
pub mod report;
