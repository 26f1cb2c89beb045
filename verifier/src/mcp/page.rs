//! One `tools/list` answer read into a page of the listing (`listing.rs`)
//! without a `serde_json::Value` tree: the JSON-RPC message is walked once,
//! each tool read straight into its canonical text (`canon.rs`) and counted
//! against the room the listing has left, so a page past it stops there.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::canon::{Canonical, object};
use super::listing::{Entry, MAX_TOOL_BYTES};
use crate::transport::Received;

/// What a listing may still take.
#[derive(Debug, Clone, Copy)]
pub(super) struct Room {
    pub tools: usize,
    pub bytes: usize,
}

/// One answer to `tools/list`.
#[derive(Debug)]
pub(super) enum Page {
    /// The page's tools and the cursor of the next page, if any.
    Read {
        tools: Vec<Entry>,
        next: Option<String>,
    },
    /// No page: why (an error answered, not JSON-RPC, no tools array).
    Refused(String),
    /// The page holds more than the listing has room for: how.
    Over(String),
}

/// The page in an answer to request `id` (JSON, or the SSE event that
/// carries the response).
pub(super) fn page(received: &Received, id: u64, room: Room) -> Page {
    let sse = received
        .header("content-type")
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("text/event-stream"));
    if received.body.is_empty() {
        return Page::Refused(format!("an empty answer with HTTP {}", received.status));
    }
    if !sse {
        return match message(&received.body, id, room) {
            Ok(m) if m.ours || m.id_null_error() => m.into_page(),
            Ok(_) => Page::Refused("the response carries another id than the request's".into()),
            Err(page) => page,
        };
    }
    let text = String::from_utf8_lossy(&received.body);
    for data in super::sse::events(&text) {
        match message(data.as_bytes(), id, room) {
            Ok(m) if m.ours && !m.request => return m.into_page(),
            Err(over @ Page::Over(_)) => return over,
            _ => {}
        }
    }
    Page::Refused("no JSON-RPC response with the request's id in the event stream".into())
}

/// A JSON-RPC message, as much of it as a page needs.
#[derive(Debug, Default)]
struct Message {
    ours: bool,
    id_null: bool,
    /// It has a `method`: a request or notification, not the response.
    request: bool,
    result: Option<PageResult>,
    error: Option<ErrorHead>,
}

#[derive(Debug, Default)]
struct PageResult {
    tools: Option<Vec<Entry>>,
    next: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ErrorHead {
    code: Option<i64>,
    #[serde(default)]
    message: String,
}

impl Message {
    fn id_null_error(&self) -> bool {
        self.id_null && self.error.is_some()
    }

