//! RFC 8785 canonical JSON and the contract digest.
//!
//! The digest of a contract is the lowercase hex sha256 of its canonical
//! JSON form. Canonicalisation is done by `serde_json_canonicalizer`, which
//! passes the RFC 8785 test vectors; note that RFC 8785 formats numbers as
//! ECMAScript does, so integers above 2^53 lose precision and must travel
//! as strings in contract bodies.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The RFC 8785 canonical form of a JSON value.
pub fn canonical_json(value: &Value) -> String {
    serde_json_canonicalizer::to_string(value)
        .expect("serializing a serde_json::Value to canonical JSON cannot fail: keys are strings")
}

/// Lowercase hex sha256 over the canonical form of `value`.
pub fn digest(value: &Value) -> String {
    let bytes = serde_json_canonicalizer::to_vec(value)
        .expect("serializing a serde_json::Value to canonical JSON cannot fail: keys are strings");
    hex::encode(Sha256::digest(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sorts_keys_by_utf16_code_units_as_rfc8785_requires() {
        // RFC 8785 section 3.2.3.
        let v = json!({"\u{20ac}": "Euro Sign", "\r": "Carriage Return", "\u{fb33}": "Hebrew Letter Dalet With Dagesh",
            "1": "One", "\u{1f600}": "Emoji: Grinning Face", "\u{80}": "Control", "\u{f6}": "Latin Small Letter O With Diaeresis"});
        let keys: Vec<String> =
            serde_json::from_str::<serde_json::Map<String, Value>>(&canonical_json(&v))
                .expect("canonical output is JSON")
                .keys()
                .cloned()
                .collect();
        assert_eq!(
            keys,
            [
                "\r",
                "1",
                "\u{80}",
                "\u{f6}",
                "\u{20ac}",
                "\u{1f600}",
                "\u{fb33}"
            ]
        );
    }

    #[test]
    fn formats_numbers_like_ecmascript() {
        // RFC 8785 section 3.2.2.3 examples.
        let v: Value = serde_json::from_str(
            r#"[333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001, -0.0]"#,
        )
        .expect("valid JSON");
        assert_eq!(
            canonical_json(&v),
            "[333333333.3333333,1e+30,4.5,0.002,1e-27,0]"
        );
    }

    #[test]
    fn digest_ignores_key_order_and_whitespace_but_not_values() {
        let a: Value = serde_json::from_str(r#"{"b": 1, "a": [1, 2]}"#).expect("valid JSON");
        let b: Value = serde_json::from_str(r#"{ "a":[1,2],"b":1 }"#).expect("valid JSON");
        let c: Value = serde_json::from_str(r#"{"a": [2, 1], "b": 1}"#).expect("valid JSON");
        assert_eq!(digest(&a), digest(&b));
        assert_ne!(digest(&a), digest(&c));
        assert_eq!(digest(&a).len(), 64);
    }
}
