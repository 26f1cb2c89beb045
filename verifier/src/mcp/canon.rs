//! A JSON value read straight into its RFC 8785 canonical text, without a
//! `serde_json::Value` in between: a listing keeps each tool as this text
//! (a few bytes per byte received, where a `Value` tree with ordered maps
//! costs tens), digests it as it is and parses one tool only when a check
//! needs it. The text is byte for byte what `accord_dsl::canonical` writes
//! for the same value (the tests compare them).

use std::cmp::Ordering;
use std::fmt;

use accord_dsl::canonical::canonical_json;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// Reads one value as its canonical text.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Canonical;

impl<'de> DeserializeSeed<'de> for Canonical {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(self)
    }
}

fn scalar(value: Value) -> String {
    canonical_json(&value)
}

impl<'de> Visitor<'de> for Canonical {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Ok(scalar(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(scalar(Value::Number(v.into())))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(scalar(Value::Number(v.into())))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        Ok(Number::from_f64(v).map_or_else(|| "null".to_owned(), |n| scalar(Value::Number(n))))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(scalar(Value::String(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(scalar(Value::String(v)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Ok("null".to_owned())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<String, A::Error> {
        let mut out = String::from("[");
        while let Some(item) = seq.next_element_seed(Canonical)? {
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&item);
        }
        out.push(']');
        Ok(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<String, A::Error> {
        let mut members: Vec<(String, String)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Canonical)?;
            members.push((key, value));
        }
        Ok(object(members))
    }
}

/// The canonical text of an object's members: sorted by the UTF-16 code
/// units of their names; of a repeated name the last value counts, as
/// serde_json's map keeps it.
pub(super) fn object(mut members: Vec<(String, String)>) -> String {
    members.reverse();
    // stable: of equal names the last received now comes first
    members.sort_by(|a, b| utf16_cmp(&a.0, &b.0));
    members.dedup_by(|later, first| later.0 == first.0);
    let mut out = String::from("{");
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&scalar(Value::String(key.clone())));
        out.push(':');
        out.push_str(value);
    }
    out.push('}');
    out
}

/// RFC 8785 section 3.2.3's order (as `accord_dsl::canonical` sorts).
fn utf16_cmp(a: &str, b: &str) -> Ordering {
    let simple = |s: &str| !s.bytes().any(|b| b >= 0xF0);
    if simple(a) && simple(b) {
        return a.as_bytes().cmp(b.as_bytes());
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeSeed;

    use super::*;

    fn canonical(text: &str) -> Option<String> {
        let mut d = serde_json::Deserializer::from_str(text);
        Canonical.deserialize(&mut d).ok()
    }

    #[test]
    fn the_text_is_what_the_contract_digest_writes_for_the_same_value() {
        for text in [
            r#"{"b": [1, 2.50, -0, 1e3, 18446744073709551615], "a": {"z": null, "é": "\u0007x\"", "😀": true, "\uffff": false}}"#,
            r#"{"a": 1, "a": 2, "c": {"a": [], "b": {}}}"#,
            r#"[1E400]"#,
            r#""just a string""#,
        ] {
            // 1E400 is out of range for both readers
            let value = serde_json::from_str::<Value>(text).ok();
            assert_eq!(
                canonical(text),
                value.as_ref().map(canonical_json),
                "{text}"
            );
        }
    }
}