    fn into_page(self) -> Page {
        if let Some(e) = self.error {
            return match e.code {
                Some(code) => {
                    Page::Refused(format!("tools/list answered error {code} `{}`", e.message))
                }
                None => Page::Refused("tools/list: an error without a numeric code".into()),
            };
        }
        match self.result {
            Some(PageResult {
                tools: Some(tools),
                next,
            }) => Page::Read { tools, next },
            Some(_) => Page::Refused("tools/list answered no tools array".into()),
            None => {
                Page::Refused("tools/list: a JSON-RPC answer with neither result nor error".into())
            }
        }
    }
}

/// Reads one message; `Err` with the page it makes when it is not one
/// (not JSON) or is past the room.
fn message(text: &[u8], id: u64, room: Room) -> Result<Message, Page> {
    let mut over = None;
    let mut d = serde_json::Deserializer::from_slice(text);
    let read = MessageSeed {
        id,
        room,
        over: &mut over,
    }
    .deserialize(&mut d)
    .and_then(|m| d.end().map(|()| m));
    match (read, over) {
        (_, Some(how)) => Err(Page::Over(how)),
        (Ok(m), None) => Ok(m),
        (Err(e), None) => Err(Page::Refused(format!(
            "tools/list: the answer is not JSON-RPC: {e}"
        ))),
    }
}

struct MessageSeed<'a> {
    id: u64,
    room: Room,
    over: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for MessageSeed<'_> {
    type Value = Message;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Message, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for MessageSeed<'_> {
    type Value = Message;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        let mut m = Message::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "id" => match map.next_value::<Option<Scalar>>()? {
                    None => m.id_null = true,
                    Some(got) => m.ours = matches!(got, Scalar::U64(n) if n == self.id),
                },
                "method" => {
                    map.next_value::<IgnoredAny>()?;
                    m.request = true;
                }
                "error" => m.error = Some(map.next_value()?),
                "result" => {
                    let seed = ResultSeed {
                        room: self.room,
                        over: &mut *self.over,
                    };
                    m.result = Some(map.next_value_seed(seed)?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(m)
    }
}

/// An id or cursor: a non-negative integer, a string, or other JSON (read,
/// not kept).
enum Scalar {
    U64(u64),
    Str(String),
    Other,
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an id or a cursor")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
        Ok(Scalar::U64(v))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Scalar, E> {
        Ok(Scalar::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Scalar, E> {
        Ok(Scalar::Other)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Scalar, E> {
        Ok(Scalar::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Scalar, E> {
        Ok(Scalar::Other)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
        Ok(Scalar::Str(v.to_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Scalar, A::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Scalar, A::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Other)
    }
}

struct ResultSeed<'a> {
    room: Room,
    over: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for ResultSeed<'_> {
    type Value = PageResult;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<PageResult, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ResultSeed<'_> {
    type Value = PageResult;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tools/list result")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PageResult, A::Error> {
        let mut r = PageResult::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "tools" => {
                    let seed = ToolsSeed {
                        room: self.room,
                        over: &mut *self.over,
                    };
                    r.tools = map.next_value_seed(seed)?;
                }
                "nextCursor" => {
                    r.next = match map.next_value::<Option<Scalar>>()? {
                        Some(Scalar::Str(c)) => Some(c),
                        _ => None,
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(r)
    }
}

/// The tools array, each tool counted against the room as it is read.
struct ToolsSeed<'a> {
    room: Room,
    over: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for ToolsSeed<'_> {
    type Value = Option<Vec<Entry>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ToolsSeed<'_> {
    type Value = Option<Vec<Entry>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tools array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut tools = Vec::new();
        let mut bytes = 0;
        while let Some((name, text)) = seq.next_element_seed(Named)? {
            bytes += text.len();
            let over = if tools.len() == self.room.tools {
                Some(format!("more than {} tools", tools.len()))
            } else if text.len() > MAX_TOOL_BYTES {
                Some(format!(
                    "a tool of {} bytes, more than {MAX_TOOL_BYTES}",
                    text.len()
                ))
            } else if bytes > self.room.bytes {
                Some("more bytes than the listing may take".to_owned())
            } else {
                None
            };
            if over.is_some() {
                *self.over = over;
                return Err(de::Error::custom("the listing is past its budget"));
            }
            tools.push(Entry::new(
                name.map(String::into_boxed_str),
                text.into_boxed_str(),
            ));
        }
        Ok(Some(tools))
    }
}

/// One tool: its canonical text, and its name when that is a string.
struct Named;

impl<'de> DeserializeSeed<'de> for Named {
    type Value = (Option<String>, String);

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Named {
    type Value = (Option<String>, String);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tool")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members: Vec<(String, String)> = Vec::new();
        let mut name = None;
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Canonical)?;
            if key == "name" {
                // the last `name` counts, as in a parsed map
                name = serde_json::from_str::<String>(&value).ok();
            }
            members.push((key, value));
        }
        Ok((name, object(members)))
    }

    // anything else is kept as it is, without a name
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Canonical.visit_bool(v).map(|t| (None, t))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Canonical.visit_i64(v).map(|t| (None, t))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Canonical.visit_u64(v).map(|t| (None, t))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Canonical.visit_f64(v).map(|t| (None, t))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Canonical.visit_str(v).map(|t| (None, t))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Canonical.visit_unit().map(|t| (None, t))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Canonical.visit_seq(seq).map(|t| (None, t))
    }
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
