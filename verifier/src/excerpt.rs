//! Bounded quotes: what a finding holds of provider-supplied text.
//!
//! A finding's path and detail are [`Text`] and its expected and actual
//! values [`Quote`]s; both keep at most [`EXCERPT_BYTES`] of what they are
//! made from and say how much was left out (`… (N bytes more)`). Their
//! only constructors bound, so no path that builds or edits a finding can
//! put a whole answer (an endless stream's states, a 10 MiB body) into the
//! report.

use std::fmt;
use std::io::Write;
use std::ops::Deref;

use serde::Serialize;
use serde_json::Value;

/// Most bytes of provider-supplied text a finding quotes per field.
pub const EXCERPT_BYTES: usize = 2048;

/// A finding's text, at most [`EXCERPT_BYTES`] of it kept.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(transparent)]
pub struct Text(String);

impl Text {
    /// The text as kept.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        if s.len() <= EXCERPT_BYTES {
            return Text(s);
        }
        let cut = boundary(&s, EXCERPT_BYTES);
        Text(marked(&s[..cut], s.len() - cut))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        let cut = boundary(s, EXCERPT_BYTES);
        match s.len() - cut {
            0 => Text(s.to_owned()),
            more => Text(marked(&s[..cut], more)),
        }
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Self {
        Text::from(s.as_str())
    }
}

impl From<Text> for String {
    fn from(t: Text) -> Self {
        t.0
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

/// A finding's expected or actual value: kept as is when its JSON fits in
/// [`EXCERPT_BYTES`]; a longer string keeps its head, any other longer
/// value becomes the head of its JSON text, as a string.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Quote(Value);

impl From<Value> for Quote {
    fn from(v: Value) -> Self {
        if let Value::String(s) = v {
            return Quote(Value::String(Text::from(s).0));
        }
        let mut head = Head::default();
        // writing into memory cannot fail; a value is always serializable
        let _ = serde_json::to_writer(&mut head, &v);
        if head.total <= EXCERPT_BYTES {
            return Quote(v);
        }
        let text = String::from_utf8_lossy(&head.kept);
        let cut = boundary(&text, EXCERPT_BYTES);
        Quote(Value::String(marked(&text[..cut], head.total - cut)))
    }
}

impl Deref for Quote {
    type Target = Value;
    fn deref(&self) -> &Value {
        &self.0
    }
}

impl PartialEq<Value> for Quote {
    fn eq(&self, other: &Value) -> bool {
        &self.0 == other
    }
}

/// The first bytes written, and how many were.
#[derive(Default)]
struct Head {
    kept: Vec<u8>,
    total: usize,
}

impl Write for Head {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = (EXCERPT_BYTES + 4).saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&buf[..room.min(buf.len())]);
        self.total += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The largest char boundary of `s` at or below `at`.
fn boundary(s: &str, at: usize) -> usize {
    let mut cut = at.min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

fn marked(head: &str, more: usize) -> String {
    format!("{head}… ({more} bytes more)")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn short_text_and_values_are_kept_as_they_are() {
        assert_eq!(Text::from("a detail"), "a detail");
        assert_eq!(Quote::from(json!({"a": [1, 2]})), json!({"a": [1, 2]}));
    }

    #[test]
    fn long_text_keeps_its_head_and_counts_the_rest() {
        let t = Text::from("é".repeat(3000));
        assert!(t.len() < EXCERPT_BYTES + 40, "{}", t.len());
        assert!(t.ends_with("… (3952 bytes more)"), "{}", &t[t.len() - 30..]);
    }

    #[test]
    fn a_long_value_becomes_the_head_of_its_json() {
        let states: Vec<&str> = vec!["TASK_STATE_WORKING"; 3000];
        let q = Quote::from(json!(states));
        let text = q.as_str().expect("a string");
        assert!(text.starts_with("[\"TASK_STATE_WORKING\","));
        assert!(text.len() < EXCERPT_BYTES + 40);
        assert!(text.contains("bytes more)"));
        let long = Quote::from(json!("x".repeat(5000)));
        assert_eq!(
            long.as_str().map(str::len),
            Some(2048 + "… (2952 bytes more)".len())
        );
    }
}
