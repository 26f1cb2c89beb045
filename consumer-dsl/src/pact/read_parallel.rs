//! Reading a large contract on several threads: what [`read_contract`]
//! reads, the same [`Contract`] and the same errors, with the interactions
//! parsed and read in parallel.
//!
//! The text is scanned once with the top-level values kept as raw text;
//! every top-level value but `interactions` is parsed and read as
//! [`from_value`] reads it, and the interactions are parsed, read and
//! dropped in order-kept chunks, one per thread (the usual V4 HTTP
//! interaction straight into typed parts, [`super::read_typed`]).
//! Anything unusual (no declared specification version, `interactions`
//! not an array or named twice, an interaction nested near serde_json's
//! depth limit) and any error at all go to [`read_contract`], which then
//! gives the answer, so a refusal reads exactly as it always did.

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::json::At;
use super::read::{detect_spec_declared, from_value, read_contract, read_listed};
use crate::DslError;
use crate::model::{Contract, Interaction};

/// Below this size a document is read on the caller's thread: a thread
/// costs more than it saves (a 1,000-interaction Pact is ~480 KB).
pub const PARALLEL_FROM_BYTES: usize = 64 * 1024;

/// The deepest a top-level value or an interaction may nest here (read
/// alone, serde_json would allow it 128 levels): the whole document may
/// nest 128 deep, a top-level value sits 1 below the root and an
/// interaction 2.
const MAX_PART_DEPTH: usize = 120;

/// [`read_contract`] on up to `threads` threads (1: the caller's only).
pub fn read_contract_parallel(
    text: &str,
    origin: &str,
    threads: usize,
) -> Result<Contract, DslError> {
    if threads > 1
        && text.len() >= PARALLEL_FROM_BYTES
        && let Some(contract) = in_parallel(text, origin, threads)
    {
        return Ok(contract);
    }
    read_contract(text, origin)
}

/// The contract read with its interactions in parallel, or `None` where
/// [`read_contract`] must answer.
fn in_parallel(text: &str, origin: &str, threads: usize) -> Option<Contract> {
    let Entries(entries) = serde_json::from_str(text).ok()?;
    let mut root = Map::new();
    let mut listed: Option<Vec<&RawValue>> = None;
    for (key, member) in entries {
        match member {
            Member::Listed(items) => {
                if listed.replace(items).is_some() {
                    return None;
                }
                root.insert(key, Value::Array(Vec::new()));
            }
            Member::Raw(raw) => {
                if depth(raw.get()) > MAX_PART_DEPTH {
                    return None;
                }
                root.insert(key, serde_json::from_str(raw.get()).ok()?);
            }
        }
    }
    let root = Value::Object(root);
    let items = listed.unwrap_or_default();
    let spec = detect_spec_declared(&root, origin)?;
    let mut contract = from_value(&root, origin).ok()?;
    drop(root);
    // a thread for each 64 interactions at least, 8 at most
    let threads = threads.min(items.len() / 64).clamp(1, 8);
    let per = items.len().div_ceil(threads).max(1);
    let read: Vec<Option<Vec<Interaction>>> = std::thread::scope(|scope| {
        let chunks: Vec<_> = items
            .chunks(per)
            .enumerate()
            .map(|(n, chunk)| scope.spawn(move || read_chunk(chunk, n * per, spec, origin)))
            .collect();
        chunks.into_iter().map(|c| c.join().ok()?).collect()
    });
    let mut interactions = Vec::with_capacity(items.len());
    for chunk in read {
        interactions.extend(chunk?);
    }
    // the `interactions` come before the `messages`, as the reader puts them
    interactions.append(&mut contract.interactions);
    contract.interactions = interactions;
    Some(contract)
}

/// The interactions of one chunk, `first` the index of its first.
fn read_chunk(
    chunk: &[&RawValue],
    first: usize,
    spec: crate::model::PactSpec,
    origin: &str,
) -> Option<Vec<Interaction>> {
    let mut out = Vec::with_capacity(chunk.len());
    for (i, raw) in chunk.iter().enumerate() {
        if depth(raw.get()) > MAX_PART_DEPTH {
            return None;
        }
        let path = format!("$.interactions[{}]", first + i);
        let at = At {
            origin,
            path: &path,
        };
        // the usual V4 HTTP interaction without a `Value` tree
        if spec == crate::model::PactSpec::V4
            && let Some(read) = super::read_typed::http(raw.get(), at)
        {
            out.push(read);
            continue;
        }
        let item: Value = serde_json::from_str(raw.get()).ok()?;
        out.push(read_listed(&item, spec, at).ok()?);
    }
    Some(out)
}

/// How deep arrays and objects nest in JSON text (strings skipped).
fn depth(text: &str) -> usize {
    let (mut now, mut most, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                now += 1;
                most = most.max(now);
            }
            b']' | b'}' => now = now.saturating_sub(1),
            _ => {}
        }
    }
    most
}

/// A JSON object's members in document order: `interactions` as its
/// items' raw text (it must be an array), the others as raw text.
struct Entries<'a>(Vec<(String, Member<'a>)>);

enum Member<'a> {
    Listed(Vec<&'a RawValue>),
    Raw(&'a RawValue),
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Entries<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Members<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for Members<'a> {
            type Value = Entries<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Entries<'a>, M::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    let member = match key.as_str() {
                        "interactions" => Member::Listed(map.next_value()?),
                        _ => Member::Raw(map.next_value()?),
                    };
                    out.push((key, member));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(Members(std::marker::PhantomData))
    }
}

#[cfg(test)]
#[path = "read_parallel_tests.rs"]
mod tests;
