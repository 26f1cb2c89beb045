//! A [`Reply`] made up for the unit tests of the modules that judge one.

use std::time::Duration;

use serde_json::Value;

use super::wire::{Reply, RpcError};

impl Reply {
    /// A reply with `status` and `outcome`, nothing else.
    pub(super) fn answered(status: u16, outcome: Result<Result<Value, RpcError>, String>) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            sse: false,
            outcome,
            ack: Duration::ZERO,
            total: Duration::ZERO,
            body: Vec::new(),
            task: None,
        }
    }
}
