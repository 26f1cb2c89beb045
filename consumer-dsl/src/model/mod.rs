//! The contract document as domain types.
//!
//! A [`Contract`] is one consumer/provider pair with its interactions. The
//! JSON form is a superset of the Pact V4 pact file (see
//! `docs/contract-format.md`); [`crate::pact`] reads and writes it.

mod body;
mod body_codec;
mod contract;
mod http;
mod interaction;
mod message;
mod provider_state;
mod spec_version;

pub mod accord;
pub mod views;

pub use body::{Body, BodyContent};
pub use body_codec::{body_from_bytes, body_to_bytes};
pub use contract::{AccordMetadata, Contract, Pacticipant};
pub use http::{Headers, HttpInteraction, HttpRequest, HttpResponse, Query};
pub use interaction::{Interaction, InteractionMeta};
pub use message::{Message, MessageInteraction, SyncMessageInteraction};
pub use provider_state::ProviderState;
pub use spec_version::PactSpec;
