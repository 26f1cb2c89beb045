//! RFC 8785 canonical JSON (JCS) and the contract digest.
//!
//! The digest of a contract is the lowercase hex sha256 of its canonical
//! JSON form. The canonical form is written here rather than by
//! `serde_json_canonicalizer` (which tests use as the oracle): that crate
//! builds the whole string and re-encodes every key to UTF-16 for each
//! comparison, about 22 MB/s on a 10 MB contract; this writer sorts keys
//! with an ASCII fast path and streams straight into the hash.
//!
//! RFC 8785 in short: no whitespace; object members sorted by the UTF-16
//! code units of their names; strings escaped as ECMAScript's
//! `JSON.stringify` does (which is what serde_json's escaper does too);
//! numbers formatted as ECMAScript's `Number.prototype.toString` (ryu-js).
//! Integers above 2^53 therefore lose precision and must travel as strings
//! in contract bodies.

use std::cmp::Ordering;
use std::io::{self, Write};

use serde_json::{Map, Number, Value};
use sha2::{Digest, Sha256};

/// The RFC 8785 canonical form of a JSON value.
pub fn canonical_json(value: &Value) -> String {
    let mut out = Vec::new();
    write_canonical(&mut out, value).expect("writing to a Vec<u8> cannot fail");
    String::from_utf8(out).expect("canonical JSON of a serde_json::Value is UTF-8")
}

/// Lowercase hex sha256 over the canonical form of `value`.
pub fn digest(value: &Value) -> String {
    let mut sink = io::BufWriter::with_capacity(64 * 1024, HashSink(Sha256::new()));
    write_canonical(&mut sink, value).expect("hashing cannot fail");
    let sink = sink
        .into_inner()
        .map_err(|e| e.into_error())
        .expect("hashing cannot fail");
    hex::encode(sink.0.finalize())
}

/// Writes the canonical form of `value` to `w`.
pub fn write_canonical<W: Write>(w: &mut W, value: &Value) -> io::Result<()> {
    match value {
        Value::Null => w.write_all(b"null"),
        Value::Bool(true) => w.write_all(b"true"),
        Value::Bool(false) => w.write_all(b"false"),
        Value::Number(n) => write_number(w, n),
        Value::String(s) => write_string(w, s),
        Value::Array(items) => {
            w.write_all(b"[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    w.write_all(b",")?;
                }
                write_canonical(w, item)?;
            }
            w.write_all(b"]")
        }
        Value::Object(map) => write_object(w, map),
    }
}

fn write_object<W: Write>(w: &mut W, map: &Map<String, Value>) -> io::Result<()> {
    let mut members: Vec<(&String, &Value)> = map.iter().collect();
    members.sort_unstable_by(|a, b| utf16_cmp(a.0, b.0));
    w.write_all(b"{")?;
    for (i, (key, value)) in members.into_iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write_string(w, key)?;
        w.write_all(b":")?;
        write_canonical(w, value)?;
    }
    w.write_all(b"}")
}

