//! `accord-verifier`: replays contracts against a running provider and
//! reports what broke, on which layer, with which stable reason code.
//!
//! - [`VerifyConfig`] in ([`config`]), [`VerificationReport`] out
//!   ([`report`]); `Err` ([`VerifyError`]) only for operational failure.
//! - [`Driver`] ([`driver`]): one per interaction family. [`HttpDriver`]
//!   replays `Synchronous/HTTP`, [`MessageDriver`] both message types the
//!   way Pact verifies message pacts; the A2A and MCP drivers plug in the
//!   same way through [`verify`].
//! - Around every driver: Pact-compatible provider states ([`states`]),
//!   observed side effects ([`observe`]), principals' bearer tokens,
//!   deadlines and negative cases ([`replay`]), probes as other
//!   principals (`probing`), all through one bounded
//!   client ([`transport`]).
//! - [`publish`]: Pact's verification-result body plus Accord's findings;
//!   [`render`]: text and JUnit output.

pub mod a2a;
mod approval;
mod bindings;
pub mod body;
pub mod canary;
pub mod compat;
mod conclude;
pub mod config;
pub mod context;
mod credential;
pub mod downstream;
pub mod driver;
pub mod error;
pub mod excerpt;
mod expected;
pub mod finding;
mod hot;
pub mod http_driver;
pub mod load;
pub mod mcp;
pub mod message_driver;
pub mod observe;
pub mod origin;
mod plan;
mod preflight;
mod probing;
pub mod publish;
mod reach;
pub mod release;
pub mod render;
mod repeats;
pub mod replay;
pub mod report;
pub mod request_url;
mod retry;
pub mod run;
pub mod schedule;
mod sends;
pub mod states;
pub mod trace;
pub mod transport;
mod transport_body;
mod transport_h1;
mod verdicts;

pub use config::{
    ContractSource, Filter, Limits, Linted, SourcedContract, Token, UnknownTool, VerifyConfig,
};
pub use driver::Driver;
pub use error::VerifyError;
pub use finding::{Finding, Layer, codes};
pub use http_driver::HttpDriver;
pub use mcp::McpDriver;
pub use message_driver::MessageDriver;
pub use origin::{Origin, OtherOrigin};
pub use report::{ContractResult, InteractionResult, Outcome, VerificationReport};
pub use run::{
    Progress, default_drivers, verify, verify_blocking, verify_on_threads, verify_on_threads_owned,
};
