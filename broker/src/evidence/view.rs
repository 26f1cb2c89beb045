//! A version's evidence record as the API (`evidence` in `GET …/admission`)
//! and the provider version page show it. A record whose `expires_at`
//! passed is shown `expired` with the reason, whether or not the sweep has
//! dropped the state yet.

use serde_json::{Value, json};

use crate::store::StoreError;
use crate::store::evidence::Record;

fn parsed(what: &'static str, text: &str) -> Result<Value, StoreError> {
    serde_json::from_str(text).map_err(|source| StoreError::CorruptJson { what, source })
}

/// True when the record's evidence expired by `now`.
pub fn expired(r: &Record, now: chrono::NaiveDateTime) -> bool {
    r.expires_at <= now
}

/// The `evidence` object.
pub fn json(r: &Record, now: chrono::NaiveDateTime) -> Result<Value, StoreError> {
    let mut security = json!({"verified": r.security});
    if !r.security_reason.is_empty() {
        security["reason"] = json!(r.security_reason);
    }
    let mut out = json!({
        "cardDigest": r.card_digest,
        "toolsDigests": parsed("evidence tools digests", &r.tools_digests)?,
        "contractDigests": parsed("evidence contract digests", &r.contract_digests)?,
        "producerDigest": r.producer_digest,
        "profiles": parsed("evidence profiles", &r.profiles)?,
        "harnessVersion": r.harness_version,
        "verifications": parsed("evidence verification ids", &r.verification_ids)?,
        "security": security,
        "verifiedAt": crate::api::time(r.verified_at),
        "expiresAt": crate::api::time(r.expires_at),
        "expired": expired(r, now),
    });
    if expired(r, now) {
        out["expiredReason"] = json!(super::sweep::expired_reason(r.expires_at));
    }
    Ok(out)
}

/// The record as label/value lines for the page.
pub fn lines(r: &Record, now: chrono::NaiveDateTime) -> Result<Vec<(String, String)>, StoreError> {
    let j = json(r, now)?;
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => "none".to_owned(),
        other => other.to_string(),
    };
    let list = |v: &Value| {
        v.as_array()
            .map(|a| a.iter().map(text).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    };
    let mut out = vec![("Agent Card".to_owned(), text(&j["cardDigest"]))];
    if let Some(tools) = j["toolsDigests"].as_object() {
        for (profile, digest) in tools {
            out.push((format!("Tools ({profile})"), text(digest)));
        }
    }
    out.push(("Contracts".into(), list(&j["contractDigests"])));
    out.push(("Producer artifact".into(), text(&j["producerDigest"])));
    out.push(("Profiles".into(), list(&j["profiles"])));
    out.push(("Harness".into(), r.harness_version.clone()));
    out.push(("Verifications".into(), list(&j["verifications"])));
    let security = match r.security_reason.as_str() {
        "" => "verified".to_owned(),
        why => format!("not verified: {why}"),
    };
    out.push(("Security".into(), security));
    out.push(("Verified at".into(), text(&j["verifiedAt"])));
    let expiry = match j.get("expiredReason") {
        Some(why) => format!("{} (expired: {})", text(&j["expiresAt"]), text(why)),
        None => text(&j["expiresAt"]),
    };
    out.push(("Expires at".into(), expiry));
    Ok(out)
}