/// Orders strings by their UTF-16 code units, as RFC 8785 section 3.2.3 requires.
/// For strings without characters above U+FFFF this is the order of code
/// points, which UTF-8 byte order preserves; only supplementary characters
/// (surrogate pairs, 0xD800..) sort differently from U+E000..U+FFFF.
fn utf16_cmp(a: &str, b: &str) -> Ordering {
    let simple = |s: &str| !s.bytes().any(|b| b >= 0xF0);
    if simple(a) && simple(b) {
        return a.as_bytes().cmp(b.as_bytes());
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

fn write_string<W: Write>(w: &mut W, s: &str) -> io::Result<()> {
    // serde_json escapes exactly as JSON.stringify does: \" \\ \b \f \n \r \t,
    // other control characters as \u00xx (lowercase), everything else literal.
    serde_json::to_writer(w, s).map_err(io::Error::other)
}

fn write_number<W: Write>(w: &mut W, n: &Number) -> io::Result<()> {
    const SAFE: u64 = 1 << 53;
    if let Some(i) = n.as_u64().filter(|i| *i <= SAFE) {
        return w.write_all(itoa::Buffer::new().format(i).as_bytes());
    }
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= SAFE) {
        return w.write_all(itoa::Buffer::new().format(i).as_bytes());
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 {
        return w.write_all(b"0"); // -0 is written as 0
    }
    w.write_all(ryu_js::Buffer::new().format_finite(f).as_bytes())
}

/// An `io::Write` that feeds a sha256.
struct HashSink(Sha256);

impl Write for HashSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
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
        let keys: Vec<String> = serde_json::from_str::<Map<String, Value>>(&canonical_json(&v))
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
        // RFC 8785 section 3.2.2.3 examples, and integers around 2^53.
        let v: Value = serde_json::from_str(
            r#"[333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001, -0.0, 9007199254740993, 1152921504606846976, -5]"#,
        )
        .expect("valid JSON");
        assert_eq!(
            canonical_json(&v),
            "[333333333.3333333,1e+30,4.5,0.002,1e-27,0,9007199254740992,1152921504606847000,-5]"
        );
    }

    #[test]
    fn escapes_strings_like_json_stringify() {
        let v = json!(["\u{7}\u{1f}\"\\\n\t\u{8}\u{c}\r", "\u{2028}é€😀", "/"]);
        assert_eq!(
            canonical_json(&v),
            "[\"\\u0007\\u001f\\\"\\\\\\n\\t\\b\\f\\r\",\"\u{2028}é€😀\",\"/\"]"
        );
    }

    #[test]
    fn agrees_with_the_rfc8785_example_of_section_3_2_2() {
        let input = r#"{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
            "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false]}"#;
        let v: Value = serde_json::from_str(input).expect("valid JSON");
        assert_eq!(
            canonical_json(&v),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    #[test]
    fn digest_ignores_key_order_and_whitespace_but_not_values() {
        let a: Value = serde_json::from_str(r#"{"b": 1, "a": [1, 2]}"#).expect("valid JSON");
        let b: Value = serde_json::from_str(r#"{ "a":[1,2],"b":1 }"#).expect("valid JSON");
        let c: Value = serde_json::from_str(r#"{"a": [2, 1], "b": 1}"#).expect("valid JSON");
        assert_eq!(digest(&a), digest(&b));
        assert_ne!(digest(&a), digest(&c));
        assert_eq!(
            digest(&a),
            hex::encode(Sha256::digest(br#"{"a":[1,2],"b":1}"#))
        );
    }

    /// Stored contracts are keyed by their digest: these documents' digests
    /// and canonical bytes are fixed for good (computed independently, by a
    /// Python RFC 8785 writer, before the writer here was last changed).
    #[test]
    fn digests_of_fixed_documents_never_change() {
        let contract = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
            "interactions": [{"type": "MCP/ToolCall", "description": "look up plan-1", "tool": "work_plan_lookup",
                "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"}, "sideEffects": {"records": 0},
                "result": {"structuredContent": {"status": "draft", "plan_id": "plan-1",
                    "steps": [{"title": "rotate keys", "done": false, "score": 0.25}]}}}],
            "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}});
        assert_eq!(
            digest(&contract),
            "abd8bc769bffcac627b98e1b992706b1368cc40be647c6600876a72fd5ac8812"
        );
        let torture = json!({"\u{20ac}": "Euro \u{2028} sign", "\r": "cr\u{7}\u{1f}\"\\\n\t\u{8}\u{c}",
            "\u{fb33}": [], "1": {}, "\u{1f600}": "\u{1f600} face", "\u{80}": null,
            "\u{f6}": [true, false, -5, 12.75, 1e30, 0.002, 1e-27, -0.0, 4.5], "a/b": "\u{7f}/", "": "empty key", "Z": "z"});
        assert_eq!(
            canonical_json(&torture),
            "{\"\":\"empty key\",\"\\r\":\"cr\\u0007\\u001f\\\"\\\\\\n\\t\\b\\f\",\"1\":{},\"Z\":\"z\",\"a/b\":\"\u{7f}/\",\
             \"\u{80}\":null,\"\u{f6}\":[true,false,-5,12.75,1e+30,0.002,1e-27,0,4.5],\"\u{20ac}\":\"Euro \u{2028} sign\",\
             \"\u{1f600}\":\"\u{1f600} face\",\"\u{fb33}\":[]}"
        );
        assert_eq!(
            digest(&torture),
            "44f1340a708b4557f4464900b3ce902b345ac5598b3cb5a87841a6e4834a224b"
        );
    }

    fn arbitrary_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "\\PC{0,8}|[\\x00-\\x1f\"\\\\]{0,3}|[\u{10000}-\u{10ffff}\u{e000}-\u{ffff}]{0,2}"
                .prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec(
                    (
                        "\\PC{0,6}|[\u{10000}-\u{10ffff}\u{e000}-\u{ffff}a]{0,2}",
                        inner
                    ),
                    0..6
                )
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_serde_json_canonicalizer_on_any_value(v in arbitrary_json()) {
            let oracle = serde_json_canonicalizer::to_string(&v).expect("oracle serialises any value");
            proptest::prop_assert_eq!(canonical_json(&v), oracle);
        }

        #[test]
        fn canonical_form_is_a_fixed_point(v in arbitrary_json()) {
            let once = canonical_json(&v);
            let again: Value = serde_json::from_str(&once).expect("canonical output is JSON");
            proptest::prop_assert_eq!(canonical_json(&again), once);
        }
    }
}
