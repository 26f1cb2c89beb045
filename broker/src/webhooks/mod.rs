//! Webhooks: definitions, the durable delivery queue, the worker, and the
//! outbound HTTP they send with.

pub mod outbound;
