//! accord-broker: a Pact-Broker-compatible contract broker.
//!
//! Stores contracts by consumer version, branch, tag, environment,
//! deployment and release on SQLite (embedded default) or PostgreSQL, and
//! answers the matrix and can-i-deploy. Speaks the Pact Broker's HAL+JSON
//! API so the official Pact clients work against it unchanged.
//!
//! Layers: `api` (thin handlers) → `store` (diesel, one module per
//! aggregate) → `db` (one connection type over both backends). Every error
//! of a request is a `BrokerError` (`error.rs`, the one mapping point).

pub mod admission;
pub mod api;
pub mod audience;
pub mod auth;
pub mod config;
pub mod contract;
pub mod coverage;
pub mod db;
pub mod drift;
pub mod edge;
pub mod error;
pub mod evidence;
pub mod hal;
pub mod limits;
pub mod matrix;
pub mod metadata;
pub mod names;
pub mod negotiate;
pub mod parsed;
pub mod publishing;
pub mod routes;
pub mod schema;
pub mod selection;
pub mod server;
pub mod state;
pub mod store;
pub mod token_cache;
pub mod web;
pub mod webhooks;
pub mod wire;

pub use config::BrokerConfig;
pub use error::BrokerError;
pub use server::{RunningBroker, StartError, start};
