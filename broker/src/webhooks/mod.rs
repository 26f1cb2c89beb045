//! Webhooks (issue 24): definitions (`model`, `store`), the template
//! parameters of each event (`params`, `sample` for test runs), rendering
//! (`template`), the events recorded in the transaction of their change
//! (`events`, into the `outbox`), the durable queue (`queue`) the worker fans
//! them out into and the worker that delivers it
//! (`worker`), the sweep that prunes old deliveries (`retention`), over the outbound HTTP module (`outbound`): the SSRF-safe sender —
//! every request checked against the allowlists (`accord serve
//! --webhook-*-allowlist`), its host resolved once and the connection pinned
//! to the checked addresses, so a webhook cannot reach the broker's own network.

pub mod events;
pub mod model;
pub mod outbound;
pub mod outbox;
pub mod params;
pub mod queue;
pub mod retention;
pub mod sample;
pub mod store;
pub mod template;
pub mod worker;
