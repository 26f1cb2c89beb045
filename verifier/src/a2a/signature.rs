//! Signed Agent Cards (A2A v1.0 §8.4): each `signatures[]` entry is a JWS
//! with a detached payload — the card without `signatures`, in RFC 8785
//! canonical JSON — verified (with the `jsonwebtoken` crate) against the
//! keys the consumer trusts (`--trust-card-key`, JWK or JWKS).
//!
//! | the contract | the card | finding |
//! | --- | --- | --- |
//! | `signed: true` | no signature, or none that a trusted key verifies (no key given, an unknown `kid`, an algorithm the key does not fit, a signature that does not verify) | CARD_SIGNATURE_INVALID (declaration) |
//!
//! A contract that does not require a signed card does not judge its
//! signatures.

use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

use crate::finding::{Finding, Layer, codes};

/// Why one signature did not verify, or `Ok` when it did.
fn verify_one(signature: &Value, payload: &str, trusted: &[Jwk]) -> Result<(), String> {
    let protected = signature
        .get("protected")
        .and_then(Value::as_str)
        .ok_or("a signature without `protected`")?;
    let sig = signature
        .get("signature")
        .and_then(Value::as_str)
        .ok_or("a signature without `signature`")?;
    let header: Value = URL_SAFE_NO_PAD
        .decode(protected)
        .ok()
        .and_then(|h| serde_json::from_slice(&h).ok())
        .ok_or("a `protected` header that is not base64url JSON")?;
    let alg = header
        .get("alg")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let algorithm = Algorithm::from_str(alg).map_err(|_| format!("algorithm `{alg}` unknown"))?;
    let kid = header.get("kid").and_then(Value::as_str);
    let keys: Vec<&Jwk> = trusted
        .iter()
        .filter(|k| kid.is_none() || k.common.key_id.as_deref() == kid)
        .collect();
    if keys.is_empty() {
        return Err(match kid {
            Some(k) => format!("no trusted key has kid `{k}`"),
            None => "no trusted key".to_owned(),
        });
    }
    let input = format!("{protected}.{payload}");
    let verified = keys.iter().any(|jwk| {
        DecodingKey::from_jwk(jwk).is_ok_and(|key| {
            jsonwebtoken::crypto::verify(sig, input.as_bytes(), &key, algorithm).unwrap_or(false)
        })
    });
    if verified {
        Ok(())
    } else {
        Err(format!(
            "the {alg} signature does not verify with the trusted key"
        ))
    }
}

/// The card's signatures against the trusted keys, where the contract
/// requires a signed card (`agentCard.signed`).
pub fn check(card: &Value, trusted: &[Value], required: bool) -> Vec<Finding> {
    if !required {
        return Vec::new();
    }
    let keys: Vec<Jwk> = trusted
        .iter()
        .filter_map(|k| serde_json::from_value(k.clone()).ok())
        .collect();
    let signatures = card
        .get("signatures")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let why = if signatures.is_empty() {
        Some("the card carries no signature".to_owned())
    } else {
        let mut unsigned = card.clone();
        if let Some(o) = unsigned.as_object_mut() {
            o.remove("signatures");
        }
        let canonical = accord_dsl::canonical::canonical_json(&unsigned);
        let payload = URL_SAFE_NO_PAD.encode(canonical.as_bytes());
        let results: Vec<Result<(), String>> = signatures
            .iter()
            .map(|s| verify_one(s, &payload, &keys))
            .collect();
        if results.iter().any(Result::is_ok) {
            None
        } else {
            let reasons: Vec<String> = results.into_iter().filter_map(Result::err).collect();
            let given = if keys.is_empty() {
                " (no --trust-card-key was given)"
            } else {
                ""
            };
            Some(format!(
                "no signature verifies: {}{given}",
                reasons.join("; ")
            ))
        }
    };
    why.map(|detail| {
        Finding::new(
            Layer::Declaration,
            codes::CARD_SIGNATURE_INVALID,
            "agentCard.signed",
            detail,
        )
    })
    .into_iter()
    .collect()
}
