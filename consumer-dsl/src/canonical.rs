//! RFC 8785 canonical JSON (JCS) and the contract digest.
//!
//! The digest of a contract is the lowercase hex sha256 of its canonical
//! JSON form. The canonical form is written here rather than by
//! `serde_json_canonicalizer` (which tests use as the oracle): that crate
//! builds the whole string and re-encodes every key to UTF-16 for each
//! comparison, about 22 MB/s on a 10 MB contract; this writer sorts keys
//! with an ASCII fast path, copies unescaped runs of a string whole, keeps
//! one stack of object members for every nesting level, and hashes its
//! output in 64 KiB blocks.
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
    let mut out = Canon::new(Vec::new());
    out.value(value);
    let Canon { sink, .. } = out;
    // every byte written is either copied from a `str` or ASCII
    String::from_utf8(sink).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Lowercase hex sha256 over the canonical form of `value`.
pub fn digest(value: &Value) -> String {
    let mut out = Canon::new(Hashed::default());
    out.value(value);
    let Canon { mut sink, .. } = out;
    sink.flush_block();
    hex::encode(sink.hash.finalize())
}

/// Writes the canonical form of `value` to `w`.
pub fn write_canonical<W: Write>(w: &mut W, value: &Value) -> io::Result<()> {
    w.write_all(canonical_json(value).as_bytes())
}

/// Where canonical bytes go: a growing buffer, or a hash fed in blocks.
trait Sink {
    fn put(&mut self, bytes: &[u8]);
    fn byte(&mut self, b: u8);
    /// Called between values: a chance to hand a full block on.
    fn settle(&mut self) {}
}

impl Sink for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        self.push(b);
    }
}

/// Bytes gathered in one buffer and hashed a block at a time.
struct Hashed {
    block: Vec<u8>,
    hash: Sha256,
}

/// Bytes hashed at once (the buffer only grows past it for one long string).
const BLOCK: usize = 64 * 1024;

impl Default for Hashed {
    fn default() -> Self {
        Hashed {
            block: Vec::with_capacity(BLOCK + 4096),
            hash: Sha256::new(),
        }
    }
}

impl Hashed {
    fn flush_block(&mut self) {
        self.hash.update(&self.block);
        self.block.clear();
    }
}

impl Sink for Hashed {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.block.extend_from_slice(bytes);
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        self.block.push(b);
    }

    #[inline]
    fn settle(&mut self) {
        if self.block.len() >= BLOCK {
            self.flush_block();
        }
    }
}

/// The writer: the sink, and one stack of object members shared by every
/// nesting level (each object sorts its own slice of it), so an object
/// costs no allocation of its own.
struct Canon<'v, S> {
    sink: S,
    members: Vec<(&'v str, &'v Value)>,
}

impl<'v, S: Sink> Canon<'v, S> {
    fn new(sink: S) -> Self {
        Canon {
            sink,
            members: Vec::new(),
        }
    }

    fn value(&mut self, value: &'v Value) {
        match value {
            Value::Null => self.sink.put(b"null"),
            Value::Bool(true) => self.sink.put(b"true"),
            Value::Bool(false) => self.sink.put(b"false"),
            Value::Number(n) => write_number(&mut self.sink, n),
            Value::String(s) => write_string(&mut self.sink, s),
            Value::Array(items) => {
                self.sink.byte(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.sink.byte(b',');
                    }
                    self.value(item);
                }
                self.sink.byte(b']');
            }
            Value::Object(map) => self.object(map),
        }
        self.sink.settle();
    }

    fn object(&mut self, map: &'v Map<String, Value>) {
        let start = self.members.len();
        self.members
            .extend(map.iter().map(|(k, v)| (k.as_str(), v)));
        sort_members(&mut self.members[start..]);
        self.sink.byte(b'{');
        for i in start..self.members.len() {
            if i > start {
                self.sink.byte(b',');
            }
            let (key, value) = self.members[i];
            write_string(&mut self.sink, key);
            self.sink.byte(b':');
            self.value(value);
        }
        self.members.truncate(start);
        self.sink.byte(b'}');
    }
}

/// Sorts members by their names' UTF-16 code units (RFC 8785 section
/// 3.2.3). Without characters above U+FFFF (no UTF-8 lead byte >= 0xF0)
/// that is the order of the UTF-8 bytes; a map already in order is left.
fn sort_members(members: &mut [(&str, &Value)]) {
    let simple = members.iter().all(|(k, _)| !k.bytes().any(|b| b >= 0xF0));
    if !simple {
        members.sort_unstable_by(|a, b| utf16_cmp(a.0, b.0));
    } else if !members.is_sorted_by(|a, b| a.0.as_bytes() < b.0.as_bytes()) {
        members.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    }
}

/// Orders strings by their UTF-16 code units, as RFC 8785 section 3.2.3 requires.
/// For strings without characters above U+FFFF this is the order of code
/// points, which UTF-8 byte order preserves; only supplementary characters
/// (surrogate pairs, 0xD800..) sort differently from U+E000..U+FFFF.
fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Bytes a JSON string must escape: `"`, `\\` and the control characters.
const fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Escapes exactly as `JSON.stringify` does (and serde_json): `\"` `\\`
/// `\b` `\f` `\n` `\r` `\t`, other control characters as `\u00xx`
/// (lowercase), everything else literal. Runs without an escape are copied
/// whole.
fn write_string<S: Sink>(sink: &mut S, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    sink.byte(b'"');
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !needs_escape(b) {
            continue;
        }
        sink.put(&bytes[from..i]);
        from = i + 1;
        match b {
            b'"' => sink.put(b"\\\""),
            b'\\' => sink.put(b"\\\\"),
            b'\n' => sink.put(b"\\n"),
            b'\r' => sink.put(b"\\r"),
            b'\t' => sink.put(b"\\t"),
            0x08 => sink.put(b"\\b"),
            0x0c => sink.put(b"\\f"),
            _ => sink.put(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ]),
        }
    }
    sink.put(&bytes[from..]);
    sink.byte(b'"');
}

fn write_number<S: Sink>(sink: &mut S, n: &Number) {
    const SAFE: u64 = 1 << 53;
    if let Some(i) = n.as_u64().filter(|i| *i <= SAFE) {
        return sink.put(itoa::Buffer::new().format(i).as_bytes());
    }
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= SAFE) {
        return sink.put(itoa::Buffer::new().format(i).as_bytes());
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 {
        return sink.put(b"0"); // -0 is written as 0
    }
    sink.put(ryu_js::Buffer::new().format_finite(f).as_bytes());
}

#[cfg(test)]
#[path = "canonical_tests.rs"]
mod tests;
