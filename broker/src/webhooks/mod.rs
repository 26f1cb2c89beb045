//! Webhooks: Pact-compatible webhook definitions, their delivery, and the
//! outbound client those deliveries go through. `outbound` is the
//! SSRF-safe sender: every request is checked against the allowlists
//! (`accord serve --webhook-*-allowlist`), its host resolved once and the
//! connection pinned to the checked addresses, so a webhook cannot be used
//! to reach the broker's own network.

pub mod outbound;
